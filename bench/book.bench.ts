// The client's L2 book, the market-data hot path:
// 1. raw frame text to an updated book (JSON.parse + schema check + apply), run first so the
//    ccxt run's garbage does not colour it;
// 2. pre-parsed deltas into the book, against ccxt's ws OrderBook sides on the same stream.
// Exit 0 when every target is met, 2 when one is missed.
import ccxt from 'ccxt';
import { figure, measure, median, report, scaled, type Sample } from './lib';
import { NO, OrderBook, YES, DELTA_APPLIED, type BookSide } from '../src-main/market/book';
import { BookMachine } from '../src-main/market/books';
import { FrameIngest } from '../src-main/market/frame';
import { ticksToDollars, centiToCount } from '../src-shared/money';
import { mulberry32 } from '../src-shared/random';

/** Ticks a side may use; with 30% of hits emptying a level, about 180 of them are non-empty. */
const TICKS_PER_SIDE = 234;
const DELTAS = scaled(1_000_000, 300_000);
const FRAMES = scaled(200_000, 50_000);
const TICKER = 'KXBTCD-25DEC3117-T99999.99';

/** seeded, so every run sees the same stream */
const rng = mulberry32;

const gc = (globalThis as { gc?: () => void }).gc;

// --- one delta stream, in the forms each consumer takes --------------------------------------
// YES bids and NO bids on ticks 4746..4979 (YES asks 5021..5254), about 180 levels a side,
// activity weighted towards the top of book, levels emptied and refilled as they go.
const rand = rng(20240611);
const sizes = [new Float64Array(10_001), new Float64Array(10_001)];
const snapYes: [number, number][] = [];
const snapNo: [number, number][] = [];
for (let j = 0; j < TICKS_PER_SIDE; j += j % 4 === 3 ? 2 : 1) {
  const t = 4979 - j;
  const y = (1 + Math.floor(rand() * 500)) * 100;
  const n = (1 + Math.floor(rand() * 500)) * 100;
  sizes[YES]![t] = y;
  sizes[NO]![t] = n;
  snapYes.push([t, y]);
  snapNo.push([t, n]);
}
const ccxtSnapshot = () => ({
  bids: snapYes.map(([t, c]) => [t / 10_000, c / 100]),
  asks: snapNo.map(([t, c]) => [(10_000 - t) / 10_000, c / 100]),
});

const dSide = new Uint8Array(DELTAS);
const dTick = new Int32Array(DELTAS);
const dCenti = new Float64Array(DELTAS);
const cPrice = new Float64Array(DELTAS); // ccxt: YES bid price, or YES ask price for a NO bid
const cSize = new Float64Array(DELTAS); // ccxt: the level's new absolute size (0 removes it)
for (let i = 0; i < DELTAS; i++) {
  const side = (rand() < 0.5 ? YES : NO) as BookSide;
  const r = rand();
  const t = 4979 - Math.floor(TICKS_PER_SIDE * r * r);
  const s = sizes[side]![t]!;
  let d: number;
  if (s === 0) d = (1 + Math.floor(rand() * 500)) * 100;
  else if (rand() < 0.3) d = -s;
  else d = Math.floor(rand() * (2 * s)) - s + 1; // leaves at least 1 centi
  sizes[side]![t] = s + d;
  dSide[i] = side;
  dTick[i] = t;
  dCenti[i] = d;
  cPrice[i] = side === YES ? t / 10_000 : (10_000 - t) / 10_000;
  cSize[i] = (s + d) / 100;
}

let ok = true;

// --- 1. raw frame text to book ----------------------------------------------------------------
const snapshotFrame = JSON.stringify({
  type: 'orderbook_snapshot',
  sid: 1,
  seq: 1,
  msg: {
    market_ticker: TICKER,
    yes_dollars_fp: snapYes.map(([t, c]) => [ticksToDollars(t), centiToCount(c)]),
    no_dollars_fp: snapNo.map(([t, c]) => [ticksToDollars(t), centiToCount(c)]),
  },
});
const frames: string[] = [];
const baseMs = Date.parse('2025-06-11T14:00:00.000Z');
for (let i = 0; i < FRAMES; i++) {
  frames.push(
    JSON.stringify({
      type: 'orderbook_delta',
      sid: 1,
      seq: i + 2,
      msg: {
        market_ticker: TICKER,
        price_dollars: ticksToDollars(dTick[i]!),
        delta_fp: centiToCount(dCenti[i]!),
        side: dSide[i] === YES ? 'yes' : 'no',
        ts: new Date(baseMs + i * 3).toISOString(),
      },
    }),
  );
}

