// The chaos runs' world: an exchange in its own process (as the terminal runs it), a fault proxy in
// front of it, the terminal's main services talking to the exchange only through the proxy (a
// custom profile with the trader's key), and a counterparty trading directly at the exchange. The
// terminal's screen is what main pushes to the UI, folded here the way the renderer folds it.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { launchExchange, type EmbeddedExchange } from '../embedded/launch';
import { startTerminal, type RunningTerminal } from '../app/terminal';
import { FileKeyBox } from '../vault/secret-box';
import { createApiClient, type ApiClient } from '../api/client';
import { resolveProfile } from '../api/profiles';
import { RateLimiter, seedLimiter } from '../api/limiter';
import { collectAll } from '../api/paginate';
import { startFaultProxy, type FaultProxy, type FaultRates } from './fault-proxy';
import { countToCenti, dollarsToTicks, MAX_PRICE_TICKS } from '../../src-shared/money';
import { BOOK_DEPTH, BookReplica, type BookPush } from '../../src-shared/ipc/book-stream';
import type { BookView, ConnectionView, PrivateUpdate, TerminalError } from '../../src-shared/ipc/contract';
import { entryArgs } from './entry';

type Row = Record<string, unknown>;

export interface Screen {
  books: Map<string, BookView>;
  orders: Map<string, Row>;
  positions: Map<string, Row>;
  connection: ConnectionView | null;
  resets: number;
}

export interface World {
  dataDir: string;
  exchange: EmbeddedExchange;
  proxy: FaultProxy;
  terminal: RunningTerminal;
  screen: Screen;
  /** the trader's key, straight to the exchange: the referee's view */
  referee: ApiClient;
  counterparty: ApiClient;
  markets: string[];
  log: (m: string) => void;
  call<T>(method: string, ...args: unknown[]): Promise<{ ok: true; value: T } | { ok: false; error: TerminalError }>;
  restartExchange(): Promise<void>;
  close(): Promise<void>;
}

const str = (r: Row, ...keys: string[]): string | undefined => {
  for (const k of keys) if (typeof r[k] === 'string') return r[k] as string;
  return undefined;
};

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export async function until(what: string, fn: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await fn()) return;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

function exchangeArgs(): string[] {
  return entryArgs('exchange');
}

/** A client straight to the exchange that keeps to its own account's limits (as a real client would). */
async function clientFor(ex: EmbeddedExchange, keyId: string, pem: string): Promise<ApiClient> {
  const limiter = new RateLimiter();
  const client = createApiClient({
    profile: resolveProfile({ kind: 'custom', name: 'chaos', baseUrl: ex.baseUrl, wsUrl: ex.wsUrl, headerPrefix: 'SVC-' }),
    credentials: { keyId, privateKeyPem: pem },
    limiter,
  });
  await seedLimiter(client, limiter).catch(() => undefined);
  return client;
}

/** What the page would show of a private update: orders merged by id, positions by ticker; a reset clears both. */
function foldPrivate(screen: Screen, u: PrivateUpdate): void {
  if (u.reset) {
    screen.orders.clear();
    screen.positions.clear();
    screen.resets += 1;
  }
  for (const o of u.orders ?? []) {
    const id = str(o, 'order_id');
    if (id) screen.orders.set(id, { ...(screen.orders.get(id) ?? {}), ...o });
  }
  for (const p of u.positions ?? []) {
    const t = str(p, 'ticker', 'market_ticker');
    if (t) screen.positions.set(t, p);
  }
}

/** Calls through the terminal's door: `call` answers as the door does, `must` throws on an error. */
function doorCalls(terminal: RunningTerminal) {
  const call = async <T,>(method: string, ...args: unknown[]) => (await terminal.door(method, args)) as { ok: true; value: T } | { ok: false; error: TerminalError };
  const must = async <T,>(method: string, ...args: unknown[]): Promise<T> => {
    const r = await call<T>(method, ...args);
    if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
    return r.value;
  };
  return { call, must };
}

/** Three open plain markets to trade in (no multivariate or cross ones). */
async function chaosMarkets(referee: ApiClient): Promise<string[]> {
  const open = await referee.getMarkets({ query: { status: 'open', limit: 50 } });
  return open.markets
    .map((m) => m.ticker)
    .filter((t) => !t.includes('MVE') && !t.includes('CROSS'))
    .slice(0, 3);
}

