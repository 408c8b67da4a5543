// Alerts, pure: each rule watches one value and fires once per crossing. A rule is armed; it
// fires when its condition goes from false to true (a value first seen already beyond its level
// waits for the next crossing, so creating an alert never fires on the spot); with re-arm it
// fires again only after the value went back; without, it stays fired until re-armed. Events
// (lifecycle, my orders) fire as they come. Notices are rate-limited per rule and overall, so a
// burst never spams: what is held back is counted in one summary notice and kept in the history.
import { Decimal, priceText } from '../../src-shared/money';
import type { AlertCondition, AlertFiring, AlertInput, AlertView } from '../../src-shared/ipc/tools';

export interface AlertRule {
  id: string;
  condition: AlertCondition;
  note: string;
  rearm: boolean;
  sound: boolean;
  state: AlertView['state'];
  createdAt: number;
  firedAt: number | null;
  fireCount: number;
}

export interface MarketQuote {
  last: Decimal | null;
  bid: Decimal | null;
  ask: Decimal | null;
}

export interface Firing extends AlertFiring {
  sound: boolean;
  /** false when the notice was held back by the rate limit (it is still in the history) */
  notify: boolean;
}

const PER_RULE_MS = 2_000;
const BURST_WINDOW_MS = 10_000;
const BURST_MAX = 5;
const HISTORY_MAX = 200;
/** Alerts per profile, at most: a page that creates them in a loop is refused, not obeyed. */
export const MAX_ALERTS = 500;

const LIFECYCLE: Record<string, 'opened' | 'closed' | 'determined' | 'settled'> = {
  activated: 'opened',
  deactivated: 'closed',
  determined: 'determined',
  settled: 'settled',
};

export function summarize(c: AlertCondition): string {
  switch (c.kind) {
    case 'price':
      // a level reached exactly counts (see level()): the words say so
      return `${c.ticker} ${c.source === 'last' ? 'last trade' : c.source === 'bid' ? 'best bid' : 'best ask'} ${c.direction === 'above' ? 'rises to' : 'falls to'} ${c.level} or ${c.direction}`;
    case 'spread':
      return `${c.ticker} spread ${c.direction === 'wider' ? 'wider than' : 'narrower than'} ${c.value}`;
    case 'volume':
      return `${c.ticker} volume reaches ${c.contracts} in ${c.windowSec} s`;
    case 'lifecycle':
      return `${c.ticker} ${c.when}`;
    case 'order':
      return `my order ${c.when}${c.ticker ? ` in ${c.ticker}` : ''}`;
  }
}

export class AlertEngine {
  readonly rules = new Map<string, AlertRule>();
  history: AlertFiring[] = [];
  /** whether each rule's condition held at its last observation (absent: not observed yet) */
  private readonly held = new Map<string, boolean>();
  private readonly lastNotice = new Map<string, number>();
  private recentNotices: number[] = [];
  private heldBack = 0;
  private readonly trades = new Map<string, { ts: number; count: Decimal }[]>();
  private readonly canceledSeen = new Set<string>();

  constructor(
    private readonly newId: () => string,
    private readonly now: () => number = Date.now,
    private readonly maxAlerts = MAX_ALERTS,
  ) {}

  upsert(input: AlertInput): AlertRule {
    const prev = input.id ? this.rules.get(input.id) : undefined;
    if (input.id && !prev) throw new Error(`no alert ${input.id}`);
    if (!prev && this.rules.size >= this.maxAlerts) throw new Error(`at most ${this.maxAlerts} alerts per profile; delete some first`);
    const rule: AlertRule = {
      id: prev?.id ?? this.newId(),
      condition: input.condition,
      note: input.note ?? '',
      rearm: input.rearm,
      sound: input.sound,
      state: 'armed',
      createdAt: prev?.createdAt ?? this.now(),
      firedAt: null,
      fireCount: prev?.fireCount ?? 0,
    };
    this.rules.set(rule.id, rule);
    this.held.delete(rule.id);
    return rule;
  }

  act(id: string, action: 'silence' | 'arm' | 'delete'): void {
    const r = this.rules.get(id);
    if (!r) throw new Error(`no alert ${id}`);
    if (action === 'delete') this.rules.delete(id);
    else r.state = action === 'silence' ? 'silenced' : 'armed';
    this.held.delete(id);
  }

  /** Markets the rules watch (their books and trades must stream). */
  markets(): string[] {
    const s = new Set<string>();
    for (const r of this.rules.values()) if (r.state !== 'silenced' && 'ticker' in r.condition && r.condition.ticker && r.condition.kind !== 'order') s.add(r.condition.ticker);
    return [...s];
  }

