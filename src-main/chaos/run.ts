// Chaos scenarios over the world of world.ts: trading through a fault proxy (drops, delays,
// reorders, cuts), kill -9 of the exchange during an order burst, and a rate-limit storm. Each
// returns its figures and the referee's verdict: the terminal's books, orders and positions equal
// the exchange's, no order duplicated (retries reuse the client_order_id), none acknowledged lost.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { mulberry32 } from '../../src-shared/random';
import { MAX_PRICE_TICKS } from '../../src-shared/money';
import type { OrderAck } from '../../src-shared/ipc/contract';
import { DEFAULT_FAULTS, type ConnectionTrace, type FaultRates, type FaultStats } from './fault-proxy';
import { settle, sleep, until, type Verdict, type World } from './world';

export interface FlowTally {
  calls: number;
  acked: number;
  refusedByRisk: number;
  /** the exchange said no (a 4xx other than 429) */
  refusedByExchange: number;
  /** the answer never came and the lookups could not tell: shown as pending, reconciled later */
  unknown: number;
  network: number;
  tooManyRequests: number;
  cancels: number;
  /** refusals by code (risk limits, exchange errors) */
  codes: Record<string, number>;
  other: string[];
}

const newTally = (): FlowTally => ({ calls: 0, acked: 0, refusedByRisk: 0, refusedByExchange: 0, unknown: 0, network: 0, tooManyRequests: 0, cancels: 0, codes: {}, other: [] });
const dollars = (ticks: number) => (ticks / MAX_PRICE_TICKS).toFixed(4);

/** The trader at the terminal: resting orders near the touch, cancels of its own, IOCs that cross. */
async function traderFlow(world: World, seed: number, until: () => boolean, acked: Map<string, string>, tally: FlowTally): Promise<void> {
  const rnd = mulberry32(seed);
  while (!until()) {
    const ticker = world.markets[Math.floor(rnd() * world.markets.length)]!;
    const book = world.screen.books.get(ticker);
    const bestBid = book?.yesBids[0] ?? 4500;
    const bestAsk = book?.yesAsks[0] ?? 5500;
    const r = rnd();
    tally.calls += 1;
    let res;
    const restingHere = [...world.screen.orders.values()].filter((o) => o.status === 'resting' && o.ticker === ticker).length;
    // under the per-market open-order limit (50 by default) the trader cancels instead of placing
    if (r < 0.2 || restingHere >= 40) {
      const mine = [...world.screen.orders.values()].filter((o) => o.status === 'resting' && (restingHere < 40 || o.ticker === ticker));
      const o = mine[Math.floor(rnd() * mine.length)];
      if (!o) continue;
      res = await world.call('cancelOrder', { order_id: String(o.order_id), ticker: String(o.ticker), origin: 'api' });
      if (res.ok) tally.cancels += 1;
    } else {
      const ioc = r > 0.85;
      const side = rnd() < 0.5 ? 'bid' : 'ask';
      const count = String(1 + Math.floor(rnd() * 3));
      const away = 100 * (1 + Math.floor(rnd() * 5));
      const ticks = ioc ? (side === 'bid' ? bestAsk : bestBid) : side === 'bid' ? Math.min(bestBid, bestAsk - 100) - away + 100 : Math.max(bestAsk, bestBid + 100) + away - 100;
      const price = dollars(Math.min(9900, Math.max(100, ticks)));
      res = await world.call<OrderAck>('placeOrder', { ticker, side, price, count, time_in_force: ioc ? 'immediate_or_cancel' : 'good_till_canceled', origin: 'api', confirmed: true });
      if (res.ok) {
        tally.acked += 1;
        acked.set(res.value.client_order_id, res.value.order_id);
      }
    }
    if (!res.ok) {
      const e = res.error;
      const code = e.code ?? (e.status ? String(e.status) : e.kind);
      tally.codes[code] = (tally.codes[code] ?? 0) + 1;
      if (e.status === 429 || e.code === 'too_many_requests') tally.tooManyRequests += 1;
      else if (e.kind === 'risk') tally.refusedByRisk += 1;
      else if (e.kind === 'api') tally.refusedByExchange += 1;
      else if (/outcome unknown/.test(e.message)) tally.unknown += 1;
      else if (e.kind === 'network') tally.network += 1;
      else if (tally.other.length < 20) tally.other.push(`${e.kind}: ${e.message.slice(0, 160)}`);
    }
    await sleep(40 + rnd() * 160);
  }
}

