// Crash safety of the real exchange process: the CLI runs as a child, two accounts drive order
// creates, cancels and amends through the terminal's REST client, the child is SIGKILLed in
// the middle of a burst and restarted on the same data dir, three times at different moments.
//
// How the comparison is made exact: account A (trader) trades in market M1 and is quiesced
// before the kill; its balance, positions, orders and fills are read then and must come back
// identical after the restart. Account B (counterparty) trades in market M2, where A has no
// orders, and is mid-burst when the child dies: every result B was ACKNOWLEDGED must be there
// with a state reachable from the acknowledged one (a canceled or executed order exactly as
// acknowledged; a resting one unchanged unless an unacknowledged request touched it), and
// nothing may exist that B never sent. For both accounts the positions must equal the sum of
// their fills, and once their resting orders are canceled the cash must equal the starting cash
// minus what the fills cost (price x count plus fees) plus $1 per closed YES/NO pair. Books of
// both markets must not be crossed.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../src-main/api/client';
import { ApiError } from '../src-main/api/errors';
import type { CredentialsFile } from '../src-shared/credentials';
import { mulberry32 } from '../src-shared/random';
import { waitForOutput } from '../test-support/child';
import { entryArgs } from '../test-support/entry';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// ---- exact decimal parsing (no floats) ----------------------------------------------------

function scaled(text: string, decimals: number): number {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) throw new Error(`not a decimal: ${text}`);
  const frac = (m[3] ?? '').padEnd(decimals, '0');
  if (frac.length > decimals && !/^0*$/.test(frac.slice(decimals))) throw new Error(`${text} is finer than 10^-${decimals}`);
  const v = Number(m[2]) * 10 ** decimals + Number(frac.slice(0, decimals) || '0');
  return m[1] === '-' ? -v : v;
}
const micro = (dollars: string) => scaled(dollars, 6);
const ticks = (dollars: string) => scaled(dollars, 4);
const centi = (count: string) => scaled(count, 2);
const dollarsOfTicks = (t: number) => `0.${String(t).padStart(4, '0')}`;

// ---- the child exchange -------------------------------------------------------------------

interface Child {
  proc: ChildProcessWithoutNullStreams;
  baseUrl: string;
  credentials: CredentialsFile;
  exited: Promise<number | null>;
  killed: boolean;
}

async function launch(dataDir: string): Promise<Child> {
  const proc = spawn(process.execPath, [...entryArgs('exchange'), '--port', '0', '--data-dir', dataDir, '--no-sim', '--no-rate-limits'], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  // no start deadline: a slow machine only starts it later; an early exit fails at once with its output
  const origin = (await waitForOutput(proc, /exchange listening on (http:\/\/127\.0\.0\.1:\d+)/, 'the exchange listening'))[1]!;
  const credentials = JSON.parse(readFileSync(path.join(dataDir, 'credentials.json'), 'utf8')) as CredentialsFile;
  expect(credentials.base_url.startsWith(origin)).toBe(true);
  return { proc, baseUrl: credentials.base_url, credentials, exited, killed: false };
}

function clientOf(child: Child, name: string): ApiClient {
  const a = child.credentials.accounts.find((x) => x.name === name);
  if (!a) throw new Error(`no account ${name} in credentials.json`);
  const wsUrl = child.credentials.ws_url;
  return createApiClient({
    profile: { kind: 'custom', name: 't', baseUrl: child.baseUrl, wsUrl, headerPrefix: 'SVC-' },
    credentials: { keyId: a.api_key_id, privateKeyPem: a.private_key_pem },
  });
}

// ---- reading an account completely --------------------------------------------------------

async function allPages<T>(fetchPage: (cursor: string | undefined) => Promise<{ items: T[]; cursor?: string | null }>): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 1_000; i++) {
    const page = await fetchPage(cursor);
    out.push(...page.items);
    if (!page.cursor) return out;
    cursor = page.cursor;
  }
  throw new Error('too many pages');
}

type Orders = Awaited<ReturnType<ApiClient['getOrders']>>['orders'];
type Fills = Awaited<ReturnType<ApiClient['getFills']>>['fills'];

async function readAccount(c: ApiClient) {
  const balance = await c.getBalance();
  const positions = await allPages(async (cursor) => {
    const p = await c.getPositions({ query: { limit: 1000, ...(cursor ? { cursor } : {}) } });
    return { items: p.market_positions, cursor: p.cursor };
  });
  const orders: Orders = await allPages(async (cursor) => {
    const p = await c.getOrders({ query: { limit: 1000, ...(cursor ? { cursor } : {}) } });
    return { items: p.orders, cursor: p.cursor };
  });
  const fills: Fills = await allPages(async (cursor) => {
    const p = await c.getFills({ query: { limit: 1000, ...(cursor ? { cursor } : {}) } });
    return { items: p.fills, cursor: p.cursor };
  });
  return { balance, positions, orders, fills };
}

