// Private records arrive in more than one spelling (REST read models, stream messages, the SDK's
// names). These readers give the blotters one shape and keep every value a decimal string.
import { Decimal, isDecimalString } from '../../src-shared/money';

export type BookSide = 'bid' | 'ask';

export interface OrderRow {
  order_id: string;
  client_order_id: string | undefined;
  ticker: string;
  status: string;
  /** the YES leg: bid buys YES, ask sells YES */
  side: BookSide;
  /** YES price in dollars, "0.5300" */
  price: string;
  remaining: string;
  filled: string;
  initial: string;
  created: string | number | undefined;
  updated: string | number | undefined;
  order_group_id: string | undefined;
  subaccount: number | undefined;
  time_in_force: string | undefined;
  fees: string | undefined;
}

export interface PositionRow {
  ticker: string;
  /** signed YES contracts: negative is a NO position */
  position: string;
  exposure: string | undefined;
  realized: string | undefined;
  fees: string | undefined;
  traded: string | undefined;
  subaccount: number | undefined;
  updated: number | string | undefined;
}

export interface FillRow {
  fill_id: string;
  /** the public trade this fill was part of (to mark my fills on the tape) */
  trade_id: string | undefined;
  order_id: string;
  ticker: string;
  side: BookSide | undefined;
  price: string;
  count: string;
  is_taker: boolean | undefined;
  fee: string | undefined;
  ts: number | string | undefined;
  post_position: string | undefined;
  subaccount: number | undefined;
}

type Rec = Record<string, unknown>;

const str = (r: Rec, ...keys: string[]): string | undefined => {
  for (const k of keys) {
    const v = r[k];
    if (typeof v === 'string' && v !== '') return v;
  }
  return undefined;
};
const dec = (r: Rec, ...keys: string[]): string | undefined => {
  for (const k of keys) {
    const v = r[k];
    if (isDecimalString(v)) return v;
    if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  }
  return undefined;
};
const int = (r: Rec, ...keys: string[]): number | undefined => {
  for (const k of keys) {
    const v = r[k];
    if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
  }
  return undefined;
};
const time = (r: Rec, ...keys: string[]): number | string | undefined => {
  for (const k of keys) {
    const v = r[k];
    if ((typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && v !== '')) return v;
  }
  return undefined;
};

/** The YES-leg side from whichever of book_side, side (bid/ask or yes/no) and action is present. */
export function yesLegSide(r: Rec): BookSide | undefined {
  const book = str(r, 'book_side');
  if (book === 'bid' || book === 'ask') return book;
  const side = str(r, 'side');
  if (side === 'bid' || side === 'ask') return side;
  const outcome = side ?? str(r, 'outcome_side', 'purchased_side');
  if (outcome !== 'yes' && outcome !== 'no') return undefined;
  const action = str(r, 'action');
  const buying = action !== 'sell';
  return (outcome === 'yes') === buying ? 'bid' : 'ask';
}

function yesPrice(r: Rec): string | undefined {
  const yes = dec(r, 'yes_price_dollars', 'price_dollars');
  if (yes) return yes;
  const no = dec(r, 'no_price_dollars');
  return no ? new Decimal(1).minus(no).toFixed(4) : undefined;
}

export function normalizeOrder(r: Rec): OrderRow | null {
  const order_id = str(r, 'order_id');
  const ticker = str(r, 'ticker', 'market_ticker');
  const side = yesLegSide(r);
  const price = yesPrice(r);
  if (!order_id || !ticker || !side || !price) return null;
  const remaining = dec(r, 'remaining_count_fp', 'remaining_count') ?? '0';
  const filled = dec(r, 'fill_count_fp', 'fill_count') ?? '0';
  const initial = dec(r, 'initial_count_fp', 'initial_count') ?? new Decimal(remaining).add(filled).toFixed(2);
  const rawStatus = str(r, 'status') ?? 'resting';
  const status = rawStatus === 'cancelled' ? 'canceled' : rawStatus;
  const takerFees = dec(r, 'taker_fees_dollars');
  const makerFees = dec(r, 'maker_fees_dollars');
  const fees = takerFees || makerFees ? new Decimal(takerFees ?? '0').add(makerFees ?? '0').toFixed(4) : undefined;
  return {
    order_id,
    client_order_id: str(r, 'client_order_id'),
    ticker,
    status,
    side,
    price,
    remaining,
    filled,
    initial,
    created: time(r, 'created_time', 'created_ts_ms'),
    updated: time(r, 'last_update_time', 'created_time'),
    order_group_id: str(r, 'order_group_id'),
    subaccount: int(r, 'subaccount_number', 'subaccount'),
    time_in_force: str(r, 'time_in_force'),
    fees,
  };
}

export function normalizePosition(r: Rec): PositionRow | null {
  const ticker = str(r, 'ticker', 'market_ticker');
  const position = dec(r, 'position_fp', 'position');
  if (!ticker || position === undefined) return null;
  return {
    ticker,
    position,
    exposure: dec(r, 'market_exposure_dollars', 'position_cost_dollars'),
    realized: dec(r, 'realized_pnl_dollars'),
    fees: dec(r, 'fees_paid_dollars'),
    traded: dec(r, 'total_traded_dollars'),
    subaccount: int(r, 'subaccount_number', 'subaccount'),
    updated: time(r, 'last_updated_ts'),
  };
}

export function normalizeFill(r: Rec): FillRow | null {
  const fill_id = str(r, 'fill_id', 'trade_id');
  const order_id = str(r, 'order_id');
  const ticker = str(r, 'ticker', 'market_ticker');
  const price = yesPrice(r);
  const count = dec(r, 'count_fp', 'count');
  if (!fill_id || !order_id || !ticker || !price || !count) return null;
  const taker = r.is_taker;
  return {
    fill_id,
    trade_id: str(r, 'trade_id'),
    order_id,
    ticker,
    side: yesLegSide(r),
    price,
    count,
    is_taker: typeof taker === 'boolean' ? taker : undefined,
    fee: dec(r, 'fee_cost'),
    // to the millisecond: the stream's ts_ms, REST's created_time; ts is whole seconds
    ts: time(r, 'ts_ms', 'created_time', 'ts'),
    post_position: dec(r, 'post_position_fp'),
    subaccount: int(r, 'subaccount_number', 'subaccount'),
  };
}

/** The id of an RFQ or quote record in either spelling. */
export function recordId(r: Rec, key: 'rfq_id' | 'quote_id' | 'order_group_id'): string | undefined {
  return str(r, key, 'id');
}
