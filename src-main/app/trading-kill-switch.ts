// The kill switch of each profile. Engaged (and on disk) before anything else: from then no order
// passes the gate, every send still waiting for tokens is dropped from the queue, and a send about
// to leave is stopped right before it does; every resting order in every subaccount is canceled
// ahead of the queue, again when a session starts with it engaged, and an order answered after it
// engaged (its send was already on the wire) is canceled as it is answered. Released only when
// the shell confirms it.
// The sweep reaches the whole account whatever key the session signs with: a key scoped to one
// subaccount cancels its own, the profile's account-wide key (risk/account-view.ts) cancels in
// every other subaccount, and what could not be reached is said plainly, subaccount by subaccount,
// with the exchange's answer; what is left is counted over the account, never over the one
// subaccount the key sees.
import { setMaxListeners } from 'node:events';
import type { OrderAck } from '../../src-shared/ipc/contract';
import { RiskRefusal } from '../risk/gate';
import type { RiskStore } from '../risk/store';
import type { SendGuard } from '../session/session';
import * as orders from '../session/orders';
import { subaccountOfRow } from '../session/private-store';
import { ackTrace } from '../session/ack-trace';
import { StateError } from '../base/errors';
import { ApiError } from '../api/errors';
import { plural } from '../../src-shared/text';
import type { AccountReader, AccountView } from '../risk/account-view';
import type { AuditBase, TradingAudit } from './trading-audit';
import type { ActiveSession } from './profiles-service';
import { releaseChange } from './confirm-change';

/** The kill switch's requests go ahead of anything queued on the session's limiter. */
const first = { priority: true } as const;

export interface KillSwitchParts {
  risk: RiskStore;
  audit: TradingAudit;
  /** the active session, if any */
  active: () => ActiveSession | null;
  /** the risk view changed: push it */
  changed: () => void;
  /** the shell's own confirmation */
  /** `change`: the exact change the answer allows (a console code is bound to it) */
  confirmed: (title: string, message: string, allow: string, code: string | undefined, change: string) => Promise<boolean>;
  log: (m: string) => void;
}

/** the longest an engagement's answer waits for the sends already on the wire */
export const LATE_WAIT_MS = 5000;

export class KillSwitch {
  /** per profile: aborted when the kill switch engages, dropping every send still waiting for tokens */
  private readonly gates = new Map<string, AbortController>();
  /** the newest engagement's since, so the next one is always later */
  private lastSince = 0;
  /** per profile: each order send from its gate to its settlement (its late cancel included) */
  private readonly flying = new Map<string, Set<Promise<void>>>();

  constructor(private readonly p: KillSwitchParts) {}

  /** The kill switch's hold on one send: checked right before it leaves, and dropped from the queue when it engages. */
  guard(profileId: string): SendGuard {
    let gate = this.gates.get(profileId);
    if (!gate) {
      this.gates.set(profileId, (gate = new AbortController()));
      setMaxListeners(0, gate.signal); // one listener per queued send
    }
    return {
      queueSignal: gate.signal,
      beforeSend: () => {
        ackTrace.mark('send');
        if (this.p.risk.killSwitch(profileId).engaged) throw new RiskRefusal('kill_switch', 'kill switch engaged: the order was stopped before it was sent; nothing was sent');
      },
    };
  }

  /** A session started: with the kill switch engaged, whatever rests is canceled again. */
  async sweepAtStart(active: ActiveSession): Promise<void> {
    if (!this.p.risk.killSwitch(active.profileId).engaged) return;
    try {
      const detail = await (await sweepAccount(active)).later;
      this.p.log(`[risk] kill switch engaged at start: ${detail}`);
    } catch (e) {
      this.p.log(`[risk] kill switch: cancel at start failed: ${(e as Error).message}`);
    }
  }

  /**
   * An order send, from its gate to its settlement (a late cancel included): an engagement
   * answers only once the sends already on the wire are answered and, resting, canceled
   * (at most LATE_WAIT_MS). Returns `op`.
   */
  follow<T>(profileId: string, op: Promise<T>): Promise<T> {
    let set = this.flying.get(profileId);
    if (!set) this.flying.set(profileId, (set = new Set()));
    const entry = op.then(
      () => undefined,
      () => undefined,
    );
    set.add(entry);
    void entry.then(() => set.delete(entry));
    return op;
  }

  /** A resting order answered after the kill switch engaged (its send was already on the wire): canceled at once; settles when the cancel is answered (never rejects). */
  sweepLate(active: ActiveSession, ticker: string | null, ack: OrderAck): Promise<void> {
    if (!this.p.risk.killSwitch(active.profileId).engaged) return Promise.resolve();
    const base: AuditBase = { action: 'kill_sweep', origin: undefined, ticker, asked: { order_id: ack.order_id }, gate: 'not gated (reduces)', clientOrderId: ack.client_order_id };
    return this.p.audit.audited(active, base, () => orders.cancelOrder(active.session, ack.order_id, undefined, first), () => `canceled ${ack.order_id}: answered after the kill switch engaged`).then(
      () => undefined,
      () => undefined,
    );
  }