export async function startWorld(opts: { dataDir: string; seed: number; faults: FaultRates | null; log?: (m: string) => void }): Promise<World> {
  const log = opts.log ?? (() => undefined);
  mkdirSync(opts.dataDir, { recursive: true });
  const exchangeDir = path.join(opts.dataDir, 'exchange');
  const launch = () => launchExchange({ command: process.execPath, args: exchangeArgs(), dataDir: exchangeDir, seed: opts.seed, sim: false, log: (m) => (/error|fatal/i.test(m) ? log(m) : undefined) });
  let exchange = await launch();
  const keys = new Map(exchange.accounts.map((a) => [a.name, a]));
  const trader = keys.get('trader')!;
  const cp = keys.get('counterparty')!;
  const proxy = await startFaultProxy({ upstreamPort: exchange.port, seed: opts.seed, faults: null });

  const replica = new BookReplica();
  const screen: Screen = { books: replica.views, orders: new Map(), positions: new Map(), connection: null, resets: 0 };
  const fold = (u: PrivateUpdate) => foldPrivate(screen, u);
  const terminal = await startTerminal({
    dataDir: path.join(opts.dataDir, 'terminal'),
    box: new FileKeyBox(path.join(opts.dataDir, 'terminal')),
    shell: 'web',
    emit: (stream, payload) => {
      // main pushes only the levels that changed: the replica rebuilds the views the page would show
      if (stream === 'books') replica.push(payload as BookPush[]);
      else if (stream === 'private') fold(payload as PrivateUpdate);
      else if (stream === 'connection') screen.connection = payload as ConnectionView;
    },
    log: (m) => (/fail|error|unknown/i.test(m) ? log(`[terminal] ${m}`) : undefined),
    confirmInMain: async () => true,
  });
  const { call, must } = doorCalls(terminal);
  const proxied = { baseUrl: `${proxy.url}/trade-api/v2`, wsUrl: `ws://127.0.0.1:${proxy.port}/trade-api/ws/v2` };
  await must('saveProfile', { id: 'chaos', name: 'Chaos', kind: 'custom', ...proxied, headerPrefix: 'SVC-' });
  await must('importKey', { profileId: 'chaos', apiKeyId: trader.api_key_id, privateKeyPem: trader.private_key_pem });
  await must('activateProfile', 'chaos');
  await until('the terminal live through the proxy', () => screen.connection?.phase === 'live');

  const referee = await clientFor(exchange, trader.api_key_id, trader.private_key_pem!);
  const counterparty = await clientFor(exchange, cp.api_key_id, cp.private_key_pem!);
  const markets = await chaosMarkets(referee);
  await must('watchMarkets', markets);
  await until('books of the watched markets', () => markets.every((t) => screen.books.has(t)));

  const world: World = {
    dataDir: opts.dataDir,
    get exchange() {
      return exchange;
    },
    proxy,
    terminal,
    screen,
    referee,
    counterparty,
    markets,
    log,
    call,
    async restartExchange() {
      exchange.child.kill('SIGKILL');
      await new Promise<void>((resolve) => {
        exchange.child.once('exit', () => resolve());
        setTimeout(resolve, 3000).unref();
      });
      exchange = await launch();
      proxy.setUpstream(exchange.port);
      // the referee and the counterparty talk to the exchange directly: re-point them
      world.referee = await clientFor(exchange, trader.api_key_id, trader.private_key_pem!);
      world.counterparty = await clientFor(exchange, cp.api_key_id, cp.private_key_pem!);
    },
    async close() {
      await terminal.stop().catch(() => undefined);
      await proxy.close();
      await exchange.stop();
    },
  };
  return world;
}

// ---------------------------------------------------------------------------- the referee

export interface Verdict {
  ok: boolean;
  problems: string[];
  figures: Record<string, number>;
}

/** The top of a REST orderbook in the terminal's compact form: [tick, centi, ...] best first. */
export function restTop(ob: { yes_dollars?: readonly (readonly [string, string])[] | null; no_dollars?: readonly (readonly [string, string])[] | null }): { yesBids: number[]; yesAsks: number[] } {
  const levels = (rows: readonly (readonly [string, string])[] | null | undefined) => {
    const m = new Map<number, number>();
    for (const [p, c] of rows ?? []) m.set(dollarsToTicks(p), (m.get(dollarsToTicks(p)) ?? 0) + countToCenti(c));
    return [...m].filter(([, c]) => c > 0);
  };
  const bids = levels(ob.yes_dollars).sort((a, b) => b[0] - a[0]).slice(0, BOOK_DEPTH);
  const asks = levels(ob.no_dollars)
    .map(([t, c]) => [MAX_PRICE_TICKS - t, c] as [number, number])
    .sort((a, b) => a[0] - b[0])
    .slice(0, BOOK_DEPTH);
  return { yesBids: bids.flat(), yesAsks: asks.flat() };
}

const centi = (v: unknown): number => (typeof v === 'string' || typeof v === 'number' ? countToCenti(String(v)) : 0);