/** Positions (centi, signed: YES positive) and cash the fills imply, from a starting cash. */
function implied(fills: Fills, startMicro: number) {
  const yes = new Map<string, number>();
  const no = new Map<string, number>();
  let cash = startMicro;
  for (const f of fills) {
    const count = centi(f.count_fp);
    const bid = f.book_side === 'bid';
    const own = bid ? ticks(f.yes_price_dollars) : ticks(f.no_price_dollars!);
    cash -= own * count + micro(String(f.fee_cost));
    const m = bid ? yes : no;
    m.set(f.ticker, (m.get(f.ticker) ?? 0) + count);
  }
  const positions = new Map<string, number>();
  for (const t of new Set([...yes.keys(), ...no.keys()])) {
    const y = yes.get(t) ?? 0;
    const n = no.get(t) ?? 0;
    // a YES and a NO of one market pay $1 together, whatever the result: netted at once
    cash += Math.min(y, n) * 10_000;
    if (y !== n) positions.set(t, y - n);
  }
  return { positions, cash };
}

async function cancelResting(c: ApiClient): Promise<void> {
  const resting = await allPages(async (cursor) => {
    const p = await c.getOrders({ query: { status: 'resting', limit: 1000, ...(cursor ? { cursor } : {}) } });
    return { items: p.orders, cursor: p.cursor };
  });
  for (const o of resting) await c.cancelOrder({ params: { order_id: o.order_id } });
}

async function checkImplied(c: ApiClient, startMicro: number, label: string): Promise<void> {
  await cancelResting(c);
  const acct = await readAccount(c);
  const want = implied(acct.fills, startMicro);
  const have = new Map(acct.positions.filter((p) => centi(p.position_fp) !== 0).map((p) => [p.ticker, centi(p.position_fp)]));
  expect(Object.fromEntries(have), `${label}: positions = sum of fills`).toEqual(Object.fromEntries(want.positions));
  expect(micro(acct.balance.balance_dollars!), `${label}: cash = start - fills + closed pairs`).toBe(want.cash);
}

function bookNotCrossed(book: Awaited<ReturnType<ApiClient['getOrderbook']>>, label: string): void {
  const bestYes = Math.max(0, ...book.orderbook_fp.yes_dollars.map(([p]) => ticks(p)));
  const bestNo = Math.max(0, ...book.orderbook_fp.no_dollars.map(([p]) => ticks(p)));
  expect(bestYes + bestNo, `${label}: best YES bid + best NO bid < $1`).toBeLessThan(10_000);
}

// ---- a burst of creates, cancels and amends -------------------------------------------------

interface Acked {
  status: string;
  side: 'bid' | 'ask';
  fill: number;
  remaining: number;
  price: number;
}

interface Tracker {
  acked: Map<string, Acked>;
  /** orders with a cancel or amend sent and not (yet) answered */
  touching: Map<string, number>;
  /** creates sent and not answered */
  unansweredCreates: number;
  resting: string[];
  acks: number;
}

const newTracker = (): Tracker => ({ acked: new Map(), touching: new Map(), unansweredCreates: 0, resting: [], acks: 0 });

const rng = mulberry32;

interface BurstOptions {
  ticker: string;
  /** best YES bid and ask (ticks) when the burst starts */
  bid: number;
  ask: number;
  workers: number;
  /** operations in all; undefined = until stop() */
  ops?: number;
  seed: number;
  onAck?: () => void;
}

type WireOrder = Record<string, unknown>;

/**
 * Workers send creates (a quarter of them crossing the book), cancels and amends of the
 * account's resting orders, and record every answer as acknowledged.
 */