  /** Waits for the profile's sends in flight (answered, and canceled when they rest) up to LATE_WAIT_MS; the number still in flight then. */
  private async landed(profileId: string): Promise<number> {
    const wire = [...(this.flying.get(profileId) ?? [])];
    if (wire.length === 0) return 0;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((r) => (timer = setTimeout(r, LATE_WAIT_MS)));
    await Promise.race([Promise.all(wire), late]).finally(() => clearTimeout(timer));
    const still = this.flying.get(profileId);
    return wire.filter((w) => still?.has(w)).length;
  }

  /**
   * Engages it for the profile and cancels everything; answers once the cancel-all is answered,
   * the order groups and the reconcile follow, and the kill switch's detail says what is left.
   */
  async engage(profileId: string): Promise<void> {
    const { risk } = this.p;
    // each engagement its own `since` (a release is confirmed for one engagement, by its since)
    const since = Math.max(Date.now(), (risk.killSwitch(profileId).since ?? 0) + 1, this.lastSince + 1);
    this.lastSince = since;
    risk.setKillSwitch(profileId, { engaged: true, since, detail: 'canceling…' });
    this.gates.get(profileId)?.abort(new RiskRefusal('kill_switch', 'kill switch engaged: the order was dropped from the queue before it was sent; nothing was sent'));
    this.gates.delete(profileId);
    this.p.changed();
    const active = this.p.active();
    // the detail, unless the kill switch was released or engaged again meanwhile
    const say = (detail: string): boolean => {
      const ks = risk.killSwitch(profileId);
      if (!ks.engaged || ks.since !== since) return false;
      risk.setKillSwitch(profileId, { engaged: true, since, detail });
      return true;
    };
    let detail = 'no session: resting orders will be canceled when the session starts';
    if (active) {
      const base: AuditBase = { action: 'kill_engage', origin: undefined, ticker: null, asked: {}, gate: 'not gated (reduces)' };
      const done = await this.p.audit.audited(active, base, () => sweepAccount(active), (d) => d.detail).catch((e: unknown) => ({ detail: `cancel failed: ${(e as Error).message}`, later: null }));
      // a send already on the wire can land after the cancel-all: the answer waits for it (its
      // own cancel follows its answer), so nothing rests once the kill switch has answered
      const flying = await this.landed(profileId);
      detail = flying ? `${done.detail}; ${plural(flying, 'send')} already on the wire not answered within ${LATE_WAIT_MS / 1000} s: each is canceled as it is answered` : done.detail;
      void done.later?.then((full) => {
        if (say(full)) this.p.changed();
      });
    }
    say(detail);
    this.p.changed();
  }

  /** Released for the profile, when the shell confirms it (or it was not engaged). */
  async release(profileId: string, consoleCode?: string): Promise<void> {
    const { risk } = this.p;
    const asked = risk.killSwitch(profileId);
    if (asked.engaged) {
      // the answer releases this engagement of this profile's switch, nothing else
      if (!(await this.p.confirmed('Release the kill switch?', 'Orders will be accepted again from every panel and key.', 'Release', consoleCode, releaseChange(profileId, asked.since)))) {
        throw new StateError('releasing the kill switch was not confirmed in the terminal; it stays engaged');
      }
      const now = risk.killSwitch(profileId);
      if (now.engaged && now.since !== asked.since) throw new StateError('the kill switch was engaged again while its release was being confirmed; it stays engaged (release it again)');
    }
    risk.setKillSwitch(profileId, { engaged: false, since: null, detail: `released at ${new Date().toISOString()}` });
    const active = this.p.active();
    if (active) this.p.audit.record(active, { action: 'kill_release', origin: undefined, ticker: null, asked: { confirm: true }, gate: 'not gated' }, 'ok', 'released', null);
    this.p.changed();
  }
}

/** A failed cancel, as the trader reads it: the status and the exchange's own words. */
function why(e: unknown): string {
  if (e instanceof ApiError) return `${e.status}: ${e.serverMessage}`;
  return (e as Error).message;
}

/**
 * The kill switch's sweep of the whole account. With an account-wide key (or no account view):
 * the session's own sweep of every subaccount. With a key that sees part of the account: its own
 * subaccount with the session's key, every other subaccount with the profile's account-wide key
 * when it holds one; where neither can reach, the exchange's refusal is reported for the
 * primary and the others are named as unreachable. `later` counts what is left over the account.
 */
