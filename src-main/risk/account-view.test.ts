// What a key sees of its account, and the gate while it cannot see all of it: a switch to a key
// that sees less is a loosening (unknown counts as less), and an incomplete view lets only
// orders that reduce a position through.
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src-shared/money';
import { DEFAULT_RISK_LIMITS } from '../../src-shared/ipc/risk';
import { AccountView, narrower, type KeyScope } from './account-view';
import { subaccountOfRow } from '../session/private-store';
import { checkOrder, type RiskState } from './gate';

const D = (s: string) => new Decimal(s);
const account: KeyScope = { kind: 'account' };
const sub = (n: number): KeyScope => ({ kind: 'subaccount', subaccount: n });

describe('narrower keys', () => {
  it('account-wide to one subaccount, to another subaccount, to a subtrader, or to an unknown scope is narrower', () => {
    expect(narrower(account, sub(3))).toBe(true);
    expect(narrower(sub(3), sub(4))).toBe(true);
    expect(narrower(account, { kind: 'subtrader', id: 'u_1' })).toBe(true);
    expect(narrower(account, null)).toBe(true);
    expect(narrower(null, sub(0))).toBe(true);
  });

  it('to an account-wide key, or to the same scope, is not', () => {
    expect(narrower(account, account)).toBe(false);
    expect(narrower(sub(3), account)).toBe(false);
    expect(narrower(sub(3), sub(3))).toBe(false);
    expect(narrower(null, account)).toBe(false);
  });

  it('a row without a subaccount number is the primary', () => {
    expect(subaccountOfRow({})).toBe(0);
    expect(subaccountOfRow({ subaccount_number: 5 })).toBe(5);
    expect(subaccountOfRow({ subaccount: 2 })).toBe(2);
  });
});

describe('the gate with part of the account unseen', () => {
  const st = (position: string): RiskState => ({
    now: 0,
    killSwitch: false,
    book: () => ({ stale: false, yesBid: D('0.50'), yesAsk: D('0.52') }),
    position: () => D(position),
    resting: [],
    dailyPnl: D('0'),
    recent: [],
    accountIncomplete: 'key k is scoped to subaccount 3 only and this profile holds no account-wide key',
  });
  const order = { action: 'place', ticker: 'KX-1', price: D('0.51'), count: D('5'), confirmed: true };

  it('refuses an order that adds exposure, saying why', () => {
    const v = checkOrder({ ...order, side: 'bid' }, DEFAULT_RISK_LIMITS, st('0'));
    expect(v.ok).toBe(false);
    if (!v.ok) {
      expect(v.code).toBe('account_incomplete');
      expect(v.message).toContain('scoped to subaccount 3 only');
    }
  });

  it('lets an order through that reduces a position', () => {
    expect(checkOrder({ ...order, side: 'ask' }, DEFAULT_RISK_LIMITS, st('10')).ok).toBe(true);
  });
});

describe('the scope asked again before the kill switch sweeps', () => {
  it('a first read refused (a 429) leaves the scope unknown until resolveAgain asks at once, not at the next due read', async () => {
    let calls = 0;
    const view = new AccountView({
      keyId: 'k1',
      log: () => undefined,
      now: () => 1_000,
      resolve: async () => {
        calls++;
        if (calls === 1) throw new Error('429: too many requests');
        return { scope: account, reader: null };
      },
    });
    await view.refresh();
    expect(view.scope).toBeNull();
    await view.resolveAgain();
    expect(calls).toBe(2);
    expect(view.accountWide).toBe(true);
    // known and account-wide: nothing more to ask
    await view.resolveAgain();
    expect(calls).toBe(2);
  });

  it('a scoped key whose account-wide reader was not found (a refused read) looks for it again at once', async () => {
    let calls = 0;
    // the reader's client as the exchange answers an empty account
    const client = { request: async () => ({ orders: [], cursor: '' }), getPositions: async () => ({ market_positions: [] }), getSubaccountBalances: async () => ({ subaccount_balances: [] }) };
    const reader = { keyId: 'wide', client: client as never };
    const view = new AccountView({ keyId: 'k2', log: () => undefined, now: () => 1_000, resolve: async () => (++calls === 1 ? { scope: sub(3), reader: null } : { scope: sub(3), reader }) });
    await view.refresh();
    expect(view.reader).toBeNull();
    await view.refresh(); // within RESOLVE_AGAIN_MS: the due reads do not ask again
    expect(calls).toBe(1);
    view.stop();
    await view.resolveAgain();
    expect(calls).toBe(2);
    expect(view.reader?.keyId).toBe('wide');
  });

  it('refreshAfter reads again after a read in flight: what was sent before the caller acted is not its answer', async () => {
    // the exchange's resting orders: two before the kill switch's cancel-all, none after
    let resting = [{ order_id: 'o1' }, { order_id: 'o2' }];
    const gates: (() => void)[] = [];
    const client = {
      request: async () => {
        const answer = { orders: resting, cursor: '' }; // what the exchange held when the read arrived
        await new Promise<void>((r) => gates.push(r));
        return answer;
      },
      getPositions: async () => ({ market_positions: [] }),
      getSubaccountBalances: async () => ({ subaccount_balances: [] }),
    };
    const view = new AccountView({ keyId: 'k2', log: () => undefined, now: () => 1_000, resolve: async () => ({ scope: sub(3), reader: { keyId: 'wide', client: client as never } }) });
    const due = view.refresh(); // a due read, in flight
    await new Promise((r) => setTimeout(r, 0));
    expect(gates).toHaveLength(1);
    resting = []; // the sweep canceled them
    const after = view.refreshAfter();
    const joined = view.refresh();
    gates.shift()!();
    await due;
    await joined;
    expect(view.others().resting).toHaveLength(2); // the read in flight: from before the sweep
    await new Promise((r) => setTimeout(r, 0));
    expect(gates).toHaveLength(1); // refreshAfter made a read of its own
    gates.shift()!();
    await after;
    expect(view.others().resting).toEqual([]);
    view.stop();
  });

  it('refreshAfter answers why its own read failed, and null once one succeeds', async () => {
    let fail = true;
    const client = {
      request: async () => {
        if (fail) throw new Error('socket hang up');
        return { orders: [], cursor: '' };
      },
      getPositions: async () => ({ market_positions: [] }),
      getSubaccountBalances: async () => ({ subaccount_balances: [] }),
    };
    const view = new AccountView({ keyId: 'k2', log: () => undefined, now: () => 1_000, resolve: async () => ({ scope: sub(3), reader: { keyId: 'wide', client: client as never } }) });
    expect(await view.refreshAfter()).toMatch(/socket hang up/);
    fail = false;
    expect(await view.refreshAfter()).toBeNull();
    view.stop();
  });
});
