// The `pyth_value` channel as the service's AsyncAPI 2.0.0 defines it
// (docs.kalshi.com/websockets/pyth-value): authenticated, scoped by Pyth symbols
// (`underlying_tickers`, `["all"]` for every one), sequenced, with `subscribe_underlyings`,
// `unsubscribe_underlyings` and `underlying_list`, error 28 when the symbols are missing.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestExchange, type TestExchange } from '../test-support/exchange/harness';
import { TestStream, type Frame } from '../test-support/exchange/ws-client';
import { IndexGenerator, PYTH_UNDERLYINGS, formatE8 } from '../src-exchange/ws/index-feed';
import { PythUnderlyingListFrame, PythValueFrame, WS_ERROR } from '../src-shared/wire/stream';

let t: TestExchange;
const open: TestStream[] = [];

async function connect(signed = true): Promise<TestStream> {
  const a = t.account('trader');
  const s = await TestStream.open(t.ex.wsUrl, signed ? { key: { keyId: a.api_key_id, privateKeyPem: a.private_key_pem } } : {});
  open.push(s);
  return s;
}

const underlying = (f: Frame): string => (f.raw.msg as { underlying_ticker: string }).underlying_ticker;
const pyth = (fs: readonly Frame[]): Frame[] => fs.filter((f) => f.msg.type === 'pyth_value');

beforeAll(async () => {
  t = await startTestExchange({ seed: 13 });
});
afterAll(async () => {
  for (const s of open) await s.close();
  await t?.close();
});
afterEach(() => {
  for (const s of open) expect(s.malformed).toEqual([]);
});

describe('pyth_value', () => {
  it('needs a signed connection (error 9)', async () => {
    const s = await connect(false);
    const r = await s.command('subscribe', { channels: ['pyth_value'], underlying_tickers: ['all'] });
    expect(r.raw.msg).toMatchObject({ code: WS_ERROR.AUTH_REQUIRED });
  });

  it('streams the named underlyings once a second, sequenced, 8 decimals, from the seeded generator', async () => {
    const s = await connect();
    await s.command('subscribe', { channels: ['pyth_value'], underlying_tickers: ['Metal.XAU/USD'] });
    const frames = await s.until((fs) => (pyth(fs).length >= 2 ? pyth(fs) : undefined), 20_000);
    const gen = new IndexGenerator(13);
    for (const f of frames) {
      expect(PythValueFrame.safeParse(f.raw).success).toBe(true);
      expect(underlying(f)).toBe('Metal.XAU/USD');
      const m = f.raw.msg as { value_usd: string; source_ts_ms: number };
      expect(m.value_usd).toBe(formatE8(gen.valueAt('Metal.XAU/USD', m.source_ts_ms / 200)));
    }
    const seqs = frames.map((f) => f.raw.seq as number);
    expect(seqs).toEqual(seqs.map((_, i) => seqs[0]! + i));
  });

  it('an empty subscription streams nothing until symbols are added; all-mode and removal as the service documents', async () => {
    const s = await connect();
    await s.command('subscribe', { channels: ['pyth_value'] });
    const list = await s.command('update_subscription', { sid: 1, action: 'underlying_list' });
    expect(PythUnderlyingListFrame.safeParse(list.raw).success).toBe(true);
    expect(list.raw).toMatchObject({ type: 'pyth_value_underlying_list', id: list.raw.id, sid: 1, msg: { underlying_tickers: [...PYTH_UNDERLYINGS] } });

    const add = await s.command('update_subscription', { sid: 1, action: 'subscribe_underlyings', underlying_tickers: ['Metal.XAG/USD', 'Not.A/FEED'] });
    expect(add.raw.msg).toEqual({ underlying_tickers: ['Metal.XAG/USD', 'Not.A/FEED'] });
    await s.until((fs) => pyth(fs).find((f) => underlying(f) === 'Metal.XAG/USD'), 20_000);
    expect(pyth(s.frames).every((f) => underlying(f) === 'Metal.XAG/USD')).toBe(true);

    await s.command('update_subscription', { sid: 1, action: 'subscribe_underlyings', underlying_tickers: ['all'] });
    // in all-mode, removing one symbol does not exclude it
    await s.command('update_subscription', { sid: 1, action: 'unsubscribe_underlyings', underlying_tickers: ['Metal.XAU/USD'] });
    let mark = s.frames.length;
    const every = await s.until((fs) => {
      const seen = new Set(pyth(fs.slice(mark)).map(underlying));
      return seen.size === PYTH_UNDERLYINGS.length ? seen : undefined;
    }, 20_000);
    expect(every.has('Metal.XAU/USD')).toBe(true);

    // leaving all-mode keeps the symbols named before
    const off = await s.command('update_subscription', { sid: 1, action: 'unsubscribe_underlyings', underlying_tickers: ['all'] });
    expect(off.raw.msg).toEqual({ underlying_tickers: ['Metal.XAG/USD', 'Not.A/FEED'] });
    mark = s.frames.length;
    await s.until((fs) => (pyth(fs.slice(mark)).length >= 3 ? true : undefined), 20_000);
    expect(new Set(pyth(s.frames.slice(mark + 1)).map(underlying))).toEqual(new Set(['Metal.XAG/USD']));
  });

  it('28: subscribe_underlyings or unsubscribe_underlyings without symbols; 13: an underlying action on another channel', async () => {
    const s = await connect();
    await s.command('subscribe', { channels: ['pyth_value', 'cfbenchmarks_value'] });
    expect((await s.command('update_subscription', { sid: 1, action: 'subscribe_underlyings' })).raw.msg).toMatchObject({ code: 28 });
    expect((await s.command('update_subscription', { sid: 1, action: 'unsubscribe_underlyings', underlying_tickers: [] })).raw.msg).toMatchObject({ code: 28 });
    expect((await s.command('update_subscription', { sid: 2, action: 'underlying_list' })).raw.msg).toMatchObject({ code: WS_ERROR.UNSUPPORTED_ACTION });
    expect((await s.command('update_subscription', { sid: 1, action: 'indexlist' })).raw.msg).toMatchObject({ code: WS_ERROR.UNSUPPORTED_ACTION });
  });
});