/** The other side, straight at the exchange: quotes both sides and now and then hits the trader. */
async function counterpartyFlow(world: World, seed: number, until: () => boolean): Promise<number> {
  const rnd = mulberry32(seed);
  const mine: { id: string; ticker: string }[] = [];
  let sent = 0;
  while (!until()) {
    const ticker = world.markets[Math.floor(rnd() * world.markets.length)]!;
    const cp = world.counterparty;
    try {
      if (mine.length > 30) {
        const o = mine.shift()!;
        await cp.cancelOrder({ params: { order_id: o.id } }).catch(() => undefined);
      } else {
        const side = rnd() < 0.5 ? 'bid' : 'ask';
        const hit = rnd() < 0.25;
        const ticks = hit ? (side === 'bid' ? 6000 : 4000) : side === 'bid' ? 4000 + Math.floor(rnd() * 9) * 100 : 5100 + Math.floor(rnd() * 9) * 100;
        const r = await cp.createOrder({
          body: { ticker, side, price: dollars(ticks), count: String(1 + Math.floor(rnd() * 5)), time_in_force: hit ? 'immediate_or_cancel' : 'good_till_canceled', client_order_id: `cp-${seed}-${sent}` },
        });
        const order = (r as { order?: { order_id?: string; status?: string } }).order;
        if (!hit && order?.order_id && order.status === 'resting') mine.push({ id: order.order_id, ticker });
      }
      sent += 1;
    } catch {
      // the exchange may be restarting: the other side just tries again later
    }
    await sleep(60 + rnd() * 120);
  }
  return sent;
}

export interface ChaosReport {
  scenario: string;
  seed: number;
  seconds: number;
  trader: FlowTally;
  counterpartyOrders: number;
  proxy: FaultStats;
  exchangeRestarts: number;
  verdict: Verdict & { settleMs: number };
}

/**
 * Trading through the fault proxy for `durationMs` (three trader workers at once, so requests and
 * answers overlap and reorder), optionally killing the exchange (-9) every `killEveryMs` and
 * starting it again on its data; then the faults heal and the referee compares.
 */
export async function tradeThroughFaults(world: World, opts: { seed: number; durationMs: number; faults?: FaultRates; killEveryMs?: number; scenario?: string }): Promise<ChaosReport> {
  const start = Date.now();
  const end = start + opts.durationMs;
  const done = () => Date.now() >= end;
  const acked = new Map<string, string>();
  const tally = newTally();
  world.proxy.setFaults(opts.faults ?? DEFAULT_FAULTS);
  let restarts = 0;
  const killer = (async () => {
    if (!opts.killEveryMs) return;
    while (Date.now() + opts.killEveryMs < end) {
      await sleep(opts.killEveryMs);
      world.log(`kill -9 of the exchange (${tally.acked} acknowledged so far)`);
      await world.restartExchange();
      restarts += 1;
    }
  })();
  const [cpOrders] = await Promise.all([
    counterpartyFlow(world, opts.seed * 7 + 1, done),
    traderFlow(world, opts.seed * 7 + 2, done, acked, tally),
    traderFlow(world, opts.seed * 7 + 3, done, acked, tally),
    traderFlow(world, opts.seed * 7 + 4, done, acked, tally),
    killer,
  ]);
  world.proxy.setFaults(null);
  const verdict = await settle(world, acked);
  return {
    scenario: opts.scenario ?? (opts.killEveryMs ? 'kill -9 of the exchange during an order burst' : 'fault proxy'),
    seed: opts.seed,
    seconds: Math.round((Date.now() - start) / 1000),
    trader: tally,
    counterpartyOrders: cpOrders,
    proxy: { ...world.proxy.stats },
    exchangeRestarts: restarts,
    verdict,
  };
}

export interface StormReport {
  calls: number;
  ok: number;
  tooManyRequests: number;
  /** each failure (the first ten) with when it was called and when it failed, from the storm's start */
  otherErrors: string[];
  seconds: number;
  /** the longest the terminal's own event loop (this process: terminal, proxy and test) stalled during the storm */
  loopStallMaxMs: number;
  /** the slowest answer to a public read sent straight to the exchange (past the proxy) every 250 ms during the storm */
  exchangeProbeMaxMs: number;
}

/** What the fault proxy saw of one connection, its times from `t0` (where an unanswered request was held or lost). */
function proxySaw(c: ConnectionTrace, t0: number): string {
  const at = (ms: number | undefined) => (ms === undefined ? 'never' : `+${ms - t0} ms`);
  return `the proxy: accepted at ${at(c.acceptedMs)}, its leg to the exchange connected ${at(c.upstreamConnectedMs)} and closed ${at(c.upstreamClosedMs)}, request bytes in/out ${c.request.in}/${c.request.out}, answer bytes in/out ${c.answer.in}/${c.answer.out}, client side closed ${at(c.closedMs)}`;
}

