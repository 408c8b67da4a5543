import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  OrderbookDeltaFrame,
  isOrderbookDeltaFrame,
  CHANNELS,
  CHANNEL_NAMES,
  MESSAGE_TYPES,
  StreamCommand,
  WS_ERROR,
  channelSupportsAction,
  errorReply,
  parseCommand,
  parseStreamFrame,
  type ParsedCommand,
} from './stream';

const W = { value: '97123.45678901', window_size: 60, window_start_ts_ms: 1_700_000_000_000, window_end_ts_exclusive: 1_700_000_060_000 };

/** One valid frame of every type the server sends, and a way to break it. */
const cases: Record<string, { good: object; bad: object }> = {
  subscribed: {
    good: { id: 1, type: 'subscribed', msg: { channel: 'orderbook_delta', sid: 1 } },
    bad: { id: 1, type: 'subscribed', msg: { channel: 'orderbook_delta', sid: 'one' } },
  },
  unsubscribed: { good: { id: 2, sid: 1, seq: 7, type: 'unsubscribed' }, bad: { id: 2, type: 'unsubscribed' } },
  ok: {
    good: { id: 4, sid: 1, seq: 8, type: 'ok', msg: { market_tickers: ['T1', 'T2'] } },
    bad: { id: 4, sid: 1, seq: 8, type: 'ok', msg: { market_tickers: 'T1' } },
  },
  error: { good: { id: 5, type: 'error', msg: { code: 8, msg: 'Unknown channel name' } }, bad: { id: 5, type: 'error', msg: { msg: 'x' } } },
  orderbook_snapshot: {
    good: {
      type: 'orderbook_snapshot',
      sid: 1,
      seq: 1,
      msg: { market_ticker: 'T1', yes_dollars_fp: [['0.5300', '10.00']], no_dollars_fp: [['0.4000', '3.50']] },
    },
    bad: { type: 'orderbook_snapshot', sid: 1, seq: 1, msg: { market_ticker: 'T1', yes_dollars_fp: [['0.53', 10]], no_dollars_fp: [] } },
  },
  orderbook_delta: {
    good: {
      type: 'orderbook_delta',
      sid: 1,
      seq: 2,
      msg: { market_ticker: 'T1', price_dollars: '0.5300', delta_fp: '-2.00', side: 'yes', ts: '2025-01-01T00:00:00.123Z', client_order_id: 'c1' },
    },
    bad: { type: 'orderbook_delta', sid: 1, seq: 2, msg: { market_ticker: 'T1', price_dollars: '0.5300', delta_fp: '-2.00', side: 'bid', ts: '2025-01-01T00:00:00Z' } },
  },
  ticker: {
    good: {
      type: 'ticker',
      sid: 2,
      msg: {
        market_ticker: 'T1',
        price_dollars: '0.5300',
        yes_bid_dollars: '0.5200',
        yes_ask_dollars: '0.5400',
        volume_fp: '1000.00',
        open_interest_fp: '500.00',
        ts: 1_700_000_000,
      },
    },
    bad: {
      type: 'ticker',
      sid: 2,
      msg: { market_ticker: 'T1', price_dollars: '0.53', yes_bid_dollars: '0.52', yes_ask_dollars: '0.54', volume_fp: '1', open_interest_fp: '1', ts: '2025-01-01T00:00:00Z' },
    },
  },
  trade: {
    good: {
      type: 'trade',
      sid: 3,
      msg: { trade_id: 'tr1', market_ticker: 'T1', yes_price_dollars: '0.5300', no_price_dollars: '0.4700', count_fp: '5.00', taker_side: 'yes', ts: 1_700_000_000 },
    },
    bad: { type: 'trade', sid: 3, msg: { trade_id: 'tr1', market_ticker: 'T1', yes_price_dollars: 0.53, no_price_dollars: '0.47', count_fp: '5', taker_side: 'yes', ts: 1 } },
  },
  market_lifecycle_v2: {
    good: { type: 'market_lifecycle_v2', sid: 4, msg: { event_type: 'determined', market_ticker: 'T1', result: 'yes', determination_ts: 1_700_000_000 } },
    bad: { type: 'market_lifecycle_v2', sid: 4, msg: { event_type: 'settled', market_ticker: 'T1', settled_ts: 1_700_000_000 } },
  },
  multivariate_market_lifecycle: {
    good: { type: 'multivariate_market_lifecycle', sid: 5, msg: { event_type: 'deactivated', market_ticker: 'MV1', is_deactivated: true } },
    bad: { type: 'multivariate_market_lifecycle', sid: 5, msg: { event_type: 'exploded', market_ticker: 'MV1' } },
  },
  event_lifecycle: {
    good: { type: 'event_lifecycle', sid: 4, msg: { event_ticker: 'E1', title: 'Event' } },
    bad: { type: 'event_lifecycle', sid: 4, msg: { title: 'no ticker' } },
  },
  event_fee_update: {
    good: { type: 'event_fee_update', sid: 4, msg: { event_ticker: 'E1', fee_type_override: null, fee_multiplier_override: null } },
    bad: { type: 'event_fee_update', sid: 4, msg: { event_ticker: 'E1', fee_type_override: 'quadratic' } },
  },
  fill: {
    good: {
      type: 'fill',
      sid: 6,
      msg: {
        trade_id: 'tr1',
        order_id: 'o1',
        market_ticker: 'T1',
        is_taker: true,
        side: 'yes',
        action: 'buy',
        yes_price_dollars: '0.5300',
        count_fp: '2.00',
        post_position_fp: '2.00',
        fee_cost: '0.020000',
        ts: 1_700_000_000,
        client_order_id: 'c1',
        subaccount: 0,
      },
    },
    bad: {
      type: 'fill',
      sid: 6,
      msg: { trade_id: 'tr1', order_id: 'o1', market_ticker: 'T1', is_taker: 'yes', side: 'yes', action: 'buy', yes_price_dollars: '0.53', count_fp: '2', post_position_fp: '2', fee_cost: '0.02', ts: 1 },
    },
  },
  user_order: {
    good: {
      type: 'user_order',
      sid: 7,
      msg: {
        order_id: 'o1',
        client_order_id: 'c1',
        ticker: 'T1',
        status: 'resting',
        side: 'bid',
        yes_price_dollars: '0.5300',
        initial_count_fp: '10.00',
        fill_count_fp: '2.00',
        remaining_count_fp: '8.00',
        taker_fill_cost_dollars: '1.060000',
        maker_fill_cost_dollars: '0.000000',
        taker_fees_dollars: '0.020000',
        maker_fees_dollars: '0.000000',
      },
    },
    bad: {
      type: 'user_order',
      sid: 7,
      msg: {
        order_id: 'o1',
        status: 'resting',
        side: 'bid',
        yes_price_dollars: '0.5300',
        initial_count_fp: '10.00',
        fill_count_fp: '2.00',
        remaining_count_fp: '8.00',
        taker_fill_cost_dollars: '1.06',
        maker_fill_cost_dollars: '0',
        taker_fees_dollars: '0.02',
        maker_fees_dollars: '0',
      },
    },
  },
  market_position: {
    good: {
      type: 'market_position',
      sid: 8,
      msg: {
        market_ticker: 'T1',
        position_fp: '-5.00',
        position_cost_dollars: '2.650000',
        realized_pnl_dollars: '-0.100000',
        fees_paid_dollars: '0.040000',
        volume_fp: '12.00',
      },
    },
    bad: { type: 'market_position', sid: 8, msg: { market_ticker: 'T1', position_fp: '-5.00', position_cost_dollars: '2.65', realized_pnl_dollars: '0', volume_fp: '1' } },
  },
  order_group_updates: {
    good: { type: 'order_group_updates', sid: 9, seq: 1, msg: { order_group_id: 'g1', event_type: 'triggered', contracts_limit: 100, contracts_used: 100 } },
    bad: { type: 'order_group_updates', sid: 9, msg: { order_group_id: 'g1', event_type: 'triggered' } },
  },
  rfq_created: {
    good: { type: 'rfq_created', sid: 10, msg: { rfq_id: 'r1', market_ticker: 'T1', contracts_fp: '100.00', target_cost_dollars: '50.00', created_ts: '2025-01-01T00:00:00Z' } },
    bad: { type: 'rfq_created', sid: 10, msg: { rfq_id: 'r1', market_ticker: 'T1', created_ts: 1_700_000_000 } },
  },
  rfq_deleted: {
    good: { type: 'rfq_deleted', sid: 10, msg: { id: 'r1', deleted_ts: '2025-01-01T00:00:00+02:00' } },
    bad: { type: 'rfq_deleted', sid: 10, msg: { deleted_ts: '2025-01-01T00:00:00Z' } },
  },
  quote_created: {
    good: { type: 'quote_created', sid: 10, msg: { quote_id: 'q1', rfq_id: 'r1', yes_bid_dollars: '0.5000', no_bid_dollars: '0.4000' } },
    bad: { type: 'quote_created', sid: 10, msg: { rfq_id: 'r1' } },
  },
  quote_accepted: {
    good: { type: 'quote_accepted', sid: 10, msg: { quote_id: 'q1', rfq_id: 'r1', accepted_side: 'yes' } },
    bad: { type: 'quote_accepted', sid: 10, msg: { quote_id: 'q1', rfq_id: 'r1', accepted_side: 'maybe' } },
  },
  quote_executed: {
    good: { type: 'quote_executed', sid: 10, msg: { quote_id: 'q1', rfq_id: 'r1', order_id: 'o9' } },
    bad: { type: 'quote_executed', sid: 10, msg: { quote_id: 'q1' } },
  },
  cfbenchmarks_value: {
    good: { type: 'cfbenchmarks_value', sid: 11, msg: { index_id: 'BRTI', received_at: 1_700_000_000_500, data: '{"type":"value"}', avg_60s_data: W, last_60s_windowed_average_15min: W } },
    bad: { type: 'cfbenchmarks_value', sid: 11, msg: { index_id: 'BRTI', data: '{}' } },
  },
  cfbenchmarks_value_5hz: {
    good: { type: 'cfbenchmarks_value_5hz', sid: 12, seq: 42, msg: { index_id: 'BRTI', value_usd: '68000.12000000', source_ts_ms: 1_710_000_000_323, received_at: 1_710_000_000_341 } },
    bad: { type: 'cfbenchmarks_value_5hz', sid: 12, msg: { index_id: 'BRTI', value_usd: '68000.12', source_ts_ms: 1, received_at: 1 } },
  },
  cfbenchmarks_value_indexlist: {
    good: { type: 'cfbenchmarks_value_indexlist', id: 2, sid: 11, msg: { index_ids: ['BRTI', 'ETHUSD_RTI'] } },
    bad: { type: 'cfbenchmarks_value_indexlist', id: 2, sid: 11, msg: { ids: ['BRTI'] } },
  },
  cfbenchmarks_value_5hz_indexlist: {
    good: { type: 'cfbenchmarks_value_5hz_indexlist', sid: 12, msg: { index_ids: [] } },
    bad: { type: 'cfbenchmarks_value_5hz_indexlist', sid: 12, msg: { index_ids: [1] } },
  },
  pyth_value: {
    good: { type: 'pyth_value', sid: 13, seq: 7, msg: { underlying_ticker: 'Metal.XAU/USD', value_usd: '2650.12345678', source_ts_ms: 1_710_000_000_100, received_at: 1_710_000_000_123 } },
    bad: { type: 'pyth_value', sid: 13, seq: 7, msg: { underlying_ticker: 'Metal.XAU/USD', value_usd: '2650.12', source_ts_ms: 1, received_at: 1 } },
  },
  pyth_value_underlying_list: {
    good: { type: 'pyth_value_underlying_list', id: 2, sid: 13, seq: 1, msg: { underlying_tickers: ['Metal.XAU/USD'] } },
    bad: { type: 'pyth_value_underlying_list', id: 2, sid: 13, seq: 1, msg: { underlyings: ['Metal.XAU/USD'] } },
  },
};

