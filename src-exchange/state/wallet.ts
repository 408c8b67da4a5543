// Per-account money records the matching engine does not keep: deposit and withdrawal
// history, transfers between exchange instances, the target balance allocation, subaccount
// netting, and which orders came in through the API (the usage-level upgrade rule).
// Plain JSON, changed only by journaled commands; every value arrives in the command.

export type MoneyMovementStatus = 'pending' | 'applied' | 'failed' | 'returned';
export type MoneyMovementType = 'ach' | 'wire' | 'crypto' | 'debit' | 'apm';
export type ExchangeInstance = 'event_contract' | 'margined';
export type RestingMarginReservation = 'max' | 'sum';

export interface MoneyMovement {
  id: string;
  status: MoneyMovementStatus;
  type: MoneyMovementType;
  amount_cents: number;
  fee_cents: number;
  /** Unix seconds */
  created_ts: number;
  finalized_ts: number | null;
}

export interface InstanceTransfer {
  transfer_id: string;
  source: ExchangeInstance;
  destination: ExchangeInstance;
  source_exchange_shard: number;
  destination_exchange_shard: number;
  amount_micro: number;
  status: 'pending' | 'complete';
  created_ts: number;
}

export interface Allocation {
  exchange_index: number;
  percent: number;
}

export interface TargetAllocation {
  allocations: Allocation[];
  resting_margin_reservation: RestingMarginReservation;
}

export interface WalletAccount {
  /** oldest first */
  deposits: MoneyMovement[];
  withdrawals: MoneyMovement[];
  instance_transfers: InstanceTransfer[];
  /** null until set: everything on exchange index 0 */
  allocation: TargetAllocation | null;
  /** subaccount number (as text) -> netting enabled */
  netting: Record<string, boolean>;
}

export interface WalletState {
  accounts: Record<string, WalletAccount>;
}

export const MAX_ALLOCATION_ROWS = 101;

export const DEFAULT_ALLOCATION: TargetAllocation = {
  allocations: [{ exchange_index: 0, percent: 100 }],
  resting_margin_reservation: 'sum',
};

export type WalletCommand =
  | {
      type: 'seedWalletHistory';
      nowMs: number;
      userId: string;
      deposits: MoneyMovement[];
      withdrawals: MoneyMovement[];
      instanceTransfers: InstanceTransfer[];
    }
  | { type: 'setTargetBalanceAllocation'; nowMs: number; userId: string; allocation: TargetAllocation }
  | { type: 'setSubaccountNetting'; nowMs: number; userId: string; subaccount: number; enabled: boolean };

export type WalletResult = { ok: true } | { ok: false; code: 'invalid_parameters' | 'not_found' | 'conflict'; message: string };

export function emptyWallet(): WalletState {
  return { accounts: {} };
}

export function emptyWalletAccount(): WalletAccount {
  return { deposits: [], withdrawals: [], instance_transfers: [], allocation: null, netting: {} };
}

/** The account's records, created on first write. */
function accountOf(state: WalletState, userId: string): WalletAccount {
  let a = state.accounts[userId];
  if (!a) {
    a = emptyWalletAccount();
    state.accounts[userId] = a;
  }
  return a;
}

/** Read side: an account with no records reads as empty. */
export function walletOf(state: WalletState, userId: string): WalletAccount {
  return state.accounts[userId] ?? emptyWalletAccount();
}

export function checkAllocation(a: TargetAllocation): string | null {
  if (a.allocations.length > MAX_ALLOCATION_ROWS) return `at most ${MAX_ALLOCATION_ROWS} allocation rows`;
  const seen = new Set<number>();
  let sum = 0;
  for (const row of a.allocations) {
    if (!Number.isSafeInteger(row.exchange_index) || row.exchange_index < 0) return 'exchange_index must be a non-negative integer';
    if (!Number.isInteger(row.percent) || row.percent < 0 || row.percent > 100) return 'percent must be an integer 0-100';
    if (seen.has(row.exchange_index)) return `exchange_index ${row.exchange_index} appears more than once`;
    seen.add(row.exchange_index);
    sum += row.percent;
  }
  if (sum > 100) return `allocations add up to ${sum} percent; at most 100`;
  if (a.resting_margin_reservation !== 'max' && a.resting_margin_reservation !== 'sum') return "resting_margin_reservation must be 'max' or 'sum'";
  return null;
}

export function applyWallet(state: WalletState, cmd: WalletCommand): WalletResult {
  switch (cmd.type) {
    case 'seedWalletHistory': {
      const existing = state.accounts[cmd.userId];
      if (existing && (existing.deposits.length || existing.withdrawals.length || existing.instance_transfers.length)) {
        return { ok: false, code: 'conflict', message: 'wallet history is already seeded' };
      }
      const a = accountOf(state, cmd.userId);
      a.deposits = cmd.deposits.map((d) => ({ ...d }));
      a.withdrawals = cmd.withdrawals.map((w) => ({ ...w }));
      a.instance_transfers = cmd.instanceTransfers.map((t) => ({ ...t }));
      return { ok: true };
    }
    case 'setTargetBalanceAllocation': {
      const bad = checkAllocation(cmd.allocation);
      if (bad) return { ok: false, code: 'invalid_parameters', message: bad };
      accountOf(state, cmd.userId).allocation = {
        allocations: cmd.allocation.allocations.map((r) => ({ exchange_index: r.exchange_index, percent: r.percent })),
        resting_margin_reservation: cmd.allocation.resting_margin_reservation,
      };
      return { ok: true };
    }
    case 'setSubaccountNetting': {
      if (!Number.isInteger(cmd.subaccount) || cmd.subaccount < 0 || cmd.subaccount > 63) {
        return { ok: false, code: 'invalid_parameters', message: 'subaccount_number must be 0-63' };
      }
      accountOf(state, cmd.userId).netting[String(cmd.subaccount)] = cmd.enabled === true;
      return { ok: true };
    }
  }
}
