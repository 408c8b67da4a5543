// A loopback TCP proxy that injects faults between the terminal's main and the exchange: it
// delays chunks (so answers on different connections overtake each other: requests and their
// answers reorder), black-holes one direction for a while (a request that lands with its answer
// lost, a socket that goes silent), cuts connections mid-stream (HTTP and WebSocket alike) and
// refuses new ones. Seeded, so a failing run repeats. Faults can be switched off (heal) and the
// upstream re-pointed (an exchange restarted on another port) while it runs.
import { createServer, connect, type Server, type Socket } from 'node:net';
import { mulberry32 } from '../../src-shared/random';

export interface FaultRates {
  /** chance a new connection is refused at once */
  refuse: number;
  /** chance a connection is cut after a random 0..cutWithinMs */
  cut: number;
  cutWithinMs: number;
  /** chance a connection's answers are held back (black-holed) for a while, then the connection is cut */
  blackhole: number;
  blackholeMs: number;
  /** each chunk waits 0..delayMs (in order within its connection) */
  delayMs: number;
  /** besides, one open connection (keep-alive HTTP or the stream) is cut every 0..cutOneEveryMs (0: never) */
  cutOneEveryMs: number;
  /**
   * A request whose first bytes are `startsWith` (e.g. "POST /trade-api/v2/portfolio/events/orders ")
   * waits `ms` on the wire, with what follows it on its connection: one kind of request landing
   * after others sent later (an order create after a cancel-all)
   */
  hold?: { startsWith: string; ms: number };
  /**
   * The answer to a request whose first bytes are `startsWith` waits `ms` on the wire (the request
   * itself goes on at once, its signature fresh): an exchange slow to answer one kind of call
   */
  holdAnswer?: { startsWith: string; ms: number };
}

export const DEFAULT_FAULTS: FaultRates = { refuse: 0.05, cut: 0.25, cutWithinMs: 3000, blackhole: 0.05, blackholeMs: 4000, delayMs: 120, cutOneEveryMs: 3000 };

export interface FaultStats {
  connections: number;
  refused: number;
  cut: number;
  blackholed: number;
  delayedChunks: number;
  /** requests held by `hold`, and answers held by `holdAnswer` */
  held: number;
}

/**
 * The proxy's own account of one client connection (wall-clock ms): when it was accepted, when its
 * leg to the exchange connected, the bytes each way as they came in and as they went out, and when
 * it closed. A request that got no answer is then placed: never accepted, its upstream leg never
 * connected, its bytes held here, or sent on and never answered by the exchange.
 */
export interface ConnectionTrace {
  acceptedMs: number;
  upstreamConnectedMs?: number;
  upstreamClosedMs?: number;
  closedMs?: number;
  /** the client's bytes received here (in) and written to the exchange (out) */
  request: ByteCounts;
  /** the exchange's bytes received here (in) and written to the client (out) */
  answer: ByteCounts;
}

/** One direction's bytes: received by the proxy, and written on. */
export interface ByteCounts {
  in: number;
  out: number;
}

/** how many connections' traces are kept (the newest) */
const TRACES_KEPT = 4096;

export interface FaultProxy {
  port: number;
  url: string;
  stats: FaultStats;
  /** faults on (the given rates) or off (a clean pipe) */
  setFaults(rates: FaultRates | null): void;
  /** where new connections go (an exchange restarted elsewhere); open ones are cut */
  setUpstream(port: number): void;
  /** cut every open connection now */
  cutAll(): void;
  /** the newest connection from this client port (the client's local port), if one was seen */
  traceOf(clientPort: number): ConnectionTrace | undefined;
  close(): Promise<void>;
}

interface ProxyState {
  rnd: () => number;
  /** the faults in force (null: a clean pipe); read anew by every connection and chunk */
  faults: FaultRates | null;
  /** where new connections go */
  upstreamPort: number;
  stats: FaultStats;
  /** every socket open, both sides */
  open: Set<Socket>;
  /** client side of each proxied connection, and how to cut it */
  cuts: Map<Socket, () => void>;
  /** each connection's trace by the client's port (the newest TRACES_KEPT) */
  traces: Map<number, ConnectionTrace>;
}

function startTrace(state: ProxyState, client: Socket): ConnectionTrace {
  const trace: ConnectionTrace = { acceptedMs: Date.now(), request: { in: 0, out: 0 }, answer: { in: 0, out: 0 } };
  const port = client.remotePort ?? -1;
  state.traces.delete(port);
  state.traces.set(port, trace);
  if (state.traces.size > TRACES_KEPT) state.traces.delete(state.traces.keys().next().value!);
  client.once('close', () => (trace.closedMs = Date.now()));
  return trace;
}

