// Portfolio reads (balance, positions, settlements, fills, money movement, target allocation)
// and subaccounts. Cents fields are integers; everything else money or count is decimal text.
import { z } from 'zod';
import {
  CountIn,
  DollarsIn,
  ExchangeIndex,
  ExchangeIndexRead,
  ExchangeInstance,
  nullableArray,
  optionalBody,
  pageOf,
  pick,
  Subaccount,
  UnixTs,
} from './common';
import { openEnum } from './novelty';

/** Integer cents. */
export const Cents = z.number().int();

/** `{exchange_index, balance}` where `balance` is dollars (not cents). */
export const IndexedBalance = z.object({ exchange_index: ExchangeIndexRead, balance: DollarsIn }).loose();
export type IndexedBalance = z.output<typeof IndexedBalance>;

export const Balance = z
  .object({
    balance: Cents,
    balance_dollars: DollarsIn,
    portfolio_value: Cents,
    updated_ts: UnixTs,
    balance_breakdown: nullableArray(IndexedBalance).optional(),
  })
  .loose();
export type Balance = z.output<typeof Balance>;

/** FCM members only. `resting_order_value_breakdown` is required but may be empty. */
export const TotalRestingOrderValue = z
  .object({
    total_resting_order_value: Cents,
    resting_order_value_breakdown: nullableArray(IndexedBalance),
  })
  .loose();
export type TotalRestingOrderValue = z.output<typeof TotalRestingOrderValue>;

export const MarketPosition = z
  .object({
    ticker: z.string().min(1),
    exchange_index: ExchangeIndexRead,
    position_fp: CountIn,
    realized_pnl_dollars: DollarsIn,
    total_traded_dollars: DollarsIn,
    market_exposure_dollars: DollarsIn,
    fees_paid_dollars: DollarsIn,
    last_updated_ts: UnixTs.optional(),
    subaccount_number: Subaccount.nullish(),
  })
  .loose();
export type MarketPosition = z.output<typeof MarketPosition>;

export const EventPosition = z
  .object({
    event_ticker: z.string().min(1),
    event_exposure_dollars: DollarsIn,
    total_cost_dollars: DollarsIn.optional(),
    total_cost_shares_fp: CountIn.optional(),
    realized_pnl_dollars: DollarsIn.optional(),
    fees_paid_dollars: DollarsIn.optional(),
  })
  .loose();
export type EventPosition = z.output<typeof EventPosition>;

/**
 * GET /portfolio/positions (also /fcm/positions and /historical/positions). Not the standard page
 * envelope: two arrays (either may be null: read as []) plus `cursor`/`has_next`. Walk it by
 * `market_positions`; `event_positions` are page-local aggregates.
 */
export const PositionsResponse = z
  .object({
    market_positions: nullableArray(MarketPosition),
    event_positions: nullableArray(EventPosition),
    cursor: z.string().nullish(),
    has_next: z.boolean().optional(),
  });
export type PositionsResponse = z.output<typeof PositionsResponse>;

export const SettlementStatus = z.enum(['unsettled', 'settled', 'all']);

/** Settlement: spec `settled_at` (SDK `settled_time`, an RFC 3339 string); output `settled_at` in Unix seconds. */
export const Settlement = z
  .object({
    ticker: z.string().min(1),
    event_ticker: z.string().optional(),
    exchange_index: ExchangeIndexRead,
    market_result: openEnum('settlement.market_result', ['yes', 'no', 'scalar', 'void', '']),
    revenue: Cents,
    settled_at: UnixTs.optional(),
    settled_time: UnixTs.optional(),
    yes_count_fp: CountIn.optional(),
    no_count_fp: CountIn.optional(),
    yes_total_cost_dollars: DollarsIn.optional(),
    no_total_cost_dollars: DollarsIn.optional(),
    fee_cost: DollarsIn.optional(),
    value: z.number().int().nullish(),
    subaccount_number: Subaccount.nullish(),
  })
  .loose()
  .transform(({ settled_time, ...s }, ctx) => ({ ...s, settled_at: pick(ctx, 'settled_at (or the SDK settled_time)', s.settled_at, settled_time) }));