  private level(r: AlertRule, q: MarketQuote, now: number): boolean | null {
    const c = r.condition;
    if (c.kind === 'price') {
      const v = c.source === 'last' ? q.last : c.source === 'bid' ? q.bid : q.ask;
      if (!v) return null;
      return c.direction === 'above' ? v.gte(c.level) : v.lte(c.level);
    }
    if (c.kind === 'spread') {
      if (!q.bid || !q.ask) return null;
      const s = q.ask.minus(q.bid);
      return c.direction === 'wider' ? s.gt(c.value) : s.lt(c.value);
    }
    if (c.kind === 'volume') {
      const list = this.trades.get(c.ticker) ?? [];
      const since = now - c.windowSec * 1000;
      let sum = new Decimal(0);
      for (const t of list) if (t.ts >= since) sum = sum.plus(t.count);
      return sum.gte(c.contracts);
    }
    return null;
  }

  /** A fresh quote of a market: level rules of that market are judged. */
  observe(ticker: string, q: MarketQuote): Firing[] {
    const now = this.now();
    const out: Firing[] = [];
    for (const r of this.rules.values()) {
      const c = r.condition;
      if (c.kind === 'lifecycle' || c.kind === 'order' || c.ticker !== ticker) continue;
      const v = this.level(r, q, now);
      if (v === null) continue;
      const before = this.held.get(r.id);
      this.held.set(r.id, v);
      if (v && before === false && r.state === 'armed') out.push(this.fire(r, this.describe(r, q)));
    }
    return out;
  }

  /** A public trade (for volume rules; the caller also passes the new last price to observe). */
  trade(ticker: string, count: Decimal, ts: number): void {
    let list = this.trades.get(ticker);
    if (!list) {
      if (![...this.rules.values()].some((r) => r.condition.kind === 'volume' && r.condition.ticker === ticker)) return;
      list = [];
      this.trades.set(ticker, list);
    }
    list.push({ ts, count });
    const maxWindow = Math.max(60, ...[...this.rules.values()].map((r) => (r.condition.kind === 'volume' ? r.condition.windowSec : 0))) * 1000;
    while (list.length && list[0]!.ts < ts - maxWindow) list.shift();
  }

  lifecycle(ticker: string, eventType: string): Firing[] {
    const when = LIFECYCLE[eventType];
    if (!when) return [];
    const out: Firing[] = [];
    for (const r of this.rules.values()) {
      const c = r.condition;
      if (c.kind === 'lifecycle' && c.ticker === ticker && c.when === when && r.state === 'armed') out.push(this.fire(r, `${ticker} ${when}`));
    }
    return out;
  }

  /** One of my orders: a fill (with what filled) or a status change. */
  orderEvent(ev: { ticker: string; when: 'filled' | 'canceled'; orderId: string; text: string }): Firing[] {
    if (ev.when === 'canceled') {
      if (this.canceledSeen.has(ev.orderId)) return [];
      this.canceledSeen.add(ev.orderId);
      if (this.canceledSeen.size > 5000) this.canceledSeen.clear();
    }
    const out: Firing[] = [];
    for (const r of this.rules.values()) {
      const c = r.condition;
      if (c.kind === 'order' && c.when === ev.when && (!c.ticker || c.ticker === ev.ticker) && r.state === 'armed') out.push(this.fire(r, ev.text));
    }
    return out;
  }

  private describe(r: AlertRule, q: MarketQuote): string {
    const c = r.condition;
    const fmt = (d: Decimal | null) => (d ? priceText(d) : '—');
    if (c.kind === 'price') return `${c.source} ${fmt(c.source === 'last' ? q.last : c.source === 'bid' ? q.bid : q.ask)} (level ${c.level})`;
    if (c.kind === 'spread') return `spread ${q.bid && q.ask ? fmt(q.ask.minus(q.bid)) : '—'} (bid ${fmt(q.bid)}, ask ${fmt(q.ask)})`;
    return summarize(c);
  }

  private fire(r: AlertRule, body: string): Firing {
    const now = this.now();
    r.firedAt = now;
    r.fireCount += 1;
    const event = r.condition.kind === 'lifecycle' || r.condition.kind === 'order';
    if (!r.rearm && !event) r.state = 'fired';
    // rate limits: one notice per rule per 2 s, five per 10 s in all
    this.recentNotices = this.recentNotices.filter((t) => now - t < BURST_WINDOW_MS);
    const last = this.lastNotice.get(r.id) ?? -Infinity;
    const notify = now - last >= PER_RULE_MS && this.recentNotices.length < BURST_MAX;
    if (notify) {
      this.lastNotice.set(r.id, now);
      this.recentNotices.push(now);
    } else this.heldBack += 1;
    const f: Firing = {
      id: this.newId(),
      alertId: r.id,
      ts: now,
      title: `Alert: ${r.note || summarize(r.condition)}`,
      body,
      sound: r.sound,
      notify,
    };
    this.history.unshift({ id: f.id, alertId: f.alertId, ts: f.ts, title: f.title, body: f.body });
    if (this.history.length > HISTORY_MAX) this.history.length = HISTORY_MAX;
    return f;
  }

  /** How many notices were held back since the last call (for one summary notice). */
  takeHeldBack(): number {
    const n = this.heldBack;
    this.heldBack = 0;
    return n;
  }

  view(r: AlertRule): AlertView {
    return { ...r, summary: summarize(r.condition) };
  }
}
