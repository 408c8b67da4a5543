// Order entry over FIX (KalshiNR): a NewOrderSingle (35=D) per order the risk gate passed, its
// first ExecutionReport (New, Trade or Rejected) as the answer, and every later report on the
// session's orders (fills, cancels) into the same private store the REST answers and the
// WebSocket feed. Prices go in dollars (UseDollars, 21005=Y), counts as decimal strings.
// The session does not ask CancelOrdersOnDisconnect (8013): an order entered over FIX rests like
// one entered over REST, through a network blip, a settings change (which restarts the session)
// or the terminal closing; the kill switch and cancel-all reach it either way.
import type { KeyObject } from 'node:crypto';
import type { FixMessage } from '../../src-shared/fix/codec';
import type { OrderAck, OrderDraft } from '../../src-shared/ipc/contract';
import { ApiError } from '../api/errors';
import { OrderOutcomeUnknownError } from '../api/orders';
import type { PrivateStore } from '../session/private-store';
import { FixInitiator, type Fields, type FixEndpoint, type FixPhase } from './initiator';

type Draft = Omit<OrderDraft, 'origin' | 'confirmed'>;
type Row = Record<string, unknown>;

/** The FIX session is not up: nothing was sent (the caller sends over REST instead). */
export class FixRouteDown extends Error {
  override name = 'FixRouteDown';
}

const TIF: Record<string, string> = { good_till_canceled: '1', immediate_or_cancel: '3', fill_or_kill: '4' };
const TIF_BACK: Record<string, string> = { '1': 'good_till_canceled', '3': 'immediate_or_cancel', '4': 'fill_or_kill', '6': 'good_till_canceled', '0': 'good_till_canceled' };
const STATUS: Record<string, string> = { '0': 'resting', '1': 'resting', '2': 'executed', '4': 'canceled', '8': 'canceled', C: 'canceled' };

/** The NewOrderSingle body of a draft. */
export function newOrderSingle(d: Draft, clOrdId: string): Fields {
  const f: Fields = [
    [11, clOrdId],
    [55, d.ticker],
    [54, d.side === 'bid' ? '1' : '2'],
    [38, String(d.count)],
    [40, '2'],
    [44, String(d.price)],
  ];
  if (d.expiration_time !== undefined) {
    f.push([59, '6'], [126, `${new Date(d.expiration_time * 1000).toISOString().replace(/-/g, '').replace('T', '-').slice(0, 17)}`]);
  } else f.push([59, TIF[d.time_in_force ?? 'good_till_canceled'] ?? '1']);
  if (d.post_only) f.push([18, '6']);
  if (d.self_trade_prevention_type) f.push([2964, d.self_trade_prevention_type === 'maker' ? '2' : '1']);
  if (d.subaccount !== undefined) f.push([79, d.subaccount]);
  if (d.order_group_id) f.push([526, d.order_group_id]);
  return f;
}

/** An ExecutionReport as the order row the REST answers and the stream carry. */
export function orderRowOf(m: FixMessage): Row | null {
  const orderId = m.get(37);
  if (!orderId || orderId === 'NONE') return null;
  const ticker = m.get(55) ?? '';
  const sub = Number(m.get(79) ?? '0');
  return {
    order_id: orderId,
    client_order_id: m.get(11) ?? null,
    ticker,
    market_ticker: ticker,
    status: STATUS[m.get(39) ?? ''] ?? 'resting',
    side: m.get(54) === '1' ? 'bid' : 'ask',
    yes_price_dollars: m.get(44),
    initial_count_fp: m.get(38),
    fill_count_fp: m.get(14) ?? '0',
    remaining_count_fp: m.get(151) ?? '0',
    time_in_force: TIF_BACK[m.get(59) ?? '1'],
    subaccount: Number.isSafeInteger(sub) ? sub : 0,
  };
}

interface Pending {
  resolve(m: FixMessage): void;
  reject(e: Error): void;
  timer: NodeJS.Timeout;
}

export interface FixOrderEntryOptions {
  endpoint: FixEndpoint;
  /** where the key may sign a Logon now (the initiator checks it right before signing) */
  bound: () => FixEndpoint | string;
  signer: { keyId: string; key: KeyObject };
  now?: () => number;
  store: PrivateStore;
  /** the store changed: push it to the page */
  changed(): void;
  onPhase?(phase: FixPhase, detail: string): void;
  /** how long an order waits for its first report before its outcome is unknown */
  answerTimeoutMs?: number;
}

