// Seeded money history for provisioned accounts: deposits, withdrawals and transfers between
// exchange instances, deterministic per (exchange seed, account name). The applied entries
// add up exactly to the cash the account was provisioned with, so history and balance agree.
import type { BootstrapStep } from '../server-types';
import { run } from '../core/services';
import type { InstanceTransfer, MoneyMovement, MoneyMovementType } from '../state/wallet';
import { MICRO_PER_CENT } from '../engine/units';
import { mulberry32 } from '../../src-shared/random';

const DAY_S = 86_400;

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a small deterministic generator (not for secrets). */
export const prng = mulberry32;

function uuidFrom(rand: () => number): string {
  const hex = (n: number) =>
    Array.from({ length: n }, () => Math.floor(rand() * 16).toString(16)).join('');
  return `${hex(8)}-${hex(4)}-4${hex(3)}-${(8 + Math.floor(rand() * 4)).toString(16)}${hex(3)}-${hex(12)}`;
}

export interface WalletHistory {
  deposits: MoneyMovement[];
  withdrawals: MoneyMovement[];
  instanceTransfers: InstanceTransfer[];
}

/**
 * History of an account that holds `startCents` now. Applied deposits (net of their fees) minus
 * applied withdrawals (plus their fees) equal `startCents`; pending, failed and returned entries
 * move no money. All times lie in the 180 days before `nowMs`.
 */
export function walletHistoryFor(seed: number, name: string, startCents: number, nowMs: number): WalletHistory {
  const rand = prng((seed >>> 0) ^ fnv1a(name));
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const now = Math.floor(nowMs / 1000);
  const start = now - 180 * DAY_S;
  const types: MoneyMovementType[] = ['ach', 'wire', 'crypto', 'debit', 'apm'];
  const feeOf = (type: MoneyMovementType, amount: number) => (type === 'debit' ? Math.ceil(amount / 50) : type === 'wire' ? 2_500 : 0);
  const applied = (type: MoneyMovementType, amount: number, created: number, withFee: boolean): MoneyMovement => ({
    id: uuidFrom(rand),
    status: 'applied',
    type,
    amount_cents: amount,
    fee_cents: withFee ? feeOf(type, amount) : 0,
    created_ts: created,
    finalized_ts: created + int(1, 3) * DAY_S,
  });

  // later applied deposits: 5-20 % of the start each; applied withdrawals: 1-8 % each
  const deposits: MoneyMovement[] = [];
  const withdrawals: MoneyMovement[] = [];
  let t = start + int(1, 5) * DAY_S;
  const first = t;
  let net = 0;
  for (let i = int(2, 3); i > 0; i--) {
    t += int(10, 30) * DAY_S;
    const type = types[int(0, types.length - 1)]!;
    const d = applied(type, Math.floor((startCents * int(5, 20)) / 100), t, true);
    deposits.push(d);
    net += d.amount_cents - d.fee_cents;
  }
  for (let i = int(1, 2); i > 0; i--) {
    t += int(5, 20) * DAY_S;
    const type = rand() < 0.5 ? 'ach' : 'wire';
    const w = applied(type, Math.floor((startCents * int(1, 8)) / 100), t, true);
    withdrawals.push(w);
    net -= w.amount_cents + w.fee_cents;
  }
  // the opening wire (fee waived) makes the applied totals come out at exactly startCents
  deposits.unshift(applied('wire', startCents - net, first, false));

  // moves no money: one failed deposit, one pending (recent) deposit, one returned withdrawal
  const failedAt = first + int(2, 8) * DAY_S;
  deposits.push({ id: uuidFrom(rand), status: 'failed', type: 'debit', amount_cents: int(50, 500) * 100, fee_cents: 0, created_ts: failedAt, finalized_ts: failedAt + 3_600 });
  const returnedAt = t + int(1, 5) * DAY_S;
  withdrawals.push({ id: uuidFrom(rand), status: 'returned', type: 'ach', amount_cents: int(100, 900) * 100, fee_cents: 0, created_ts: returnedAt, finalized_ts: returnedAt + 4 * DAY_S });
  const pendingAt = now - int(1, 12) * 3_600;
  deposits.push({ id: uuidFrom(rand), status: 'pending', type: 'ach', amount_cents: int(100, 2_000) * 100, fee_cents: 0, created_ts: pendingAt, finalized_ts: null });
  deposits.sort((a, b) => a.created_ts - b.created_ts);
  withdrawals.sort((a, b) => a.created_ts - b.created_ts);

  // instance transfers: out to the margined instance and back again (net zero)
  const instanceTransfers: InstanceTransfer[] = [];
  let tt = first + int(20, 40) * DAY_S;
  for (let i = int(1, 2); i > 0; i--) {
    const amountMicro = int(5, 50) * 100 * 100 * MICRO_PER_CENT;
    const out = tt;
    const back = tt + int(2, 15) * DAY_S;
    for (const [source, destination, at] of [
      ['event_contract', 'margined', out],
      ['margined', 'event_contract', back],
    ] as const) {
      instanceTransfers.push({
        transfer_id: uuidFrom(rand),
        source,
        destination,
        source_exchange_shard: 0,
        destination_exchange_shard: 0,
        amount_micro: amountMicro,
        status: 'complete',
        created_ts: at,
      });
    }
    tt = back + int(10, 30) * DAY_S;
  }
  // every time above stays within about 140 of the 180 days, so all of it lies in the past
  return { deposits, withdrawals, instanceTransfers };
}

/** Bootstrap step: every provisioned account gets its history. */
export const seedWalletHistory: BootstrapStep = async ({ svc, accounts }) => {
  for (const a of accounts) {
    const cash = svc.node.core.engine.getBalance(a.user_id, 0)?.cash ?? 0;
    const startCents = Math.floor(cash / MICRO_PER_CENT);
    if (startCents <= 0) continue;
    const nowMs = svc.node.now();
    const h = walletHistoryFor(svc.seed, a.name, startCents, nowMs);
    await run(svc, { type: 'seedWalletHistory', nowMs, userId: a.user_id, deposits: h.deposits, withdrawals: h.withdrawals, instanceTransfers: h.instanceTransfers });
  }
};
