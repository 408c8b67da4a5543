// The drop copy (KalshiDC): the exchange's own account of the trader's orders, whoever entered
// them, as ExecutionReports on a session of its own. It is the second, independent source: main
// keeps what it says per order and compares it with the private store (what the REST answers,
// the WebSocket and the FIX order session built). An order the two still disagree on after a
// grace period (the sources arrive at different times) is a disagreement the terminal shows.
import type { KeyObject } from 'node:crypto';
import type { FixMessage } from '../../src-shared/fix/codec';
import { countToCenti } from '../../src-shared/money';
import { FixInitiator, type FixEndpoint, type FixPhase } from './initiator';
import { orderRowOf } from './order-entry';

type Row = Record<string, unknown>;

export interface DropCopyOrder {
  orderId: string;
  ticker: string;
  status: string;
  fill: string;
  /** Date.now() when the drop copy last spoke of it */
  at: number;
}

export interface Disagreement {
  orderId: string;
  ticker: string;
  /** what the drop copy says, and what the terminal holds */
  dropCopy: string;
  terminal: string;
  since: number;
}

export interface DropCopyView {
  phase: FixPhase;
  detail: string;
  /** orders the drop copy has reported since it logged on */
  orders: number;
  disagreements: Disagreement[];
  checkedAt: number | null;
}

const centi = (v: unknown): number => {
  try {
    return countToCenti(String(v ?? '0'));
  } catch {
    return -1;
  }
};

/**
 * Compares the drop copy's orders with the store's. Pure: the caller passes the time; only
 * reports older than `graceMs` are judged (the stream may simply not have said it yet).
 */
export function compare(dc: ReadonlyMap<string, DropCopyOrder>, store: ReadonlyMap<string, Row>, now: number, graceMs: number, was: ReadonlyMap<string, Disagreement>): Disagreement[] {
  const out: Disagreement[] = [];
  for (const o of dc.values()) {
    if (now - o.at < graceMs) continue;
    const mine = store.get(o.orderId);
    const dcSays = `${o.status}, filled ${o.fill}`;
    let terminal: string | null = null;
    if (!mine) {
      // after a reconnect the store is rebuilt from the resting orders only: an ended order it no
      // longer holds is forgotten, not contradicted; one the drop copy says rests is missing
      if (o.status === 'resting') terminal = 'unknown to the terminal';
    } else {
      const status = String(mine.status ?? '');
      const fill = mine.fill_count_fp ?? mine.fill_count ?? '0';
      if (status !== o.status || centi(fill) !== centi(o.fill)) terminal = `${status || 'no status'}, filled ${String(fill)}`;
    }
    if (terminal !== null) out.push({ orderId: o.orderId, ticker: o.ticker, dropCopy: dcSays, terminal, since: was.get(o.orderId)?.since ?? now });
  }
  return out;
}

export interface DropCopyOptions {
  endpoint: FixEndpoint;
  /** where the key may sign a Logon now (the initiator checks it right before signing) */
  bound: () => FixEndpoint | string;
  signer: { keyId: string; key: KeyObject };
  now?: () => number;
  /** the store's orders, read at every check */
  storeOrders(): ReadonlyMap<string, Row>;
  onChange(view: DropCopyView): void;
  graceMs?: number;
  checkEveryMs?: number;
}

export class DropCopy {
  readonly session: FixInitiator;
  private readonly orders = new Map<string, DropCopyOrder>();
  private disagreements = new Map<string, Disagreement>();
  private timer: NodeJS.Timeout | null = null;
  private checkedAt: number | null = null;
  private lastKey = '';

  constructor(private readonly opts: DropCopyOptions) {
    this.session = new FixInitiator({
      endpoint: opts.endpoint,
      bound: opts.bound,
      target: 'KalshiDC',
      signer: opts.signer,
      ...(opts.now ? { now: opts.now } : {}),
      logonFlags: [[21005, 'Y']],
      onMessage: (m) => this.onMessage(m),
      onPhase: () => this.push(true),
    });
  }

  start(): void {
    this.session.start();
    this.timer = setInterval(() => this.check(), this.opts.checkEveryMs ?? 1000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.session.stop();
  }

  private onMessage(m: FixMessage): void {
    if (m.msgType !== '8') return;
    const row = orderRowOf(m);
    if (!row) return;
    this.orders.set(String(row.order_id), { orderId: String(row.order_id), ticker: String(row.ticker), status: String(row.status), fill: String(row.fill_count_fp), at: Date.now() });
    if (this.orders.size > 10_000) this.orders.delete(this.orders.keys().next().value!);
  }

  /** Compares now; pushes the view when what disagrees changed. */
  check(): Disagreement[] {
    const list = compare(this.orders, this.opts.storeOrders(), Date.now(), this.opts.graceMs ?? 3000, this.disagreements);
    this.disagreements = new Map(list.map((d) => [d.orderId, d]));
    this.checkedAt = Date.now();
    this.push(false);
    return list;
  }

  view(): DropCopyView {
    return { phase: this.session.phase, detail: this.session.detail, orders: this.orders.size, disagreements: [...this.disagreements.values()], checkedAt: this.checkedAt };
  }

  private push(always: boolean): void {
    const v = this.view();
    const key = `${v.phase}|${v.orders}|${v.disagreements.map((d) => `${d.orderId}:${d.dropCopy}:${d.terminal}`).join(',')}`;
    if (!always && key === this.lastKey) return;
    this.lastKey = key;
    this.opts.onChange(v);
  }
}