describe('stream frames', () => {
  it('has a case for every message and reply type', () => {
    expect(Object.keys(cases).sort()).toEqual([...Object.keys(MESSAGE_TYPES), 'subscribed', 'unsubscribed', 'ok', 'error'].sort());
  });

  for (const [type, { good, bad }] of Object.entries(cases)) {
    it(`accepts a good ${type} frame and rejects a bad one`, () => {
      const ok = parseStreamFrame(JSON.stringify(good));
      expect(ok.ok ? ok.msg.type : ok.reason).toBe(type);
      const no = parseStreamFrame(JSON.stringify(bad));
      expect(no.ok).toBe(false);
      if (!no.ok) expect(no.reason).toContain(type);
    });
  }

  it('rejects an orderbook snapshot missing a side', () => {
    for (const missing of ['yes_dollars_fp', 'no_dollars_fp']) {
      const msg: Record<string, unknown> = { market_ticker: 'T1', yes_dollars_fp: [['0.5', '1']], no_dollars_fp: [['0.4', '1']] };
      delete msg[missing];
      const r = parseStreamFrame(JSON.stringify({ type: 'orderbook_snapshot', sid: 1, seq: 1, msg }));
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.reason).toContain(missing);
    }
  });

  it('accepts empty sides on a snapshot (an empty book)', () => {
    const r = parseStreamFrame(JSON.stringify({ type: 'orderbook_snapshot', sid: 1, seq: 1, msg: { market_ticker: 'T1', yes_dollars_fp: [], no_dollars_fp: [] } }));
    expect(r.ok).toBe(true);
  });

  it('requires seq on orderbook messages', () => {
    const { seq: _seq, ...noSeq } = cases.orderbook_delta!.good as { seq: number };
    expect(parseStreamFrame(JSON.stringify(noSeq)).ok).toBe(false);
  });

  it('rejects prices off the 0.0001 tick or outside 0..1, and counts finer than 0.01', () => {
    const delta = (price: string, delta_fp: string) =>
      parseStreamFrame(JSON.stringify({ type: 'orderbook_delta', sid: 1, seq: 1, msg: { market_ticker: 'T', price_dollars: price, delta_fp, side: 'no', ts: '2025-01-01T00:00:00Z' } })).ok;
    expect(delta('0.53', '1')).toBe(true);
    expect(delta('0.530000', '-1.5000')).toBe(true);
    expect(delta('1.0000', '1')).toBe(true);
    expect(delta('0.53001', '1')).toBe(false);
    expect(delta('1.5', '1')).toBe(false);
    expect(delta('-0.5', '1')).toBe(false);
    expect(delta('.5', '1')).toBe(false);
    expect(delta('0.5', '1.001')).toBe(false);
    expect(delta('0.5', '1e3')).toBe(false);
  });

  it('reads the ok reply to list_subscriptions', () => {
    const r = parseStreamFrame(JSON.stringify({ id: 3, type: 'ok', msg: [{ channel: 'ticker', sid: 2 }] }));
    expect(r.ok).toBe(true);
  });

  it('reads an index list with and without the command id', () => {
    const solicited = parseStreamFrame(JSON.stringify(cases.cfbenchmarks_value_indexlist!.good));
    expect(solicited.ok && solicited.msg.type === 'cfbenchmarks_value_indexlist' && solicited.msg.id).toBe(2);
    const unsolicited = parseStreamFrame(JSON.stringify(cases.cfbenchmarks_value_5hz_indexlist!.good));
    expect(unsolicited.ok && unsolicited.msg.type === 'cfbenchmarks_value_5hz_indexlist' && unsolicited.msg.id).toBeUndefined();
  });

  it('reads the user_order market under either name', () => {
    const msg = { ...(cases.user_order!.good as { msg: Record<string, unknown> }).msg };
    delete msg.ticker;
    msg.market_ticker = 'T1';
    expect(parseStreamFrame(JSON.stringify({ type: 'user_order', sid: 7, msg })).ok).toBe(true);
  });

  it('never throws on garbage', () => {
    for (const text of ['', 'null', '[]', '42', '{', '{"type":7}', '{"type":"nope","sid":1}', '{"type":"orderbook_delta"}', '"x"']) {
      const r = parseStreamFrame(text);
      expect(r.ok).toBe(false);
    }
    const unknown = parseStreamFrame('{"type":"nope","sid":1,"msg":{}}');
    expect(!unknown.ok && unknown.reason).toContain('unknown message type');
  });
});