let frameProblems = 0;
let ingest = new FrameIngest(new BookMachine());
function runFrames(): void {
  ingest = new FrameIngest(new BookMachine());
  if (ingest.ingest(snapshotFrame).actions.length !== 0) frameProblems++;
  for (let i = 0; i < FRAMES; i++) {
    if (ingest.ingest(frames[i]!).actions.length !== 0) frameProblems++;
  }
}
let parsedSink = 0;
function runJsonOnly(): void {
  for (let i = 0; i < FRAMES; i++) parsedSink += (JSON.parse(frames[i]!) as { seq: number }).seq;
}

gc?.();
const framesSample = measure('frame text -> parse -> validate -> book', FRAMES, runFrames);
gc?.();
const jsonSample: Sample = measure('JSON.parse alone (reference)', FRAMES, runJsonOnly);
// The frames must leave the book where the same deltas applied directly do.
const direct = new OrderBook(TICKER);
direct.applySnapshot(snapYes, snapNo);
for (let i = 0; i < FRAMES; i++) direct.applyDelta(dSide[i] as BookSide, dTick[i]!, dCenti[i]!);
const frameBook = ingest.machine.book(TICKER);
const framesAgree =
  frameProblems === 0 &&
  frameBook !== undefined &&
  !frameBook.stale &&
  String(frameBook.bids(YES)) === String(direct.bids(YES)) &&
  String(frameBook.bids(NO)) === String(direct.bids(NO));
console.log(`\nframe path: ${frameProblems} resyncs or malformed, book agrees with direct apply: ${framesAgree} (sink ${parsedSink > 0})`);
ok = framesAgree && ok;
ok = report('Raw frame text to updated book', [framesSample], { minOpsPerSec: 500_000 }) && ok;
figure('frames_to_book_per_s', median(framesSample.opsPerSec), 'frames/s');
report('JSON.parse alone against the whole frame path (no target)', [jsonSample, framesSample]);

// --- 2. pre-parsed deltas ---------------------------------------------------------------------
const ours = new OrderBook(TICKER);
let failures = 0;
function runOurs(): void {
  ours.applySnapshot(snapYes, snapNo);
  for (let i = 0; i < DELTAS; i++) {
    if (ours.applyDelta(dSide[i] as BookSide, dTick[i]!, dCenti[i]!) !== DELTA_APPLIED) failures++;
  }
}

const exchange = new ccxt.Exchange({});
const peer = exchange.orderBook();
function runCcxt(): void {
  peer.reset(ccxtSnapshot());
  const bids = peer.bids as unknown as { store(price: number, size: number): void };
  const asks = peer.asks as unknown as { store(price: number, size: number): void };
  for (let i = 0; i < DELTAS; i++) {
    if (dSide[i] === YES) bids.store(cPrice[i]!, cSize[i]!);
    else asks.store(cPrice[i]!, cSize[i]!);
  }
}

gc?.();
const oursDeltas = measure('OrderBook.applyDelta (typed arrays)', DELTAS, runOurs);
gc?.();
const ccxtDeltas = measure('ccxt ws OrderBook Bids/Asks.store', DELTAS, runCcxt, scaled(5, 3), 1);

// Both books must end where the stream says.
const ccxtTop = (peer.bids as unknown as [number, number][])[0];
const sane =
  failures === 0 &&
  ours.levelCount(YES) === (peer.bids as unknown as unknown[]).length &&
  ours.levelCount(NO) === (peer.asks as unknown as unknown[]).length &&
  ccxtTop !== undefined &&
  Math.round(ccxtTop[0] * 10_000) === ours.bestYesBid &&
  Math.round(ccxtTop[1] * 100) === ours.bidSize(YES, ours.bestYesBid);
console.log(`\nfinal books: ours ${ours.levelCount(YES)}/${ours.levelCount(NO)} levels, ccxt ${(peer.bids as unknown as unknown[]).length}/${(peer.asks as unknown as unknown[]).length}; agree: ${sane}`);

ok = sane && ok;
ok = report('Book apply, pre-parsed deltas (same stream, ~180 levels a side)', [oursDeltas, ccxtDeltas], { minOpsPerSec: 20_000_000, minRatio: 5 }) && ok;
figure('book_deltas_per_s', median(oursDeltas.opsPerSec), 'deltas/s');
figure('book_vs_ccxt', median(oursDeltas.opsPerSec) / median(ccxtDeltas.opsPerSec), 'x', median(ccxtDeltas.opsPerSec), median(oursDeltas.opsPerSec) / median(ccxtDeltas.opsPerSec));

console.log(`\n${ok ? 'all targets met' : 'some targets MISSED'}`);
process.exit(ok ? 0 : 2);