export type Settlement = z.output<typeof Settlement>;
export const SettlementsPage = pageOf('settlements', Settlement);

/**
 * A fill. Spec: `trade_id`, `order_id`, `ticker`, `yes_price`, `count`, `is_taker`, `exchange_index`
 * (required since 3.29.0), `fill_id`. The SDK sends both ids (same value) and `market_ticker`; the
 * output always has `fill_id`, `trade_id` and `ticker`.
 */
export const Fill = z
  .object({
    fill_id: z.string().optional(),
    trade_id: z.string().optional(),
    order_id: z.string().min(1),
    ticker: z.string().optional(),
    market_ticker: z.string().optional(),
    exchange_index: ExchangeIndexRead,
    yes_price_dollars: DollarsIn,
    no_price_dollars: DollarsIn.optional(),
    count_fp: CountIn,
    is_taker: z.boolean(),
    book_side: openEnum('fill.book_side', ['bid', 'ask']).optional(),
    outcome_side: openEnum('fill.outcome_side', ['yes', 'no']).optional(),
    side: openEnum('fill.side', ['yes', 'no']).optional(),
    action: openEnum('fill.action', ['buy', 'sell']).optional(),
    fee_cost: DollarsIn.optional(),
    post_position_fp: CountIn.optional(),
    client_order_id: z.string().nullish(),
    subaccount_number: Subaccount.nullish(),
    created_time: z.string().optional(),
    ts: UnixTs.optional(),
  })
  .loose()
  .transform((f, ctx) => {
    const id = pick(ctx, 'fill_id or trade_id', f.fill_id, f.trade_id);
    return { ...f, fill_id: f.fill_id ?? id, trade_id: f.trade_id ?? id, ticker: pick(ctx, 'ticker', f.ticker, f.market_ticker) };
  });
export type Fill = z.output<typeof Fill>;
export const FillsPage = pageOf('fills', Fill);
export type FillsPage = z.output<typeof FillsPage>;

export const MoneyMovementStatus = z.enum(['pending', 'applied', 'failed', 'returned']);
export const MoneyMovementType = z.enum(['ach', 'wire', 'crypto', 'debit', 'apm']);

/** Deposits and withdrawals share one shape. */
export const Deposit = z
  .object({
    id: z.string().min(1),
    status: openEnum('deposit.status', MoneyMovementStatus.options),
    type: openEnum('deposit.type', MoneyMovementType.options),
    amount_cents: Cents,
    fee_cents: Cents,
    created_ts: UnixTs,
    finalized_ts: UnixTs.nullish(),
  })
  .loose();
export type Deposit = z.output<typeof Deposit>;
export const Withdrawal = Deposit;
export type Withdrawal = Deposit;
export const DepositsPage = pageOf('deposits', Deposit);
export const WithdrawalsPage = pageOf('withdrawals', Withdrawal);

export const IntraExchangeTransfer = z
  .object({
    transfer_id: z.string().min(1),
    source: openEnum('transfer.source', ExchangeInstance.options),
    destination: openEnum('transfer.destination', ExchangeInstance.options),
    amount: DollarsIn,
    status: z.string(),
    created_ts: UnixTs,
    source_exchange_shard: z.number().int().optional(),
    destination_exchange_shard: z.number().int().optional(),
  })
  .loose();
export type IntraExchangeTransfer = z.output<typeof IntraExchangeTransfer>;
export const IntraExchangeTransfersPage = pageOf('transfers', IntraExchangeTransfer);
export const IntraExchangeTransferResponse = z.object({ transfer: IntraExchangeTransfer });

export const RestingMarginReservation = z.enum(['max', 'sum']);