/** One client connection: refused, or piped to the upstream with the faults drawn for it. */
function proxyConnection(state: ProxyState, client: Socket): void {
  const { rnd, stats, open, cuts } = state;
  stats.connections += 1;
  const trace = startTrace(state, client);
  open.add(client);
  client.on('close', () => open.delete(client));
  client.on('error', () => client.destroy());
  const f = state.faults;
  if (f && rnd() < f.refuse) {
    stats.refused += 1;
    client.resetAndDestroy();
    return;
  }
  const upstream = connect({ host: '127.0.0.1', port: state.upstreamPort });
  upstream.once('connect', () => (trace.upstreamConnectedMs = Date.now()));
  open.add(upstream);
  upstream.on('close', () => {
    trace.upstreamClosedMs = Date.now();
    open.delete(upstream);
    client.destroy();
  });
  upstream.on('error', () => upstream.destroy());
  client.on('close', () => upstream.destroy());

  const cut = () => {
    if (client.destroyed) return;
    stats.cut += 1;
    client.resetAndDestroy();
    upstream.destroy();
  };
  cuts.set(client, cut);
  client.on('close', () => cuts.delete(client));
  const held = { until: 0 };
  if (f && rnd() < f.cut) setTimeout(cut, rnd() * f.cutWithinMs).unref();
  if (f && rnd() < f.blackhole) {
    stats.blackholed += 1;
    held.until = Date.now() + f.blackholeMs;
    setTimeout(cut, f.blackholeMs).unref();
  }
  // what the next answer on this connection waits (holdAnswer), set when its request passes
  const answerWait = { ms: 0 };
  pipeDelayed(state, client, upstream, false, held, trace.request, answerWait);
  pipeDelayed(state, upstream, client, true, held, trace.answer, answerWait);
}

/**
 * Forwards `from`'s chunks to `to`, each delayed 0..delayMs; chunks keep their order within a
 * connection: each waits for the one before it.
 */
function pipeDelayed(state: ProxyState, from: Socket, to: Socket, answers: boolean, held: { until: number }, bytes: ByteCounts, answerWait: { ms: number }): void {
  const { rnd, stats } = state;
  let chain = Promise.resolve();
  const starts = (chunk: Buffer, prefix: string) => chunk.subarray(0, prefix.length).toString('latin1') === prefix;
  from.on('data', (chunk: Buffer) => {
    bytes.in += chunk.length;
    const now = state.faults;
    const hold = !answers && now?.hold && starts(chunk, now.hold.startsWith) ? now.hold.ms : 0;
    if (hold) stats.held += 1;
    if (!answers && now?.holdAnswer && starts(chunk, now.holdAnswer.startsWith)) {
      stats.held += 1;
      answerWait.ms = now.holdAnswer.ms;
    }
    // the answer's first chunk waits; the rest of it follows in order behind that one
    const answerHold = answers ? answerWait.ms : 0;
    if (answers) answerWait.ms = 0;
    const wait = (now ? rnd() * now.delayMs : 0) + hold + answerHold;
    if (wait > 0) stats.delayedChunks += 1;
    chain = chain.then(
      () =>
        new Promise<void>((resolve) => {
          setTimeout(() => {
            // a black-holed connection loses its answers until it is cut
            if (!to.destroyed && !(answers && held.until > Date.now())) {
              to.write(chunk);
              bytes.out += chunk.length;
            }
            resolve();
          }, wait);
        }),
    );
  });
}

export async function startFaultProxy(opts: { upstreamPort: number; seed: number; faults?: FaultRates | null }): Promise<FaultProxy> {
  const rnd = mulberry32(opts.seed);
  const stats: FaultStats = { connections: 0, refused: 0, cut: 0, blackholed: 0, delayedChunks: 0, held: 0 };
  const state: ProxyState = {
    rnd,
    faults: opts.faults === undefined ? DEFAULT_FAULTS : opts.faults,
    upstreamPort: opts.upstreamPort,
    stats,
    open: new Set<Socket>(),
    cuts: new Map<Socket, () => void>(),
    traces: new Map<number, ConnectionTrace>(),
  };
  const { open, cuts } = state;

  const server: Server = createServer((client) => proxyConnection(state, client));

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as { port: number }).port;

  // long-lived connections (keep-alive, the stream) meet cuts too, not only new ones
  let ticker: NodeJS.Timeout | null = null;
  const tick = () => {
    const f = state.faults;
    const on = f !== null && f.cutOneEveryMs > 0;
    ticker = setTimeout(tick, on ? rnd() * f.cutOneEveryMs : 500);
    ticker.unref();
    if (!on || cuts.size === 0) return;
    const list = [...cuts.values()];
    list[Math.floor(rnd() * list.length)]!();
  };
  tick();

  const cutAll = () => {
    for (const s of open) s.destroy();
    open.clear();
  };
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    stats,
    setFaults(rates) {
      state.faults = rates;
    },
    setUpstream(p) {
      state.upstreamPort = p;
      cutAll();
    },
    cutAll,
    traceOf: (clientPort) => state.traces.get(clientPort),
    close: () =>
      new Promise<void>((resolve) => {
        if (ticker) clearTimeout(ticker);
        cutAll();
        server.close(() => resolve());
      }),
  };
}
