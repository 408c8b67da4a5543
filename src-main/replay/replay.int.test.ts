// A recording replayed into the embedded exchange through main's door, against the real exchange
// (a child process with the lively simulation): record a few markets, stop, Replay: the replay is
// loaded (the exchange's books are the recording's), plays to the end as fast as possible, a bad
// control is refused by the door and changes nothing, and stopping it leaves no replay.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RecordingsView, ReplayView } from '../../src-shared/ipc/contract';
import type { BookPush } from '../../src-shared/ipc/book-stream';
import { startSimTerminal, type SimTerminal } from '../../test-support/main/sim-terminal';
import { until } from '../../test-support/main/wait';

let sim: SimTerminal;
const value = <T,>(method: string, ...args: unknown[]) => sim.value<T>(method, ...args);

beforeAll(async () => {
  sim = await startSimTerminal('replay-int-', 9);
}, 60_000);

afterAll(async () => {
  await sim?.stop();
});

it('replays a recording into the embedded exchange and answers the bar', async () => {
  expect(await value<ReplayView>('getReplay')).toEqual({ active: false });
  const r = await value<{ markets: { ticker: string }[] }>('request', { id: 'getMarkets', query: { status: 'open', limit: 5 } });
  const tickers = r.markets.map((m) => m.ticker).slice(0, 3);
  const started = await value<RecordingsView>('startRecording', { name: 'replay', markets: tickers });
  const id = started.recordings[0]!.id;
  await until('deltas recorded', async () => ((await value<RecordingsView>('getRecordings')).recordings.find((x) => x.id === id)?.deltas ?? 0) > 30, 60_000);
  await value('stopRecording');

  const loaded = await value<ReplayView>('startReplay', { id, speed: 'max' });
  expect(loaded).toMatchObject({ active: true, recordingId: id, playing: false, done: false });
  if (!loaded.active) throw new Error('not loaded');
  expect(loaded.rows).toBeGreaterThan(30);
  expect(loaded.skippedMarkets).toEqual([]);

  const bad = await sim.call('replayControl', { action: 'seek', tsMs: 'soon' });
  expect(bad.ok).toBe(false);
  expect(await value<ReplayView>('getReplay')).toMatchObject({ active: true, row: loaded.row, playing: false });

  await value('replayControl', { action: 'play' });
  await until('the replay played to its end', async () => {
    const v = await value<ReplayView>('getReplay');
    return v.active && v.done && !v.playing;
  }, 60_000);
  // the recorded book is what the terminal reads of the exchange
  const book = await value<{ orderbook_fp: { yes_dollars: unknown[]; no_dollars: unknown[] } }>('request', { id: 'getOrderbook', params: { ticker: tickers[0] } });
  expect(book.orderbook_fp.yes_dollars.length + book.orderbook_fp.no_dollars.length).toBeGreaterThan(0);

  // the trader's orders meet the recording in the replay's own account (a subaccount), never the live one
  expect(loaded.subaccount).toBeGreaterThan(0);
  const market = tickers[0]!;
  const positionIn = async (subaccount: number) =>
    (await value<{ market_positions: { position_fp: string }[] }>('request', { id: 'getPositions', query: { ticker: market, subaccount } })).market_positions[0]?.position_fp ?? '0.00';
  const live = await positionIn(0);
  await value('watchMarkets', [market]);
  const ask = (await value<{ market: { yes_ask_dollars?: string } }>('request', { id: 'getMarket', params: { ticker: market } })).market.yes_ask_dollars;
  if (!ask || Number(ask) <= 0 || Number(ask) >= 1) throw new Error(`no offer in ${market} to buy from`);
  await until('a buy at the replayed offer went out (once the book is live)', async () => {
    const r = await sim.call('placeOrder', { ticker: market, side: 'bid', price: ask, count: '1', time_in_force: 'immediate_or_cancel', confirmed: true, origin: 'ladder' });
    if (!r.ok && r.error.code !== 'no_book') throw new Error(r.error.message);
    return r.ok;
  });
  await until('the fill in the replay account', async () => (await positionIn(loaded.subaccount!)) === '1.00');
  expect(await positionIn(0)).toBe(live);

  // seek back to the start: the books are rebuilt there
  await value('replayControl', { action: 'seek', tsMs: loaded.firstMs });
  expect(await value<ReplayView>('getReplay')).toMatchObject({ active: true, done: false });

  expect(await value<ReplayView>('stopReplay')).toEqual({ active: false });
  expect(await value<ReplayView>('getReplay')).toEqual({ active: false });
}, 180_000);

// A short recording of a market that did not move holds its opening book alone: every row had one
// time, so the replay loaded already at its end ("N / N events · end", Play off), which a spec
// clicking Play read as a page cut off from its host. It now ends with the book at its stop.
it('a recording of a market that did not move replays from its start to its stop', async () => {
  const r = await value<{ markets: { ticker: string }[] }>('request', { id: 'getMarkets', query: { status: 'open', limit: 5 } });
  const [first, market] = [r.markets[0]!.ticker, r.markets[4]!.ticker];
  await value('watchMarkets', [market]);
  await until('main holds its book', async () => {
    const [b] = await value<BookPush[]>('bookSnapshots', [market]);
    return b?.stale === false && (b.yesBids?.length ?? 0) + (b.yesAsks?.length ?? 0) > 0;
  }, 30_000);
  // a loaded replay pauses the exchange's simulation: the market (not replayed) does not move while it is recorded
  const other = (await value<RecordingsView>('startRecording', { name: 'other', markets: [first] })).recordings[0]!.id;
  await until('its book recorded', async () => ((await value<RecordingsView>('getRecordings')).recordings.find((x) => x.id === other)?.rows ?? 0) > 0, 30_000);
  await value('stopRecording');
  expect(await value<ReplayView>('startReplay', { id: other })).toMatchObject({ active: true });
  const id = (await value<RecordingsView>('startRecording', { name: 'still', markets: [market] })).recordings[0]!.id;
  await until('its book recorded', async () => ((await value<RecordingsView>('getRecordings')).recordings.find((x) => x.id === id)?.rows ?? 0) > 0, 30_000);
  await value('stopRecording');

  const loaded = await value<ReplayView>('startReplay', { id, speed: 10 });
  if (!loaded.active) throw new Error('not loaded');
  expect(loaded).toMatchObject({ recordingId: id, playing: false, done: false, skippedMarkets: [] });
  expect(loaded.row).toBeLessThan(loaded.rows);
  expect(loaded.lastMs).toBeGreaterThan(loaded.firstMs);
  await value('replayControl', { action: 'play' });
  await until('the replay played to its end', async () => {
    const v = await value<ReplayView>('getReplay');
    return v.active && v.done && !v.playing && v.row === v.rows;
  }, 60_000);
  expect(await value<ReplayView>('stopReplay')).toEqual({ active: false });
}, 120_000);