describe('isOrderbookDeltaFrame', () => {
  const ABSENT = Symbol('absent');
  const field = <T>(good: T[], bad: unknown[]) => fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...good) }, { weight: 1, arbitrary: fc.constantFrom(...bad, ABSENT) });
  const optional = <T>(good: T[], bad: unknown[]) => fc.oneof({ weight: 3, arbitrary: fc.constant(ABSENT) }, { weight: 3, arbitrary: fc.constantFrom(...good) }, { weight: 1, arbitrary: fc.constantFrom(...bad) });
  const build = (fields: Record<string, unknown>) => Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== ABSENT));
  const msg = fc
    .record({
      market_ticker: field(['T1', 'KX-25DEC31-T1.5'], ['', 7, null]),
      price_dollars: field(['0.5300', '0.53', '1', '0', '1.0000', '0.999900'], ['0.53001', '1.01', '.5', '-0.5', '0,5', 0.53, '']),
      delta_fp: field(['-12.00', '5', '0.01', '-0', '3.500'], ['1.001', '+1', '1e3', '', 12, '1.']),
      side: field(['yes', 'no'], ['bid', 'YES', 0]),
      // `ts` is not needed to keep a book and the real service sometimes leaves it out: any string or finite number, or none.
      ts: optional(['2025-01-01T00:00:00Z', '2025-01-01', '', 1_700_000_000_000, 0], [null, true, {}, Number.NaN, Infinity]),
      market_id: optional(['m1'], [1, null]),
      client_order_id: optional(['c1', ''], [1, null, false]),
      subaccount: optional([0, 3, -1], [1.5, '1', null, Number.NaN]),
      extra: optional(['ignored'], [{}]),
    })
    .map(build);
  const frame = fc
    .record({
      type: field(['orderbook_delta'], ['orderbook_snapshot', 'ticker']),
      sid: field([1, 99], [0, -1, 1.5, '1', Number.MAX_SAFE_INTEGER + 2, Infinity]),
      seq: field([1, 123456], [0, 2.5, null, Number.NaN]),
      msg: fc.oneof({ weight: 8, arbitrary: msg }, { weight: 1, arbitrary: fc.constantFrom(null, [], 'x', ABSENT) }),
    })
    .map(build);

  it('agrees with the OrderbookDeltaFrame schema on every input', () => {
    const seen = { accepted: 0, rejected: 0 };
    fc.assert(
      fc.property(fc.oneof({ weight: 20, arbitrary: frame }, { weight: 1, arbitrary: fc.anything() }), (v) => {
        const want = OrderbookDeltaFrame.safeParse(v).success;
        expect(isOrderbookDeltaFrame(v)).toBe(want);
        seen[want ? 'accepted' : 'rejected']++;
      }),
      { numRuns: 5000 },
    );
    // Both outcomes are well exercised.
    expect(seen.accepted).toBeGreaterThan(300);
    expect(seen.rejected).toBeGreaterThan(300);
  });

  it('accepts the documented delta', () => {
    expect(isOrderbookDeltaFrame(cases.orderbook_delta!.good)).toBe(true);
    expect(isOrderbookDeltaFrame(cases.orderbook_delta!.bad)).toBe(false);
  });
});

