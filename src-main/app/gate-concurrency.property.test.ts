// The risk gate under concurrency, as a property: random interleavings of place, batch place,
// amend, cancel and kill switch calls on the real TradingService, session, signed client and
// limiter, against a fake exchange (a real HTTP server on 127.0.0.1:0) that applies each request
// when it arrives and answers it late, in random order. Whatever the interleaving:
//   - the exchange never holds more open orders in the market, nor more contracts on a side,
//     than the limits allow (checked at every request it applies);
//   - no create or amend reaches it while the kill switch is engaged and answered;
//   - once everything has answered, nothing rests while the switch is still engaged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TradingService } from './trading-service';
import type { ProfilesService } from './profiles-service';
import { TradingSession } from '../session/session';
import { toTerminalError } from '../ipc/door';
import { DEFAULT_RISK_LIMITS, type RiskLimits } from '../../src-shared/ipc/risk';
import { mulberry32 } from '../../src-shared/random';
import { until } from '../../test-support/main/wait';

const T = 'KXPROP-26-T1';
const LIMITS: RiskLimits = { ...DEFAULT_RISK_LIMITS, maxOpenOrdersPerMarket: 6, maxOpenOrders: 8, maxPositionContracts: '400', duplicateWindowMs: 0 };

interface FakeOrder {
  order_id: string;
  client_order_id: string;
  ticker: string;
  side: 'bid' | 'ask';
  yes_price_dollars: string;
  remaining_count_fp: string;
  fill_count_fp: string;
  status: 'resting' | 'canceled';
}

/** The fake exchange: applies a request on arrival, answers it after a random delay. */
class FakeExchange {
  server!: Server;
  url = '';
  orders = new Map<string, FakeOrder>();
  violations: string[] = [];
  /** [from, to) windows (performance.now) in which no create or amend may arrive */
  closed: { from: number; to: number }[] = [];
  lateArrivals: string[] = [];
  pending = 0;
  private seq = 0;
  rand: () => number = Math.random;

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  reset(seed: number): void {
    this.orders.clear();
    this.violations = [];
    this.closed = [];
    this.lateArrivals = [];
    this.rand = mulberry32(seed);
  }

  private resting(): FakeOrder[] {
    return [...this.orders.values()].filter((o) => o.status === 'resting');
  }

  private check(what: string): void {
    const now = performance.now();
    if (this.closed.some((w) => now >= w.from && now < w.to)) this.lateArrivals.push(what);
    const r = this.resting();
    if (r.length > LIMITS.maxOpenOrdersPerMarket) this.violations.push(`${what}: ${r.length} open orders`);
    for (const side of ['bid', 'ask'] as const) {
      const sum = r.filter((o) => o.side === side).reduce((s, o) => s + Number(o.remaining_count_fp), 0);
      if (sum > Number(LIMITS.maxPositionContracts)) this.violations.push(`${what}: ${sum} contracts on the ${side} side`);
    }
  }

  private create(b: Record<string, unknown>): Record<string, unknown> {
    const cid = String(b.client_order_id);
    let o = [...this.orders.values()].find((x) => x.client_order_id === cid);
    if (!o) {
      o = { order_id: `o-${++this.seq}`, client_order_id: cid, ticker: String(b.ticker), side: b.side as 'bid' | 'ask', yes_price_dollars: String(b.price), remaining_count_fp: Number(b.count).toFixed(2), fill_count_fp: '0.00', status: 'resting' };
      this.orders.set(o.order_id, o);
      this.check(`create ${o.order_id}`);
    }
    return { order_id: o.order_id, client_order_id: cid, fill_count: '0.00', remaining_count: o.remaining_count_fp, status: o.status, ts_ms: Date.now(), order: { ...o } };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.pending++;
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>) : {};
    const p = new URL(req.url ?? '/', 'http://x').pathname.replace('/trade-api/v2', '');
    let status = 200;
    let answer: unknown = {};
    const m = req.method;
    if (m === 'POST' && p === '/portfolio/events/orders') {
      status = 201;
      answer = this.create(body);
    } else if (m === 'POST' && p === '/portfolio/events/orders/batched') {
      status = 201;
      answer = { orders: (body.orders as Record<string, unknown>[]).map((o) => ({ ...this.create(o), error: null })) };
    } else if (m === 'DELETE' && p === '/portfolio/events/orders') {
      for (const o of this.orders.values()) o.status = 'canceled';
      status = 204;
      answer = '';
    } else if (m === 'DELETE' && p.startsWith('/portfolio/events/orders/')) {
      const o = this.orders.get(p.split('/').pop()!);
      if (o) o.status = 'canceled';
      answer = o ? { order_id: o.order_id, reduced_by: o.remaining_count_fp, ts_ms: Date.now() } : undefined;
      if (!o) status = 404;
    } else if (m === 'POST' && p.endsWith('/amend')) {
      const o = this.orders.get(p.split('/')[4]!);
      if (o && o.status === 'resting') {
        const old = { ...o };
        o.yes_price_dollars = String(body.price);
        o.remaining_count_fp = Number(body.count).toFixed(2);
        this.check(`amend ${o.order_id}`);
        answer = { old_order: old, order: { ...o }, order_id: o.order_id, remaining_count: o.remaining_count_fp, fill_count: '0.00', ts_ms: Date.now() };
      } else status = 404;
    } else if (m === 'GET' && p === '/portfolio/subaccounts/balances') {
      answer = { subaccount_balances: [] };
    } else {
      status = 404;
    }
    if (status === 404) answer = { error: { code: 'not_found', message: `fake: ${m} ${p}` } };
    // late, and so out of order
    await new Promise((r) => setTimeout(r, Math.floor(this.rand() * 30)));
    res.writeHead(status, status === 204 ? {} : { 'content-type': 'application/json' });
    res.end(status === 204 ? undefined : JSON.stringify(answer));
    this.pending--;
  }
}