/** What the exchange holds against what the terminal shows; empty problems when they agree. */
export async function compare(world: World, acked: Map<string, string>): Promise<Verdict> {
  const problems: string[] = [];
  const all = (await collectAll(world.referee, 'getOrders', { query: { limit: 1000 } })) as Row[];
  const byClient = new Map<string, Row[]>();
  for (const o of all) {
    const c = str(o, 'client_order_id');
    if (c) byClient.set(c, [...(byClient.get(c) ?? []), o]);
  }
  for (const [c, list] of byClient) if (list.length > 1) problems.push(`duplicate: client_order_id ${c} has ${list.length} orders`);
  const ids = new Set(all.map((o) => str(o, 'order_id')));
  for (const [c, orderId] of acked) if (!ids.has(orderId)) problems.push(`lost: acknowledged order ${orderId} (${c}) is not at the exchange`);

  const resting = new Map(all.filter((o) => o.status === 'resting').map((o) => [str(o, 'order_id')!, o]));
  const shown = new Map([...world.screen.orders].filter(([, o]) => o.status === 'resting'));
  for (const [id, o] of resting) {
    const s = shown.get(id);
    if (!s) problems.push(`not shown: resting order ${id} at the exchange`);
    // read as the renderer reads it (src-renderer/stores/normalize.ts): the stream's _fp first
    else if (centi(s.remaining_count_fp ?? s.remaining_count) !== centi(o.remaining_count)) problems.push(`order ${id}: shown remaining ${String(s.remaining_count_fp ?? s.remaining_count)}, exchange ${String(o.remaining_count)}`);
  }
  for (const id of shown.keys()) if (!resting.has(id)) problems.push(`shown resting but not resting at the exchange: ${id}`);

  const positions = (await world.referee.getPositions({ query: { limit: 1000 } })).market_positions as Row[];
  const held = new Map(positions.map((p) => [str(p, 'ticker', 'market_ticker')!, centi(p.position ?? p.position_fp)] as const).filter(([, n]) => n !== 0));
  const screenHeld = new Map([...world.screen.positions].map(([t, p]) => [t, centi(p.position ?? p.position_fp)] as const).filter(([, n]) => n !== 0));
  for (const [t, n] of held) if (screenHeld.get(t) !== n) problems.push(`position ${t}: shown ${screenHeld.get(t) ?? 0}, exchange ${n} (centi)`);
  for (const [t, n] of screenHeld) if (!held.has(t)) problems.push(`position ${t}: shown ${n}, exchange 0`);

  for (const t of world.markets) {
    const ob = await world.referee.getOrderbook({ params: { ticker: t } });
    const want = restTop(ob.orderbook_fp as Parameters<typeof restTop>[0]);
    const have = world.screen.books.get(t);
    if (!have) problems.push(`book ${t}: not shown`);
    else if (JSON.stringify([have.yesBids, have.yesAsks]) !== JSON.stringify([want.yesBids, want.yesAsks])) problems.push(`book ${t}: shown ${JSON.stringify([have.yesBids.slice(0, 6), have.yesAsks.slice(0, 6)])}…, exchange ${JSON.stringify([want.yesBids.slice(0, 6), want.yesAsks.slice(0, 6)])}…`);
    else if (have.stale) problems.push(`book ${t}: shown stale`);
  }
  return { ok: problems.length === 0, problems, figures: { exchangeOrders: all.length, resting: resting.size, positions: held.size } };
}

/** Compares until the terminal has caught up (it reconnects and reconciles by itself) or the time is up. */
export async function settle(world: World, acked: Map<string, string>, timeoutMs = 45_000): Promise<Verdict & { settleMs: number }> {
  const start = Date.now();
  let last: Verdict = { ok: false, problems: ['not compared'], figures: {} };
  // what it waits on goes to the log when it changes: a run that does not settle tells why
  let waiting = '';
  const note = (now: string) => {
    if (now !== waiting) world.log(`settle +${Date.now() - start} ms: ${(waiting = now)}`);
  };
  while (Date.now() - start < timeoutMs) {
    const c = world.screen.connection;
    if (c?.phase === 'live') {
      last = await compare(world, acked).catch((e: unknown) => ({ ok: false, problems: [`compare failed: ${(e as Error).message}`], figures: {} }));
      if (last.ok) return { ...last, settleMs: Date.now() - start };
      note(`live; ${last.problems.length} problem(s): ${last.problems.slice(0, 3).join('; ')}`);
    } else note(`the terminal's stream is ${c ? `${c.phase} (${c.detail})` : 'not reported'}`);
    await sleep(500);
  }
  if (last.problems[0] === 'not compared') last = { ...last, problems: [`not compared: the terminal's stream never came back live in ${timeoutMs} ms (${waiting})`] };
  return { ...last, settleMs: Date.now() - start };
}