/**
 * What undici (Node's fetch) did with each request to the proxy, from its diagnostics channels:
 * when it was created, when a connection was made and its headers went out, on which local port,
 * and whether an answer's headers came back. `stop` lists the requests with no answer (a storm's
 * read that timed out: never sent, sent on a connection that died, or sent and not answered).
 */
export function traceWire(proxyPort: number, proxyTrace?: (clientPort: number) => ConnectionTrace | undefined): { stop(): string[] } {
  const t0 = Date.now();
  const ms = () => Date.now() - t0;
  interface Trace {
    what: string;
    created: number;
    sent?: number;
    port?: number;
    connectedAt?: number;
    answered?: number;
    error?: string;
  }
  const requests = new Map<object, Trace>();
  const connectedAt = new WeakMap<object, number>();
  const ours = (r: { origin?: unknown }) => String(r.origin ?? '').endsWith(`:${proxyPort}`);
  type Msg = { request?: { origin?: unknown; method?: string; path?: string }; socket?: { localPort?: number }; error?: Error };
  const subs: [string, (m: Msg) => void][] = [
    ['undici:request:create', ({ request: r }) => {
      if (r && ours(r)) requests.set(r, { what: `${r.method} ${String(r.path).split('?')[0]}`, created: ms() });
    }],
    ['undici:client:connected', ({ socket }) => {
      if (socket) connectedAt.set(socket, ms());
    }],
    ['undici:client:sendHeaders', ({ request, socket }) => {
      const t = request && requests.get(request);
      if (!t) return;
      t.sent = ms();
      t.port = socket?.localPort;
      const at = socket ? connectedAt.get(socket) : undefined;
      if (at !== undefined) t.connectedAt = at;
    }],
    ['undici:request:headers', ({ request }) => {
      const t = request && requests.get(request);
      if (t) t.answered = ms();
    }],
    ['undici:request:error', ({ request, error }) => {
      const t = request && requests.get(request);
      if (t) t.error = error?.message ?? 'error';
    }],
  ];
  // the channels hand each subscriber an unknown message: these are undici's, read as Msg
  const handlers = subs.map(([name, fn]) => [name, (m: unknown) => fn(m as Msg)] as const);
  for (const [name, fn] of handlers) subscribe(name, fn);
  return {
    stop() {
      for (const [name, fn] of handlers) unsubscribe(name, fn);
      return [...requests.values()]
        .filter((t) => t.answered === undefined)
        .slice(0, 5)
        .map((t) => {
          const seen = t.port === undefined ? undefined : proxyTrace?.(t.port);
          const proxy = seen ? `; ${proxySaw(seen, t0)}` : '';
          return `undici: ${t.what} created at +${t.created} ms, ${t.sent === undefined ? 'headers never sent' : `headers sent at +${t.sent} ms on local port ${t.port ?? '?'} (that connection ${t.connectedAt === undefined ? 'made before the storm' : `made at +${t.connectedAt} ms`})`}, no answer${t.error ? `, error: ${t.error.slice(0, 80)}` : ''}${proxy}`;
        });
    },
  };
}

/**
 * The kernel's count of connections whose handshake a full accept queue held back (Linux's
 * TcpExt ListenOverflows, for every listener of this network namespace), or null where there is
 * no /proc: a connection the client saw made and the proxy accepted seconds later was held there.
 */
export function listenOverflows(): number | null {
  try {
    const [names, values] = readFileSync('/proc/net/netstat', 'utf8').split('\n').filter((l) => l.startsWith('TcpExt:'));
    const i = names!.split(/\s+/).indexOf('ListenOverflows');
    return i < 0 ? null : Number(values!.split(/\s+/)[i]);
  } catch {
    return null;
  }
}

/**
 * A failure's story while a storm runs: whether this process stalled (a timeout that fires after a
 * stall of its own loop is not the exchange's silence), and whether the exchange itself went quiet
 * (a public read straight to it, past the proxy, every 250 ms).
 */
