// Wallet state: seeded history that agrees with the balance, allocation rules and netting.
import { describe, expect, it } from 'vitest';
import { applyWallet, checkAllocation, emptyWallet, walletOf } from './wallet';
import { walletHistoryFor } from '../sim/wallet-seed';

const NOW = 1_750_000_000_000;

describe('seeded history', () => {
  it('applied deposits net of fees minus applied withdrawals plus fees equal the balance, for many seeds', () => {
    for (let seed = 0; seed < 200; seed++) {
      for (const name of ['trader', 'counterparty', 'fcm']) {
        const start = 1_000 + seed * 7_919;
        const h = walletHistoryFor(seed, name, start, NOW);
        const applied = (xs: typeof h.deposits) => xs.filter((x) => x.status === 'applied');
        const net =
          applied(h.deposits).reduce((s, d) => s + d.amount_cents - d.fee_cents, 0) - applied(h.withdrawals).reduce((s, w) => s + w.amount_cents + w.fee_cents, 0);
        expect(net).toBe(start);
        for (const x of [...h.deposits, ...h.withdrawals]) {
          expect(x.amount_cents).toBeGreaterThan(0);
          expect(Number.isInteger(x.amount_cents) && Number.isInteger(x.fee_cents)).toBe(true);
          expect(x.created_ts).toBeLessThan(NOW / 1000);
          if (x.finalized_ts !== null) expect(x.finalized_ts).toBeGreaterThan(x.created_ts);
        }
        let moved = 0;
        for (const t of h.instanceTransfers) {
          expect(t.created_ts).toBeLessThan(NOW / 1000);
          moved += t.source === 'event_contract' ? -t.amount_micro : t.amount_micro;
        }
        expect(moved).toBe(0);
      }
    }
  });

  it('is deterministic per seed and name, and differs between accounts', () => {
    expect(walletHistoryFor(7, 'trader', 10_000_000, NOW)).toEqual(walletHistoryFor(7, 'trader', 10_000_000, NOW));
    const a = walletHistoryFor(7, 'trader', 10_000_000, NOW).deposits.map((d) => d.id);
    const b = walletHistoryFor(7, 'counterparty', 10_000_000, NOW).deposits.map((d) => d.id);
    expect(a.some((id) => b.includes(id))).toBe(false);
  });

  it('is seeded once per account', () => {
    const s = emptyWallet();
    const h = walletHistoryFor(1, 'x', 5_000, NOW);
    const cmd = { type: 'seedWalletHistory' as const, nowMs: NOW, userId: 'u', deposits: h.deposits, withdrawals: h.withdrawals, instanceTransfers: h.instanceTransfers };
    expect(applyWallet(s, cmd)).toEqual({ ok: true });
    expect(applyWallet(s, cmd)).toMatchObject({ ok: false, code: 'conflict' });
    expect(walletOf(s, 'u').deposits).toHaveLength(h.deposits.length);
  });
});

describe('target allocation', () => {
  it('accepts integer percents 0-100 summing to at most 100 over distinct indexes, at most 101 rows', () => {
    expect(checkAllocation({ allocations: [{ exchange_index: 0, percent: 60 }, { exchange_index: 1, percent: 40 }], resting_margin_reservation: 'sum' })).toBeNull();
    expect(checkAllocation({ allocations: Array.from({ length: 101 }, (_, i) => ({ exchange_index: i, percent: 0 })), resting_margin_reservation: 'max' })).toBeNull();
    expect(checkAllocation({ allocations: Array.from({ length: 102 }, (_, i) => ({ exchange_index: i, percent: 0 })), resting_margin_reservation: 'max' })).toMatch(/101/);
    expect(checkAllocation({ allocations: [{ exchange_index: 0, percent: 101 }], resting_margin_reservation: 'sum' })).toMatch(/0-100/);
    expect(checkAllocation({ allocations: [{ exchange_index: 0, percent: 1.5 }], resting_margin_reservation: 'sum' })).toMatch(/integer/);
    expect(checkAllocation({ allocations: [{ exchange_index: 2, percent: 1 }, { exchange_index: 2, percent: 1 }], resting_margin_reservation: 'sum' })).toMatch(/more than once/);
    expect(checkAllocation({ allocations: [{ exchange_index: 0, percent: 70 }, { exchange_index: 1, percent: 31 }], resting_margin_reservation: 'sum' })).toMatch(/101 percent/);
  });

  it('a rejected set leaves the previous allocation', () => {
    const s = emptyWallet();
    const good = { allocations: [{ exchange_index: 0, percent: 50 }], resting_margin_reservation: 'max' as const };
    expect(applyWallet(s, { type: 'setTargetBalanceAllocation', nowMs: NOW, userId: 'u', allocation: good })).toEqual({ ok: true });
    const bad = { allocations: [{ exchange_index: 0, percent: 500 }], resting_margin_reservation: 'sum' as const };
    expect(applyWallet(s, { type: 'setTargetBalanceAllocation', nowMs: NOW, userId: 'u', allocation: bad }).ok).toBe(false);
    expect(walletOf(s, 'u').allocation).toEqual(good);
  });
});

describe('netting and API orders', () => {
  it('netting is per subaccount', () => {
    const s = emptyWallet();
    applyWallet(s, { type: 'setSubaccountNetting', nowMs: NOW, userId: 'u', subaccount: 3, enabled: true });
    expect(walletOf(s, 'u').netting).toEqual({ '3': true });
    expect(applyWallet(s, { type: 'setSubaccountNetting', nowMs: NOW, userId: 'u', subaccount: 64, enabled: true }).ok).toBe(false);
  });
});
