// The `pyth_value` channel of the service's AsyncAPI 2.0.0 (docs.kalshi.com/websockets/pyth-value):
// its two message kinds read as themselves (the document's own examples), its commands parse,
// and a kind the service adds later still reads as `unknown`, never as malformed.
import { describe, expect, it } from 'vitest';
import { CHANNELS, WS_ERROR, parseCommand, parseStreamValue, readStreamValue } from './stream';

// The AsyncAPI document's examples, as published.
const PYTH_VALUE = {
  type: 'pyth_value',
  sending_ts_ms: 1669149841234,
  sid: 1,
  seq: 42,
  msg: { underlying_ticker: 'Commodities.Index.PYTHOIL/USD', value_usd: '82.12345000', source_ts_ms: 1710000000100, received_at: 1710000000123 },
};
const UNDERLYING_LIST = {
  type: 'pyth_value_underlying_list',
  sending_ts_ms: 1669149841234,
  id: 2,
  sid: 1,
  seq: 1,
  msg: { underlying_tickers: ['Commodities.Index.NATGAS/USD', 'Commodities.Index.PYTHOIL/USD', 'Metal.XAG/USD', 'Metal.XAU/USD'] },
};

describe('pyth_value frames', () => {
  it('reads both kinds of the AsyncAPI examples as themselves, and the exact check passes them', () => {
    for (const frame of [PYTH_VALUE, UNDERLYING_LIST]) {
      const r = readStreamValue(frame);
      expect(r.ok && r.msg.type).toBe(frame.type);
      expect(parseStreamValue(frame)).toMatchObject({ ok: true });
    }
    const r = readStreamValue(PYTH_VALUE);
    if (!r.ok || r.msg.type !== 'pyth_value') throw new Error('not read');
    expect(r.msg.msg.value_usd).toBe('82.12345000');
    expect(r.msg.seq).toBe(42);
  });

  it('refuses a value that is not an exact 8-decimal string, and a frame without seq (the document requires it)', () => {
    expect(readStreamValue({ ...PYTH_VALUE, msg: { ...PYTH_VALUE.msg, value_usd: 82.12345 } }).ok).toBe(false);
    expect(readStreamValue({ ...PYTH_VALUE, msg: { ...PYTH_VALUE.msg, value_usd: '82.12' } }).ok).toBe(false);
    const { seq: _seq, ...noSeq } = PYTH_VALUE;
    expect(readStreamValue(noSeq).ok).toBe(false);
  });

  it('reads a kind the service adds later as unknown with its sid and seq, never as malformed', () => {
    for (const type of ['pyth_value_v2', 'chainlink_value', 'pyth_value_underlying_list_v2']) {
      const r = readStreamValue({ ...PYTH_VALUE, type });
      expect(r.ok).toBe(true);
      if (r.ok) expect(r.msg).toMatchObject({ type: 'unknown', unknownType: type, sid: 1, seq: 42 });
    }
  });

  it('the channel is private and scoped by underlying tickers', () => {
    expect(CHANNELS.pyth_value).toMatchObject({ private: true, scope: 'underlyings' });
  });
});

describe('pyth_value commands', () => {
  it('parses the documented subscribe and its three update actions', () => {
    const sub = parseCommand(
      JSON.stringify({ id: 1, cmd: 'subscribe', params: { channels: ['pyth_value'], underlying_tickers: ['Metal.XAU/USD', 'Commodities.Index.PYTHOIL/USD'] } }),
    );
    expect(sub).toEqual({
      ok: true,
      cmd: { id: 1, cmd: 'subscribe', params: { channels: ['pyth_value'], underlying_tickers: ['Metal.XAU/USD', 'Commodities.Index.PYTHOIL/USD'] } },
    });
    const list = parseCommand(JSON.stringify({ id: 2, cmd: 'update_subscription', params: { sid: 1, action: 'underlying_list' } }));
    expect(list).toEqual({ ok: true, cmd: { id: 2, cmd: 'update_subscription', params: { sid: 1, action: 'underlying_list' } } });
    const add = parseCommand(JSON.stringify({ id: 3, cmd: 'update_subscription', params: { sid: 1, action: 'subscribe_underlyings', underlying_tickers: ['all'] } }));
    expect(add).toMatchObject({ ok: true, cmd: { params: { action: 'subscribe_underlyings', underlying_tickers: ['all'] } } });
  });

  it('answers 28 for subscribe_underlyings / unsubscribe_underlyings without symbols, 9 on an unsigned connection', () => {
    for (const action of ['subscribe_underlyings', 'unsubscribe_underlyings']) {
      expect(parseCommand(JSON.stringify({ id: 4, cmd: 'update_subscription', params: { sid: 1, action } }))).toMatchObject({
        ok: false,
        code: WS_ERROR.UNDERLYING_TICKERS_REQUIRED,
        msg: 'Underlying tickers required',
      });
    }
    expect(parseCommand(JSON.stringify({ id: 5, cmd: 'subscribe', params: { channels: ['pyth_value'] } }), { authenticated: false })).toMatchObject({
      ok: false,
      code: WS_ERROR.AUTH_REQUIRED,
    });
    expect(parseCommand(JSON.stringify({ id: 6, cmd: 'subscribe', params: { channels: ['pyth_value'], underlying_tickers: 'Metal.XAU/USD' } }))).toMatchObject({
      ok: false,
      code: WS_ERROR.INVALID_PARAMETER,
    });
  });
});