function burst(c: ApiClient, t: Tracker, o: BurstOptions) {
  const rand = rng(o.seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const cent = (p: number) => Math.max(100, Math.min(9_900, Math.round(p / 100) * 100));
  let left = o.ops ?? Number.POSITIVE_INFINITY;
  let stopped = false;
  const acked = (id: string, order: WireOrder) => {
    const rec: Acked = {
      status: String(order.status),
      side: order.book_side === 'ask' ? 'ask' : 'bid',
      fill: centi(String(order.fill_count_fp)),
      remaining: centi(String(order.remaining_count_fp)),
      price: ticks(String(order.yes_price_dollars)),
    };
    t.acked.set(id, rec);
    if (rec.status === 'resting' && !t.resting.includes(id)) t.resting.push(id);
    t.acks++;
    o.onAck?.();
  };
  const touch = async (id: string, action: () => Promise<WireOrder>) => {
    t.touching.set(id, (t.touching.get(id) ?? 0) + 1);
    const order = await action();
    t.touching.set(id, t.touching.get(id)! - 1);
    acked(id, order);
  };
  const one = async () => {
    const r = rand();
    if (t.resting.length > 0 && r < 0.45) {
      const id = t.resting.splice(int(0, t.resting.length - 1), 1)[0]!;
      const prior = t.acked.get(id)!;
      if (r < 0.25) {
        await touch(id, async () => ((await c.cancelOrder({ params: { order_id: id } })) as unknown as { order: WireOrder }).order);
      } else {
        const body = { ticker: o.ticker, side: prior.side, price: dollarsOfTicks(cent(prior.price + int(-2, 2) * 100)), count: String((prior.fill + 100 * int(1, 5)) / 100) };
        await touch(id, async () => (await c.amendOrder({ params: { order_id: id }, body })).order as WireOrder);
      }
      return;
    }
    const side = rand() < 0.5 ? 'bid' : 'ask';
    const crossing = rand() < 0.25;
    const price = side === 'bid' ? (crossing ? o.ask : int(o.bid - 500, o.ask - 100)) : crossing ? o.bid : int(o.bid + 100, o.ask + 500);
    t.unansweredCreates++;
    const res = await c.createOrder({ body: { ticker: o.ticker, side, price: dollarsOfTicks(cent(price)), count: String(int(1, 5)) } });
    t.unansweredCreates--;
    acked(res.order_id, (res as unknown as { order: WireOrder }).order);
  };
  const worker = async () => {
    while (!stopped && left > 0) {
      left--;
      try {
        await one();
      } catch (err) {
        if (stopped) return;
        // a refusal is an answer too (an amend of an order a cross just filled): go on
        if (err instanceof ApiError && err.status < 500) continue;
        throw err;
      }
    }
  };
  const done = Promise.all(Array.from({ length: o.workers }, worker));
  return {
    done,
    stop() {
      stopped = true;
    },
  };
}

/** Checks B's acknowledged orders against the orders that exist after the restart. */
function checkAcknowledged(t: Tracker, orders: Orders, earlier: ReadonlySet<string>, label: string): void {
  const byId = new Map(orders.map((o) => [o.order_id, o]));
  for (const [id, a] of t.acked) {
    const o = byId.get(id);
    expect(o, `${label}: acknowledged order ${id} exists`).toBeDefined();
    const fill = centi(o!.fill_count_fp ?? '0');
    const remaining = centi(o!.remaining_count_fp);
    const touched = (t.touching.get(id) ?? 0) > 0;
    if (a.status === 'canceled' || a.status === 'executed') {
      expect({ status: o!.status, fill, remaining }, `${label}: ${id} as acknowledged`).toEqual({ status: a.status, fill: a.fill, remaining: a.remaining });
    } else if (!touched) {
      // nobody else trades in M2 and B never trades with itself: a resting order stays put
      expect({ status: o!.status, fill, remaining, price: ticks(o!.yes_price_dollars!) }, `${label}: ${id} as acknowledged`).toEqual({
        status: 'resting',
        fill: a.fill,
        remaining: a.remaining,
        price: a.price,
      });
    } else {
      expect(['resting', 'canceled', 'executed'], `${label}: ${id} reachable`).toContain(o!.status);
      expect(fill).toBeGreaterThanOrEqual(a.fill);
    }
  }
  // nothing exists that B did not send: at most the creates still unanswered at the kill
  const unknown = orders.filter((o) => !t.acked.has(o.order_id) && !earlier.has(o.order_id));
  expect(unknown.length, `${label}: orders never acknowledged`).toBeLessThanOrEqual(t.unansweredCreates);
}

// ---- the test ---------------------------------------------------------------------------------

describe('crash safety of the exchange process (SIGKILL mid-burst)', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'exchange-crash-'));
  let child: Child | undefined;

  afterAll(async () => {
    if (child && child.proc.exitCode === null && child.proc.signalCode === null) {
      child.proc.kill('SIGTERM');
      await child.exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('loses nothing acknowledged across three kills at different moments', async () => {
    child = await launch(dataDir);
    let A = clientOf(child, 'trader');
    let B = clientOf(child, 'counterparty');
    const open = (await A.getMarkets({ query: { status: 'open', limit: 1000 } })).markets.filter((m) => !m.ticker.startsWith('KXMVE'));
    if (open.length < 2) throw new Error(`the exchange has ${open.length} open markets; the crash test needs two (is the catalog seed registered?)`);
    const quote = async (ticker: string) => {
      const b = await A.getOrderbook({ params: { ticker } });
      const bid = Math.max(0, ...b.orderbook_fp.yes_dollars.map(([p]) => ticks(p)));
      const noBid = Math.max(0, ...b.orderbook_fp.no_dollars.map(([p]) => ticks(p)));
      return { bid: bid || 4_000, ask: noBid ? 10_000 - noBid : 6_000 };
    };
    // two markets quoted on both sides if possible, so some orders cross
    const twoSided = [];
    for (const m of open) {
      const q = await quote(m.ticker);
      twoSided.push({ ticker: m.ticker, ...q });
    }
    const [M1, M2] = twoSided.sort((x, y) => Number(y.bid > 0 && y.ask < 10_000) - Number(x.bid > 0 && x.ask < 10_000));
    expect(M1!.ticker).not.toBe(M2!.ticker);

    // starting point: no orders, no fills for either account; cash is then all available
    for (const c of [A, B]) {
      await cancelResting(c);
      expect((await c.getFills()).fills).toEqual([]);
    }
    const startA = micro((await A.getBalance()).balance_dollars!);
    const startB = micro((await B.getBalance()).balance_dollars!);

    const moments: { label: string; arm: (kill: () => void, acksSinceArmed: () => number) => { onAck?: () => void; timer?: NodeJS.Timeout } }[] = [
      { label: 'kill right after the first acknowledgement', arm: (kill, acks) => ({ onAck: () => acks() >= 1 && kill() }) },
      { label: 'kill after 60 acknowledgements', arm: (kill, acks) => ({ onAck: () => acks() >= 60 && kill() }) },
      { label: 'kill 400 ms into the burst', arm: (kill) => ({ timer: setTimeout(kill, 400) }) },
    ];

    const earlierB = new Set((await B.getOrders({ query: { limit: 1000 } })).orders.map((o) => o.order_id));
    let round = 0;
    for (const moment of moments) {
      round++;
      const label = `round ${round} (${moment.label})`;
      const [q1, q2] = [await quote(M1!.ticker), await quote(M2!.ticker)];

      // A and B trade at the same time in their own markets; A stops and is read in full
      const bTrack = newTracker();
      const hooks: { onAck?: () => void } = {};
      const b = burst(B, bTrack, { ticker: M2!.ticker, ...q2, workers: 8, seed: 100 + round, onAck: () => hooks.onAck?.() });
      const aTrack = newTracker();
      await burst(A, aTrack, { ticker: M1!.ticker, ...q1, workers: 4, ops: 40, seed: 200 + round }).done;
      expect(aTrack.acks, `${label}: A's burst was answered`).toBeGreaterThan(20);
      const beforeA = await readAccount(A);

      // now arm the kill while B is mid-burst
      const current = child;
      const kill = () => {
        if (current.killed) return;
        current.killed = true;
        b.stop();
        current.proc.kill('SIGKILL');
      };
      const base = bTrack.acks;
      const plan = moment.arm(kill, () => bTrack.acks - base);
      hooks.onAck = plan.onAck;
      const bFailed = b.done.then(() => undefined, (err: unknown) => err);
      await current.exited;
      if (plan.timer) clearTimeout(plan.timer);
      expect(current.killed, `${label}: the child died by our SIGKILL`).toBe(true);
      expect(current.proc.signalCode).toBe('SIGKILL');
      expect(await bFailed, `${label}: B's burst ran until the kill`).toBeUndefined();
      expect(bTrack.acks - base, `${label}: B had acknowledged results after arming`).toBeGreaterThan(0);

      child = await launch(dataDir);
      A = clientOf(child, 'trader');
      B = clientOf(child, 'counterparty');

      // A, quiesced before the kill, is exactly as it was
      const afterA = await readAccount(A);
      expect(afterA, `${label}: A after the restart equals A before the kill`).toEqual(beforeA);

      // B: every acknowledged result survived, in a state reachable from it
      const afterB = await readAccount(B);
      checkAcknowledged(bTrack, afterB.orders, earlierB, label);
      for (const o of afterB.orders) earlierB.add(o.order_id);

      bookNotCrossed(await A.getOrderbook({ params: { ticker: M1!.ticker } }), `${label} M1`);
      bookNotCrossed(await A.getOrderbook({ params: { ticker: M2!.ticker } }), `${label} M2`);

      // money: positions = fills, cash = start - cost of fills + closed pairs (orders canceled first)
      await checkImplied(A, startA, `${label} A`);
      await checkImplied(B, startB, `${label} B`);

      const inFlight = [...bTrack.touching.values()].filter((n) => n > 0).length + bTrack.unansweredCreates;
      console.log(
        `${label}: B ${bTrack.acks} acknowledged (${bTrack.acks - base} after arming), ${inFlight} unanswered at the kill, ` +
          `${afterB.fills.length} fills so far; A ${aTrack.acks} acknowledged, ${afterA.fills.length} fills so far; all checks passed`,
      );
    }

    child.proc.kill('SIGTERM');
    expect(await child.exited).toBe(0);
  }, 600_000); // only a hang guard: four exchange starts, each slow on a busy machine (142 s for the file at load 28)
});