describe('channel and type maps', () => {
  it('every message type names channels that exist, and every channel lists its types', () => {
    for (const [type, channels] of Object.entries(MESSAGE_TYPES)) {
      for (const ch of channels) expect(CHANNELS[ch].messageTypes as readonly string[]).toContain(type);
    }
    for (const ch of CHANNEL_NAMES) {
      for (const type of CHANNELS[ch].messageTypes) expect(MESSAGE_TYPES[type as keyof typeof MESSAGE_TYPES] as readonly string[]).toContain(ch);
    }
  });

  it('says which update actions fit which channel', () => {
    expect(channelSupportsAction('orderbook_delta', 'get_snapshot')).toBe(true);
    expect(channelSupportsAction('ticker', 'get_snapshot')).toBe(false);
    expect(channelSupportsAction('ticker', 'add_markets')).toBe(true);
    expect(channelSupportsAction('communications', 'delete_markets')).toBe(false);
    expect(channelSupportsAction('cfbenchmarks_value', 'indexlist')).toBe(true);
    expect(channelSupportsAction('cfbenchmarks_value_5hz', 'subscribe_indices')).toBe(true);
    expect(channelSupportsAction('fill', 'subscribe_indices')).toBe(false);
  });
});

describe('parseCommand', () => {
  const cmd = (o: unknown, opts?: Parameters<typeof parseCommand>[1]) => parseCommand(JSON.stringify(o), opts);
  const code = (o: unknown, opts?: Parameters<typeof parseCommand>[1]) => {
    const r = cmd(o, opts);
    return r.ok ? 'ok' : r.code;
  };

  it('accepts the documented commands and normalises them', () => {
    const sub = cmd({ id: 1, cmd: 'subscribe', params: { channels: ['orderbook_delta', 'ticker'], market_ticker: 'T0', market_tickers: ['T1', 'T2', 'T1'] } });
    expect(sub).toEqual({ ok: true, cmd: { id: 1, cmd: 'subscribe', params: { channels: ['orderbook_delta', 'ticker'], market_tickers: ['T0', 'T1', 'T2'] } } });
    expect(cmd({ id: 2, cmd: 'unsubscribe', params: { sids: [1, 2] } })).toEqual({ ok: true, cmd: { id: 2, cmd: 'unsubscribe', params: { sids: [1, 2] } } });
    expect(cmd({ id: 3, cmd: 'list_subscriptions' })).toEqual({ ok: true, cmd: { id: 3, cmd: 'list_subscriptions' } });
    expect(cmd({ id: 4, cmd: 'update_subscription', params: { sids: [1], market_tickers: ['T3'], action: 'add_markets' } })).toEqual({
      ok: true,
      cmd: { id: 4, cmd: 'update_subscription', params: { sid: 1, action: 'add_markets', market_tickers: ['T3'] } },
    });
    expect(cmd({ id: 5, cmd: 'update_subscription', params: { sid: 1, action: 'get_snapshot' } })).toEqual({
      ok: true,
      cmd: { id: 5, cmd: 'update_subscription', params: { sid: 1, action: 'get_snapshot' } },
    });
    const idx = cmd({ id: 6, cmd: 'subscribe', params: { channels: ['cfbenchmarks_value', 'cfbenchmarks_value_5hz'], index_ids: ['BRTI', 'ETHUSD_RTI'] } });
    expect(idx.ok && idx.cmd.cmd === 'subscribe' && idx.cmd.params.index_ids).toEqual(['BRTI', 'ETHUSD_RTI']);
    expect(code({ id: 7, cmd: 'update_subscription', params: { sid: 3, action: 'subscribe_indices', index_ids: ['all'] } })).toBe('ok');
    expect(code({ id: 8, cmd: 'update_subscription', params: { sid: 3, action: 'indexlist' } })).toBe('ok');
    expect(code({ id: 9, cmd: 'subscribe', params: { channels: ['ticker', 'market_lifecycle_v2', 'fill'] } })).toBe('ok');
  });

  it('every accepted command also fits the wire schema', () => {
    const samples: unknown[] = [
      { id: 1, cmd: 'subscribe', params: { channels: ['orderbook_delta'], market_tickers: ['T1'] } },
      { id: 2, cmd: 'unsubscribe', params: { sids: [1] } },
      { id: 3, cmd: 'list_subscriptions' },
      { id: 4, cmd: 'update_subscription', params: { sid: 1, market_tickers: ['T3'], action: 'delete_markets' } },
    ];
    for (const s of samples) {
      expect(cmd(s).ok).toBe(true);
      expect(StreamCommand.safeParse(s).success).toBe(true);
    }
  });

  it('produces each error code a parser can decide', () => {
    expect(parseCommand('not json')).toMatchObject({ ok: false, code: WS_ERROR.UNABLE_TO_PROCESS });
    expect(code([1, 2])).toBe(1);
    expect(code({ cmd: 'list_subscriptions' })).toBe(1);
    expect(code({ id: 1, cmd: 'subscribe' })).toBe(2);
    expect(code({ id: 1, cmd: 'unsubscribe', params: null })).toBe(2);
    expect(code({ id: 1, cmd: 'subscribe', params: {} })).toBe(3);
    expect(code({ id: 1, cmd: 'subscribe', params: { channels: [] } })).toBe(3);
    expect(code({ id: 1, cmd: 'unsubscribe', params: {} })).toBe(4);
    expect(code({ id: 1, cmd: 'update_subscription', params: { action: 'get_snapshot' } })).toBe(4);
    expect(code({ id: 1, cmd: 'dance' })).toBe(5);
    expect(code({ id: 1 })).toBe(5);
    expect(code({ id: 1, cmd: 'subscribe', params: { channels: ['ticker', 'gossip'] } })).toBe(8);
    expect(code({ id: 1, cmd: 'subscribe', params: { channels: ['fill'] } }, { authenticated: false })).toBe(9);
    expect(code({ id: 1, cmd: 'subscribe', params: { channels: ['ticker'] } }, { authenticated: false })).toBe('ok');
    expect(code({ id: 1, cmd: 'subscribe', params: { channels: 'ticker' } })).toBe(11);
    expect(code({ id: 1, cmd: 'subscribe', params: { channels: ['ticker'], market_tickers: [''] } })).toBe(11);
    expect(code({ id: 1, cmd: 'subscribe', params: { channels: ['cfbenchmarks_value'], index_ids: 'BRTI' } })).toBe(11);
    expect(code({ id: 1, cmd: 'unsubscribe', params: { sids: ['1'] } })).toBe(11);
    expect(code({ id: 1, cmd: 'update_subscription', params: { sid: 1, action: 'subscribe_indices' } })).toBe(11);
    expect(code({ id: 1, cmd: 'update_subscription', params: { sids: [1, 2], action: 'get_snapshot' } })).toBe(12);
    expect(code({ id: 1, cmd: 'update_subscription', params: { sids: [], action: 'get_snapshot' } })).toBe(12);
    expect(code({ id: 1, cmd: 'update_subscription', params: { sid: 2, sids: [1], action: 'get_snapshot' } })).toBe(12);
    expect(code({ id: 1, cmd: 'update_subscription', params: { sid: 1, action: 'replace_markets', market_tickers: ['T'] } })).toBe(13);
    expect(code({ id: 1, cmd: 'update_subscription', params: { sid: 1, market_tickers: ['T'] } })).toBe(13);
    expect(code({ id: 1, cmd: 'subscribe', params: { channels: ['orderbook_delta'] } })).toBe(14);
    expect(code({ id: 1, cmd: 'update_subscription', params: { sid: 1, action: 'add_markets' } })).toBe(14);
    expect(code({ id: 1, cmd: 'subscribe', params: { channels: ['ticker'], market_tickers: ['A', 'B', 'C'] } }, { maxMarkets: 2 })).toBe(26);
  });

  it('echoes the command id on errors it can attribute', () => {
    const r = cmd({ id: 41, cmd: 'subscribe', params: { channels: ['gossip'] } });
    expect(r).toEqual({ ok: false, id: 41, code: 8, msg: 'Unknown channel name: gossip' });
    const noId = parseCommand('{');
    expect(noId.ok === false && 'id' in noId).toBe(false);
  });

  it('builds error replies that parse as error frames, for the codes only the server can decide', () => {
    for (const c of [WS_ERROR.UNKNOWN_SID, WS_ERROR.CHANNEL_ERROR, WS_ERROR.BUFFER_OVERFLOW, WS_ERROR.TOO_MANY_REQUESTS]) {
      const frame = errorReply(9, c);
      const r = parseStreamFrame(JSON.stringify(frame));
      expect(r.ok && r.msg.type === 'error' && r.msg.msg.code).toBe(c);
    }
    expect(errorReply(undefined, 1)).toEqual({ type: 'error', msg: { code: 1, msg: 'Unable to process message' } });
  });

  it('types the parsed command for the server to switch on', () => {
    const r = cmd({ id: 1, cmd: 'unsubscribe', params: { sids: [4] } });
    const sids = (c: ParsedCommand) => (c.cmd === 'unsubscribe' ? c.params.sids : []);
    expect(r.ok && sids(r.cmd)).toEqual([4]);
  });
});