const ex = new FakeExchange();
let session: TradingSession;
let trading: TradingService;

beforeAll(async () => {
  await ex.start();
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  session = new TradingSession({
    profile: { kind: 'custom', name: 'fake', baseUrl: `${ex.url}/trade-api/v2`, wsUrl: `${ex.url.replace('http', 'ws')}/trade-api/ws/v2`, headerPrefix: 'SVC-' },
    credentials: { keyId: 'k-fake', privateKeyPem: pem },
    emit: () => undefined,
  });
  // a live book (the stream is not started here): best bid 0.50, best ask 0.52
  session.books.handle({ type: 'subscribed', id: 1, msg: { channel: 'orderbook_delta', sid: 1 } });
  session.books.handle({ type: 'orderbook_snapshot', sid: 1, seq: 1, msg: { market_ticker: T, yes_dollars_fp: [['0.5000', '10.00']], no_dollars_fp: [['0.4800', '10.00']] } });
  // the one profile: this session (the gate, the session, the client and the limiter are the real ones)
  const active = { profileId: 'p', keyId: 'k-fake', session };
  const profiles = { profiles: { activeProfileId: 'p' }, need: () => active, active: () => active } as unknown as ProfilesService;
  trading = new TradingService({ dataDir: mkdtempSync(path.join(tmpdir(), 'gate-prop-')), profiles, emit: () => undefined, describeError: toTerminalError });
  await trading.saveRiskLimits(LIMITS);
}, 30_000);

afterAll(async () => {
  await session.stop();
  await new Promise((r) => ex.server.close(r));
});

type Op =
  | { kind: 'place'; side: 'bid' | 'ask'; cents: number; count: number; at: number }
  | { kind: 'batch'; n: number; cents: number; count: number; at: number }
  | { kind: 'amend'; pick: number; count: number; at: number }
  | { kind: 'cancel'; pick: number; at: number }
  | { kind: 'kill'; at: number }
  | { kind: 'release'; at: number };

const at = fc.integer({ min: 0, max: 40 });
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('place' as const), side: fc.constantFrom('bid' as const, 'ask' as const), cents: fc.integer({ min: 1, max: 4 }), count: fc.integer({ min: 1, max: 200 }), at }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('batch' as const), n: fc.integer({ min: 1, max: 5 }), cents: fc.integer({ min: 1, max: 4 }), count: fc.integer({ min: 1, max: 150 }), at }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('amend' as const), pick: fc.nat(), count: fc.integer({ min: 1, max: 300 }), at }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat(), at }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('kill' as const), at }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('release' as const), at }) },
);

async function run(o: Op): Promise<void> {
  await new Promise((r) => setTimeout(r, o.at));
  const ours = () => [...ex.orders.values()].filter((x) => x.status === 'resting');
  switch (o.kind) {
    case 'place':
      await trading.placeOrder({ ticker: T, side: o.side, price: (o.side === 'bid' ? o.cents : 100 - o.cents) / 100 + '', count: String(o.count), confirmed: true });
      return;
    case 'batch':
      await trading.placeOrders({ orders: Array.from({ length: o.n }, (_, i) => ({ ticker: T, side: 'bid' as const, price: `0.0${1 + ((o.cents + i) % 4)}`, count: String(o.count), confirmed: true })) });
      return;
    case 'amend': {
      const list = ours();
      const target = list[o.pick % Math.max(1, list.length)];
      if (!target) return;
      await trading.amendOrder({ order_id: target.order_id, ticker: T, side: target.side, price: target.yes_price_dollars, count: String(o.count), confirmed: true });
      return;
    }
    case 'cancel': {
      const list = ours();
      const target = list[o.pick % Math.max(1, list.length)];
      if (target) await trading.cancelOrder({ order_id: target.order_id });
      return;
    }
    case 'kill': {
      await trading.engageKillSwitch();
      // from its answer until a release starts, nothing may arrive (unless a release came meanwhile)
      if (trading.riskView().killSwitch.engaged) ex.closed.push({ from: performance.now(), to: Number.POSITIVE_INFINITY });
      return;
    }
    case 'release': {
      const now = performance.now();
      for (const w of ex.closed) if (w.to === Number.POSITIVE_INFINITY) w.to = now;
      await trading.releaseKillSwitch();
      return;
    }
  }
}

describe('the gate under concurrency (property)', () => {
  it('never lets the exchange hold more than the limits, nor a send through an engaged kill switch', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 4, maxLength: 24 }), fc.integer({ min: 1, max: 2 ** 31 - 1 }), async (ops, seed) => {
        ex.reset(seed);
        // a fresh account: nothing rests, the switch released, the store empty
        if (trading.riskView().killSwitch.engaged) await trading.releaseKillSwitch();
        session.store.reset({ orders: [], positions: [], fills: [] });
        await Promise.allSettled(ops.map(run));
        await until('the exchange idle', () => ex.pending === 0, 20_000);
        expect(ex.violations).toEqual([]);
        expect(ex.lateArrivals).toEqual([]);
        if (trading.riskView().killSwitch.engaged) {
          await until('the sweep', () => ex.pending === 0 && [...ex.orders.values()].every((x) => x.status !== 'resting'), 10_000);
        }
      }),
      { numRuns: 40, interruptAfterTimeLimit: 120_000 },
    );
  }, 180_000);
});