export class FixOrderEntry {
  readonly session: FixInitiator;
  private readonly pending = new Map<string, Pending>();
  private readonly bySeq = new Map<number, string>();

  constructor(private readonly opts: FixOrderEntryOptions) {
    this.session = new FixInitiator({
      endpoint: opts.endpoint,
      bound: opts.bound,
      target: 'KalshiNR',
      signer: opts.signer,
      ...(opts.now ? { now: opts.now } : {}),
      logonFlags: [[21005, 'Y']],
      onMessage: (m) => this.onMessage(m),
      onPhase: (phase, detail) => {
        // a session lost with orders unanswered: their outcome is unknown (the caller looks them up)
        if (phase !== 'up' && phase !== 'connecting') this.failPending(`the FIX session went down (${detail})`);
        opts.onPhase?.(phase, detail);
      },
    });
  }

  get up(): boolean {
    return this.session.up;
  }

  start(): void {
    this.session.start();
  }

  stop(): Promise<void> {
    this.failPending('the FIX session was stopped');
    return this.session.stop();
  }

  private failPending(why: string): void {
    for (const [clOrdId, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new OrderOutcomeUnknownError(clOrdId, new Error(why)));
    }
    this.pending.clear();
    this.bySeq.clear();
  }

  /**
   * Sends one order and answers with its first ExecutionReport as an ack, the order row in the
   * store. Throws FixRouteDown when nothing was sent, ApiError when the exchange refused it, and
   * OrderOutcomeUnknownError when it was sent and no answer came (the session dropped).
   */
  async place(draft: Draft, clOrdId: string): Promise<{ ack: OrderAck; order: Row | null }> {
    if (!this.up) throw new FixRouteDown(`the FIX session is ${this.session.phase}: ${this.session.detail}`);
    const answer = new Promise<FixMessage>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(clOrdId);
        reject(new OrderOutcomeUnknownError(clOrdId, new Error('no ExecutionReport within the answer timeout')));
      }, this.opts.answerTimeoutMs ?? 15_000);
      timer.unref();
      this.pending.set(clOrdId, { resolve, reject, timer });
    });
    const seq = this.session.send('D', newOrderSingle(draft, clOrdId));
    if (seq === null) {
      clearTimeout(this.pending.get(clOrdId)!.timer);
      this.pending.delete(clOrdId);
      throw new FixRouteDown('the FIX session went down before the order was sent');
    }
    this.bySeq.set(seq, clOrdId);
    const m = await answer;
    this.bySeq.delete(seq);
    if (m.msgType !== '8' || m.get(150) === '8') {
      const text = m.get(58) ?? 'refused';
      const cut = /^([a-z_]+): (.*)$/s.exec(text);
      throw new ApiError({ status: 400, code: cut?.[1] ?? 'fix_reject', message: cut?.[2] ?? text, method: 'FIX', path: `NewOrderSingle ${clOrdId}` });
    }
    const order = orderRowOf(m);
    const ack: OrderAck = { client_order_id: clOrdId, order_id: m.get(37) ?? '', fill_count: m.get(14) ?? '0', remaining_count: m.get(151) ?? '0' };
    if (order && this.opts.store.putAnsweredOrder(order)) this.opts.changed();
    return { ack, order };
  }

  private onMessage(m: FixMessage): void {
    if (m.msgType === '3' || m.msgType === 'j') {
      // a message refused whole: the order it was, if one
      const clOrdId = this.bySeq.get(Number(m.get(45)));
      const p = clOrdId ? this.pending.get(clOrdId) : undefined;
      if (p && clOrdId) {
        clearTimeout(p.timer);
        this.pending.delete(clOrdId);
        p.resolve(m);
      }
      return;
    }
    if (m.msgType !== '8') return;
    const clOrdId = m.get(11) ?? '';
    const p = this.pending.get(clOrdId);
    if (p) {
      clearTimeout(p.timer);
      this.pending.delete(clOrdId);
      p.resolve(m);
      return;
    }
    // a later report on one of the session's orders: the store takes it unless it knows newer
    const row = orderRowOf(m);
    if (row) {
      this.opts.store.putOrderUnlessNewer(row);
      this.opts.changed();
    }
  }
}