function watchStorm(world: World): { stop(): Promise<{ loopStallMaxMs: number; probeMaxMs: number; unanswered: string[]; listenOverflows: number | null }> } {
  const overflowsBefore = listenOverflows();
  const loop = monitorEventLoopDelay({ resolution: 20 });
  loop.enable();
  const wire = traceWire(world.proxy.port, (p) => world.proxy.traceOf(p));
  let probing = true;
  let probeMaxMs = 0;
  const probe = (async () => {
    while (probing) {
      const t = Date.now();
      await world.referee.getExchangeStatus().catch(() => undefined);
      probeMaxMs = Math.max(probeMaxMs, Date.now() - t);
      await sleep(250);
    }
  })();
  return {
    async stop() {
      loop.disable();
      probing = false;
      await probe;
      const after = listenOverflows();
      return { loopStallMaxMs: Math.round(loop.max / 1e6), probeMaxMs, unanswered: wire.stop(), listenOverflows: overflowsBefore === null || after === null ? null : after - overflowsBefore };
    },
  };
}

/** `n` calls from the terminal at once (reads and orders): the limiter queues, no 429 reaches the trader. */
export async function rateLimitStorm(world: World, n: number): Promise<StormReport> {
  world.proxy.setFaults(null);
  // room under the per-market open-order limit for the storm's own orders (the gate counts what the terminal shows)
  const restingShown = () => [...world.screen.orders.values()].filter((o) => o.status === 'resting').length;
  for (const t of world.markets) await world.call('cancelAll', { ticker: t });
  await until('no resting order shown before the storm', () => restingShown() === 0, 30_000);
  const start = Date.now();
  const watch = watchStorm(world);
  const reads = [
    { id: 'getMarkets', query: { status: 'open', limit: 20 } },
    { id: 'getBalance' },
    { id: 'getOrders', query: { status: 'resting', limit: 100 } },
    { id: 'getPositions', query: { limit: 100 } },
    { id: 'getExchangeStatus' },
  ];
  const writes = Math.min(Math.floor(n / 10), 40 * world.markets.length);
  type Answer = { ok: boolean; error?: { status?: number; code?: string; kind: string; message: string } };
  const calls: Promise<Answer & { calledMs: number; endedMs: number }>[] = [];
  const timed = (p: Promise<Answer>) => {
    const calledMs = Date.now() - start;
    return p.then((a) => ({ ...a, calledMs, endedMs: Date.now() - start }));
  };
  const sentIn = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    if (i % 10 === 9 && i / 10 < writes) {
      const ticker = world.markets[i % world.markets.length]!;
      // far from the touch, every one of a market different (the duplicate check stays quiet:
      // 9 prices x 5 counts covers its 40), in whole cents (on every market's tick), and under
      // 0.10: never more than 0.10 through any best ask, so the price collar cannot refuse one
      // however the lively market has moved (bids up to 0.21 were refused when an ask fell to 0.08)
      const j = sentIn.get(ticker) ?? 0;
      sentIn.set(ticker, j + 1);
      const price = dollars(100 * (1 + (j % 9)));
      calls.push(timed(world.call('placeOrder', { ticker, side: 'bid', price, count: String(1 + Math.floor(j / 9)), origin: 'api', confirmed: true })));
    } else {
      calls.push(timed(world.call('request', reads[i % reads.length])));
    }
  }
  const results = await Promise.all(calls);
  const { loopStallMaxMs, probeMaxMs, unanswered, listenOverflows: overflows } = await watch.stop();
  for (const t of world.markets) await world.call('cancelAll', { ticker: t });
  await until('no resting order shown after the storm', () => restingShown() === 0, 30_000);
  const tooMany = results.filter((r) => !r.ok && (r.error?.status === 429 || r.error?.code === 'too_many_requests')).length;
  const lastAnswerMs = Math.max(0, ...results.filter((x) => x.ok).map((x) => x.endedMs));
  const context = `the last answer of the storm at +${lastAnswerMs} ms; this process's event loop stalled up to ${loopStallMaxMs} ms; the exchange's slowest direct answer ${probeMaxMs} ms; handshakes held by a full accept queue (this machine's, during the storm) ${overflows ?? 'unknown'}${unanswered.length ? `; ${unanswered.join('; ')}` : ''}`;
  return {
    calls: n,
    ok: results.filter((r) => r.ok).length,
    tooManyRequests: tooMany,
    otherErrors: results
      .filter((r) => !r.ok && r.error?.status !== 429)
      .slice(0, 10)
      .map((r) => `${r.error!.kind}: ${r.error!.message.slice(0, 160)} (called at +${r.calledMs} ms, failed at +${r.endedMs} ms; ${context})`),
    seconds: Math.round((Date.now() - start) / 100) / 10,
    loopStallMaxMs,
    exchangeProbeMaxMs: probeMaxMs,
  };
}
