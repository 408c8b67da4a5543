// Index feeds (cfbenchmarks_value, cfbenchmarks_value_5hz), keep-alive pings, and shutdown.
// This file lowers the ping interval before its exchange starts; the node project's setup file
// (test-support/reset-stream-settings.ts) puts it back after the file, as the files share a
// worker's modules (a 150-ms ping left behind once cut off ws-book's paused client mid-test).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestExchange, type TestExchange } from '../test-support/exchange/harness';
import { TestStream } from '../test-support/exchange/ws-client';
import { streamSettings } from '../src-exchange/ws/settings';
import { IndexGenerator, formatE8 } from '../src-exchange/ws/index-feed';
import { CfBenchmarks5hzIndexListFrame, CfBenchmarksIndexListFrame, CfBenchmarksValue5hzFrame, CfBenchmarksValueFrame } from '../src-shared/wire/stream';

let t: TestExchange;
const open: TestStream[] = [];
const PING_MS = 150;

async function connect(opts: { autoPong?: boolean } = {}): Promise<TestStream> {
  const s = await TestStream.open(t.ex.wsUrl, opts);
  open.push(s);
  return s;
}

beforeAll(async () => {
  streamSettings.pingIntervalMs = PING_MS;
  t = await startTestExchange({ seed: 11 });
});
afterAll(async () => {
  for (const s of open) await s.close();
  await t?.close();
});
afterEach(() => {
  for (const s of open) expect(s.malformed).toEqual([]);
});