/** `percent` is an integer 0-100; at most 101 rows. */
export const TargetAllocation = z
  .object({
    exchange_index: z.number().int().nonnegative(),
    percent: z.number().int().min(0, 'percent must be 0-100').max(100, 'percent must be 0-100'),
  })
  .strict();
export type TargetAllocation = z.output<typeof TargetAllocation>;

export const TargetBalanceAllocation = z
  .object({
    allocations: nullableArray(z.object({ exchange_index: z.number().int(), percent: z.number().int() }).loose()),
    resting_margin_reservation: RestingMarginReservation.optional(),
  })
  .loose();
export type TargetBalanceAllocation = z.output<typeof TargetBalanceAllocation>;

/** Replaces all sweep targets. `resting_margin_reservation` defaults to `sum`. */
export const SetTargetBalanceAllocationRequest = z
  .object({
    allocations: z.array(TargetAllocation).max(101, 'at most 101 allocation rows'),
    resting_margin_reservation: RestingMarginReservation.optional(),
  })
  .strict();
export type SetTargetBalanceAllocationRequest = z.output<typeof SetTargetBalanceAllocationRequest>;

// ---------------------------------------------------------------------------
// Subaccounts

/** Body may be `{}` (send an empty JSON object); an absent body reads as `{}` too. */
export const CreateSubaccountRequest = optionalBody(z.object({ exchange_index: z.number().int().nonnegative().optional() }).strict());
export type CreateSubaccountRequest = z.output<typeof CreateSubaccountRequest>;

export const CreateSubaccountResponse = z.object({ subaccount_number: Subaccount });
export type CreateSubaccountResponse = z.output<typeof CreateSubaccountResponse>;

/** Cash transfer between subaccounts; `client_transfer_id` (UUID) is the idempotency key. */
export const SubaccountTransferRequest = z
  .object({
    client_transfer_id: z.uuid({ message: 'client_transfer_id must be a UUID' }),
    from_subaccount: Subaccount,
    to_subaccount: Subaccount,
    amount_cents: z.number().int('amount_cents must be an integer').positive('amount_cents must be positive'),
    exchange_index: z.number().int().nonnegative().optional(),
  })
  .strict()
  .refine((v) => v.from_subaccount !== v.to_subaccount, { message: 'from_subaccount and to_subaccount must differ' });
export type SubaccountTransferRequest = z.output<typeof SubaccountTransferRequest>;

export const SubaccountBalance = z
  .object({
    subaccount_number: Subaccount,
    balance: DollarsIn,
    updated_ts: UnixTs,
    exchange_index: ExchangeIndex.optional(),
  })
  .loose();
export type SubaccountBalance = z.output<typeof SubaccountBalance>;
export const SubaccountBalancesResponse = z.object({ subaccount_balances: nullableArray(SubaccountBalance) });

export const SubaccountTransfer = z
  .object({
    transfer_id: z.string().min(1),
    from_subaccount: Subaccount,
    to_subaccount: Subaccount,
    amount_cents: Cents,
    created_ts: UnixTs,
    exchange_index: ExchangeIndex.optional(),
  })
  .loose();
export type SubaccountTransfer = z.output<typeof SubaccountTransfer>;
export const SubaccountTransfersPage = pageOf('transfers', SubaccountTransfer);

export const SubaccountNettingConfig = z
  .object({ subaccount_number: Subaccount, enabled: z.boolean(), exchange_index: ExchangeIndex.optional() })
  .loose();
export type SubaccountNettingConfig = z.output<typeof SubaccountNettingConfig>;
export const SubaccountNettingResponse = z.object({ netting_configs: nullableArray(SubaccountNettingConfig) });

export const SetSubaccountNettingRequest = z.object({ subaccount_number: Subaccount, enabled: z.boolean() }).strict();
export type SetSubaccountNettingRequest = z.output<typeof SetSubaccountNettingRequest>;