export async function sweepAccount(active: ActiveSession): Promise<{ detail: string; later: Promise<string> }> {
  const view = active.account;
  // a scope or reader the last read could not learn is asked again first: the sweep needs both
  await view?.resolveAgain();
  if (!view || view.accountWide) return orders.cancelEverything(active.session);
  if (!view.scope) {
    // what the key sees is not known: the session's own sweep of every subaccount it can list, said to be maybe partial
    const r = await orders.cancelEverything(active.session);
    const note = `; the account may hold more than this key reached: ${view.incomplete() ?? 'its scope is not known'}`;
    return { detail: r.detail + note, later: r.later.then((d) => d + note) };
  }
  const s = active.session;
  const own = view.ownSubaccount;
  const reader: AccountReader | null = view.reader;
  const before = s.store.restingOrders().length + view.others().resting.length;
  const done: number[] = [];
  const failures: string[] = [];
  const cancelIn = (client: typeof s.client, sub: number) =>
    client.cancelAllOrders({ query: { subaccount: sub } }, first).then(
      () => void done.push(sub),
      (e: unknown) => void failures.push(`subaccount ${sub}: ${why(e)}`),
    );
  const jobs: Promise<void>[] = [];
  if (own !== null) jobs.push(cancelIn(s.client, own));
  else
    jobs.push(
      s.client.cancelAllOrders(undefined, first).then(
        () => undefined,
        (e: unknown) => void failures.push(`this key's own orders: ${why(e)}`),
      ),
    );
  let unreachable: string | null = null;
  if (reader) {
    const subs = await reader.client.getSubaccountBalances(undefined, first).then(
      (r) => [...new Set([0, ...r.subaccount_balances.map((b) => b.subaccount_number)])],
      () => view.subaccounts(),
    );
    for (const sub of subs) if (sub !== own) jobs.push(cancelIn(reader.client, sub));
  } else {
    // the session's key cannot list the other subaccounts: the primary always exists, and the
    // exchange's answer for it says why it cannot be reached
    if (own !== 0) jobs.push(cancelIn(s.client, 0));
    unreachable = `other subaccounts: not listed or canceled (${view.incomplete() ?? 'this key sees only part of the account'})`;
  }
  await Promise.all(jobs);
  done.sort((a, b) => a - b);
  const detail = [
    `canceled ${plural(before, 'resting order')} known to the gate${done.length ? ` (cancel-all sent in ${done.length === 1 ? 'subaccount' : 'subaccounts'} ${done.join(', ')})` : ''}`,
    ...(failures.length ? [`NOT canceled: ${failures.join('; ')}`] : []),
    ...(unreachable ? [unreachable] : []),
  ].join('; ');
  return { detail, later: leftAfterSweep(s, view, own, detail) };
}

/**
 * The sweep's full detail: the order groups triggered, then what is left over the account, read
 * after the sweep (a read already in flight may predate the cancels). A read that still finds
 * orders, or that failed, is made once more before the trader is told they rest.
 */
async function leftAfterSweep(s: ActiveSession['session'], view: AccountView, own: number | null, detail: string): Promise<string> {
  const groups = await s.client.getOrderGroups().then(
    (r) => r.order_groups,
    () => [],
  );
  await Promise.all(groups.map((g) => s.client.triggerOrderGroup({ params: { id: g.order_group_id }, body: {} }, first).catch(() => undefined)));
  await s.reconcile().catch(() => undefined);
  let unread = await view.refreshAfter();
  if (unread || view.others().resting.length) unread = await view.refreshAfter();
  const left = restingBySubaccount(s.store.restingOrders(), unread ? [] : view.others().resting, own);
  const total = [...left.values()].reduce((a, b) => a + b, 0);
  const unseen = unread ? `the account's other subaccounts could not be read again after the sweep (${unread})` : view.incomplete();
  const rest = total
    ? `; ${total} still resting (${[...left].map(([sub, n]) => `subaccount ${sub}: ${n}`).join(', ')})${unread ? `; ${unseen}` : ''}`
    : unseen
      ? `; none still resting in what this key can see, but the rest of the account could not be seen: ${unseen}`
      : '';
  return `${detail}, ${groups.length} order group(s) triggered${rest}`;
}

/**
 * Resting orders by subaccount, each order once (a subtrader key's reader reads the whole account,
 * the key's own orders too), in its own subaccount; a row of the key's own store that names none
 * is in the key's (`own`, the primary when the key has none).
 */
export function restingBySubaccount(mine: readonly Record<string, unknown>[], others: readonly Record<string, unknown>[], own: number | null): Map<number, number> {
  const where = new Map<string, number>();
  for (const o of others) where.set(String(o.order_id), subaccountOfRow(o));
  for (const o of mine) where.set(String(o.order_id), subaccountOfRow(o, own ?? 0));
  const left = new Map<number, number>();
  for (const sub of where.values()) left.set(sub, (left.get(sub) ?? 0) + 1);
  return left;
}