describe('index channels', () => {
  it('cfbenchmarks_value_5hz sends about five values a second with exactly 8 decimals, from the seeded generator', async () => {
    const s = await connect();
    await s.command('subscribe', { channels: ['cfbenchmarks_value_5hz'], index_ids: ['BRTI'] });
    const frames = await s.until((fs) => {
      const got = fs.filter((f) => f.msg.type === 'cfbenchmarks_value_5hz');
      return got.length >= 6 ? got : undefined;
    }, 5_000);
    const gen = new IndexGenerator(11);
    for (const f of frames) {
      expect(CfBenchmarksValue5hzFrame.safeParse(f.raw).success).toBe(true);
      const m = f.raw.msg as { index_id: string; value_usd: string; source_ts_ms: number; received_at: number };
      expect(m.index_id).toBe('BRTI');
      expect(m.value_usd).toMatch(/^\d+\.\d{8}$/);
      expect(m.source_ts_ms % 200).toBe(0);
      expect(m.value_usd).toBe(formatE8(gen.valueAt('BRTI', m.source_ts_ms / 200)));
    }
    const span = (frames.at(-1)!.raw.msg as { source_ts_ms: number }).source_ts_ms - (frames[0]!.raw.msg as { source_ts_ms: number }).source_ts_ms;
    expect(span).toBeLessThanOrEqual(200 * (frames.length - 1) + 400);
    expect(span).toBeGreaterThanOrEqual(200 * (frames.length - 1));
  });

  it('cfbenchmarks_value sends once a second with the raw frame and the 60 s average; every index by default', async () => {
    const s = await connect();
    await s.command('subscribe', { channels: ['cfbenchmarks_value'] });
    const frames = await s.until((fs) => {
      const got = fs.filter((f) => f.msg.type === 'cfbenchmarks_value');
      return got.length >= 2 ? got : undefined;
    }, 4_000);
    expect(new Set(frames.map((f) => (f.raw.msg as { index_id: string }).index_id))).toEqual(new Set(['BRTI', 'ETHUSD_RTI']));
    for (const f of frames) {
      expect(CfBenchmarksValueFrame.safeParse(f.raw).success).toBe(true);
      const m = f.raw.msg as { data: string; avg_60s_data: { value: string; window_size: number } };
      expect(m.avg_60s_data.value).toMatch(/^\d+\.\d{8}$/);
      expect(m.avg_60s_data.window_size).toBe(300);
      expect(JSON.parse(m.data)).toMatchObject({ type: 'value', value: expect.stringMatching(/^\d+\.\d{8}$/) });
    }
  });

  it('indexlist answers with the command id; subscribe_indices and unsubscribe_indices change what arrives', async () => {
    const s = await connect();
    await s.command('subscribe', { channels: ['cfbenchmarks_value_5hz'], index_ids: ['BRTI'] });
    const list = await s.command('update_subscription', { sid: 1, action: 'indexlist' });
    expect(CfBenchmarks5hzIndexListFrame.safeParse(list.raw).success).toBe(true);
    expect(list.raw).toEqual({ type: 'cfbenchmarks_value_5hz_indexlist', id: list.raw.id, sid: 1, msg: { index_ids: ['BRTI', 'ETHUSD_RTI'] } });

    const add = await s.command('update_subscription', { sid: 1, action: 'subscribe_indices', index_ids: ['ETHUSD_RTI'] });
    expect(add.raw).toEqual({ id: add.raw.id, sid: 1, type: 'ok', msg: { index_ids: ['BRTI', 'ETHUSD_RTI'] } });
    await s.until((fs) => fs.find((f) => f.msg.type === 'cfbenchmarks_value_5hz' && (f.raw.msg as { index_id: string }).index_id === 'ETHUSD_RTI'));
    const del = await s.command('update_subscription', { sid: 1, action: 'unsubscribe_indices', index_ids: ['BRTI'] });
    expect(del.raw.msg).toEqual({ index_ids: ['ETHUSD_RTI'] });
    const mark = s.frames.length;
    await s.until((fs) => fs.slice(mark).filter((f) => f.msg.type === 'cfbenchmarks_value_5hz').length >= 3);
    expect(s.frames.slice(mark).filter((f) => f.msg.type === 'cfbenchmarks_value_5hz').every((f) => (f.raw.msg as { index_id: string }).index_id === 'ETHUSD_RTI')).toBe(true);

    const other = await connect();
    await other.command('subscribe', { channels: ['cfbenchmarks_value'], index_ids: ['all'] });
    const l2 = await other.command('update_subscription', { sid: 1, action: 'indexlist' });
    expect(CfBenchmarksIndexListFrame.safeParse(l2.raw).success).toBe(true);
    expect(l2.raw.type).toBe('cfbenchmarks_value_indexlist');
    // index actions do not fit market channels, market actions do not fit index channels
    await other.command('subscribe', { channels: ['ticker'] });
    expect((await other.command('update_subscription', { sid: 2, action: 'indexlist' })).raw.msg).toMatchObject({ code: 13 });
    expect((await other.command('update_subscription', { sid: 1, action: 'add_markets', market_ticker: 'X' })).raw.msg).toMatchObject({ code: 13 });
  });

  it('stops sending after unsubscribe', async () => {
    const s = await connect();
    await s.command('subscribe', { channels: ['cfbenchmarks_value_5hz'] });
    await s.until((fs) => fs.find((f) => f.msg.type === 'cfbenchmarks_value_5hz'));
    await s.command('unsubscribe', { sids: [1] });
    const mark = s.frames.length;
    await new Promise((r) => setTimeout(r, 500));
    expect(s.frames.slice(mark).filter((f) => f.msg.type === 'cfbenchmarks_value_5hz')).toEqual([]);
  });
});

describe('keep-alive', () => {
  it('pings every interval, and a client that answers stays connected', async () => {
    const s = await connect();
    await s.until(() => s.pings >= 3 || undefined, 3_000, 'three pings');
    expect(s.closed).toBeNull();
    expect((await s.command('list_subscriptions')).msg.type).toBe('ok');
  });

  it('closes a connection that stops answering pings', async () => {
    const s = await connect({ autoPong: false });
    await s.until(() => s.closed ?? undefined, 3_000, 'the server to close a silent client');
    expect(s.pings).toBeGreaterThanOrEqual(1);
  });
});

describe('shutdown', () => {
  it('close() closes every socket cleanly (1001 going away)', async () => {
    const local = await startTestExchange();
    const a = await TestStream.open(local.ex.wsUrl);
    const b = await TestStream.open(local.ex.wsUrl);
    await a.command('subscribe', { channels: ['cfbenchmarks_value_5hz'] });
    await local.close();
    for (const s of [a, b]) {
      await s.until(() => s.closed ?? undefined, 3_000, 'close');
      expect(s.closed).toEqual({ code: 1001, reason: 'exchange shutting down' });
      expect(s.malformed).toEqual([]);
    }
  });
});
