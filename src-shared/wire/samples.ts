// Sample wire payloads: one spec-form response per endpoint row, plus the official SDK's forms
// where they differ. Used by the schema tests; also handy for client and exchange tests.
// Values are placeholders, not market data.
import type { EndpointId, Endpoints } from '../endpoints';
import type { ResponseWire } from '../endpoints/types';
import type { z } from 'zod';
import type { BlockTradeProposal, Quote, Rfq } from './communications';
import type { Event, Series } from './events';
import type { Candlestick, Market } from './markets';
import type { Order } from './orders';
import type { Fill, PositionsResponse } from './portfolio';

const ts = 1_735_689_600;

export const sampleMarket: z.input<typeof Market> = {
  ticker: 'KXTEST-25JAN01-T50',
  event_ticker: 'KXTEST-25JAN01',
  market_type: 'binary',
  status: 'open',
  yes_bid_dollars: '0.4500',
  yes_ask_dollars: '0.4700',
  no_bid_dollars: '0.5300',
  no_ask_dollars: '0.5500',
  last_price_dollars: '0.4600',
  volume_fp: '120.00',
  volume_24h_fp: '20.00',
  open_interest_fp: '80.00',
  close_time: '2025-01-01T00:00:00Z',
  exchange_index: 0,
};

export const sampleOrder: z.input<typeof Order> = {
  order_id: 'ord-1',
  client_order_id: '6f1c2a8e-0d7b-4c1e-9a55-3b2f1e0c9d11',
  ticker: sampleMarket.ticker,
  status: 'resting',
  book_side: 'bid',
  yes_price_dollars: '0.4500',
  no_price_dollars: '0.5500',
  fill_count_fp: '0.00',
  remaining_count_fp: '10.00',
  initial_count_fp: '10.00',
  exchange_index: 0,
};

export const sampleFill: z.input<typeof Fill> = {
  fill_id: 'fill-1',
  trade_id: 'fill-1',
  order_id: 'ord-1',
  ticker: sampleMarket.ticker,
  exchange_index: 0,
  yes_price_dollars: '0.4500',
  count_fp: '2.00',
  is_taker: true,
  fee_cost: '0.020000',
  ts,
};

export const samplePositions: z.input<typeof PositionsResponse> = {
  market_positions: [
    {
      ticker: sampleMarket.ticker,
      exchange_index: 0,
      position_fp: '5.00',
      realized_pnl_dollars: '-0.120000',
      total_traded_dollars: '2.250000',
      market_exposure_dollars: '2.250000',
      fees_paid_dollars: '0.040000',
      last_updated_ts: ts,
    },
  ],
  event_positions: [
    {
      event_ticker: sampleMarket.event_ticker,
      event_exposure_dollars: '2.250000',
      total_cost_dollars: '2.250000',
      realized_pnl_dollars: '0.000000',
      fees_paid_dollars: '0.040000',
    },
  ],
  cursor: '',
  has_next: false,
};

export const sampleCandle: z.input<typeof Candlestick> = {
  end_period_ts: ts,
  yes_bid: { open_dollars: '0.4000', low_dollars: '0.3900', high_dollars: '0.4600', close_dollars: '0.4500' },
  yes_ask: { open_dollars: '0.4200', low_dollars: '0.4100', high_dollars: '0.4800', close_dollars: '0.4700' },
  price: { open_dollars: '0.4100', low_dollars: '0.4000', high_dollars: '0.4700', close_dollars: '0.4600', mean_dollars: '0.4400' },
  volume_fp: '12.00',
  open_interest_fp: '80.00',
};

export const sampleSeries: z.input<typeof Series> = {
  ticker: 'KXTEST',
  title: 'Test series',
  category: 'Economics',
  categories: ['Economics'],
  tags: ['test'],
  settlement_sources: [],
  fee_type: 'quadratic',
  fee_multiplier: '1',
};

export const sampleEvent: z.input<typeof Event> = {
  event_ticker: sampleMarket.event_ticker,
  series_ticker: 'KXTEST',
  title: 'Test event',
  status: 'open',
  product_metadata: null,
};

export const sampleRfq: z.input<typeof Rfq> = {
  rfq_id: 'rfq-1',
  id: 'rfq-1',
  market_ticker: sampleMarket.ticker,
  contracts_fp: '100.00',
  status: 'open',
  rest_remainder: false,
  created_ts: ts,
};

export const sampleQuote: z.input<typeof Quote> = {
  quote_id: 'quote-1',
  id: 'quote-1',
  rfq_id: 'rfq-1',
  market_ticker: sampleMarket.ticker,
  yes_bid_dollars: '0.4400',
  no_bid_dollars: '0.5400',
  status: 'open',
  updated_ts: ts,
};

export const sampleProposal: z.input<typeof BlockTradeProposal> = {
  id: 'btp-1',
  market_ticker: sampleMarket.ticker,
  status: 'open',
  buyer_accepted: false,
  seller_accepted: false,
  price_centi_cents: 4500,
  centicount: 10_000,
  maker_side: 'yes',
  expiration_ts: '2025-01-01T00:05:00Z',
};

const liveData = { type: 'football_game', milestone_id: 'ms-1', details: { home_score: 7 } };

/** One spec-form response per row (what the embedded exchange sends). */
export const responseSamples: { [K in EndpointId]: ResponseWire<Endpoints[K]> } = {
  // exchange
  getExchangeStatus: { exchange_active: true, trading_active: true, exchange_index_statuses: [{ exchange_index: 0, description: 'main', trading_active: true }] },
  getExchangeSchedule: { schedule: { standard_hours: [], maintenance_windows: [{ start: '2025-01-01T00:00:00Z', end: '2025-01-01T01:00:00Z' }] } },
  getExchangeAnnouncements: { announcements: [] },
  getUserDataTimestamp: { last_updated_ts: '2025-01-01T00:00:00Z' },
  // api keys
  getApiKeys: { api_keys: [{ api_key: 'key-1', api_key_id: 'key-1', name: 'bot', scopes: ['read', 'write'], created_ts: ts, subaccount: null }] },
  createApiKey: { api_key: { api_key: 'key-2', name: 'bot' }, api_key_id: 'key-2' },
  generateApiKey: { api_key_id: 'key-3', private_key: '-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----\n', key_type: 'rsa' },
  deleteApiKey: undefined,
  // orders
  createOrder: { order_id: 'ord-1', client_order_id: sampleOrder.client_order_id, fill_count: '0.00', remaining_count: '10.00', ts_ms: ts * 1000 },
  batchCreateOrders: {
    orders: [
      { order_id: 'ord-1', client_order_id: 'c-1', fill_count: '0.00', remaining_count: '1.00', ts_ms: ts * 1000, error: null },
      { order_id: null, client_order_id: 'c-2', fill_count: null, remaining_count: null, error: { code: 'invalid_order', message: 'price out of range' } },
    ],
  },
  cancelOrder: { order_id: 'ord-1', reduced_by: '10.00', ts_ms: ts * 1000 },
  cancelAllOrders: undefined,
  batchCancelOrders: {
    orders: [
      { order_id: 'ord-1', reduced_by: '10.00', ts_ms: ts * 1000, error: null },
      { order_id: 'ord-x', reduced_by: '0.00', ts_ms: null, error: { code: 'not_found', message: 'order not found' } },
    ],
  },
  amendOrder: { old_order: sampleOrder, order: { ...sampleOrder, yes_price_dollars: '0.4600' }, order_id: 'ord-1', ts_ms: ts * 1000 },
  decreaseOrder: { order_id: 'ord-1', remaining_count: '5.00', ts_ms: ts * 1000 },
  getOrder: { order: sampleOrder },
  getOrders: { orders: [sampleOrder], cursor: 'next', has_next: true },
  getQueuePositions: [{ order_id: 'ord-1', queue_position: '25.00' }],
  getOrderQueuePosition: '25.00',
  // order groups
  getOrderGroups: [{ order_group_id: 'og-1', id: 'og-1', contracts_limit: '100.00', contracts_limit_fp: '100.00', contracts_used: '0.00' }],
  getOrderGroup: { order_group_id: 'og-1', contracts_limit: '100.00', contracts_used: '3.00', orders: ['ord-1'] },
  createOrderGroup: { order_group_id: 'og-1' },
  deleteOrderGroup: {},
  resetOrderGroup: {},
  triggerOrderGroup: {},
  updateOrderGroupLimit: {},
  // portfolio
  getBalance: { balance: 100_000, balance_dollars: '1000.00', portfolio_value: 2_500, updated_ts: ts, balance_breakdown: [{ exchange_index: 0, balance: '1000.00' }] },
  getPositions: samplePositions,
  getSettlements: {
    settlements: [{ ticker: sampleMarket.ticker, event_ticker: sampleMarket.event_ticker, exchange_index: 0, market_result: 'yes', revenue: 500, settled_at: ts }],
    cursor: '',
  },
  getFills: { fills: [sampleFill], cursor: '' },
  getTotalRestingOrderValue: { total_resting_order_value: 450, resting_order_value_breakdown: [] },
  getDeposits: { deposits: [{ id: 'dep-1', status: 'applied', type: 'ach', amount_cents: 10_000, fee_cents: 0, created_ts: ts, finalized_ts: ts }], cursor: '' },
  getWithdrawals: { withdrawals: [{ id: 'wd-1', status: 'pending', type: 'wire', amount_cents: 5_000, fee_cents: 0, created_ts: ts, finalized_ts: null }], cursor: '' },
  getIntraExchangeTransfers: {
    transfers: [{ transfer_id: 'tr-1', source: 'event_contract', destination: 'margined', amount: '10.00', status: 'complete', created_ts: ts }],
  },
  getIntraExchangeTransfer: {
    transfer: { transfer_id: 'tr-1', source: 'event_contract', destination: 'margined', amount: '10.00', status: 'complete', created_ts: ts },
  },
  getTargetBalanceAllocation: { allocations: [{ exchange_index: 0, percent: 100 }], resting_margin_reservation: 'sum' },
  setTargetBalanceAllocation: {},
  // subaccounts
  createSubaccount: { subaccount_number: 1 },
  transferBetweenSubaccounts: {},
  getSubaccountBalances: { subaccount_balances: [{ subaccount_number: 0, balance: '1000.00', updated_ts: ts, exchange_index: 0 }] },
  getSubaccountTransfers: { transfers: [{ transfer_id: 'st-1', amount_cents: 100, from_subaccount: 0, to_subaccount: 1, created_ts: ts }], cursor: '' },
  setSubaccountNetting: {},
  getSubaccountNetting: { netting_configs: [{ subaccount_number: 0, enabled: true, exchange_index: 0 }] },
  // communications
  getCommunicationsId: { user_id: 'user-1' },
  getRfqs: { rfqs: [sampleRfq], cursor: '' },
  getRfq: { rfq: sampleRfq },
  createRfq: { rfq: { rfq_id: 'rfq-1', id: 'rfq-1' }, id: 'rfq-1' },
  deleteRfq: undefined,
  getQuotes: { quotes: [sampleQuote], cursor: '' },
  getQuote: { quote: sampleQuote },
  createQuote: { quote: { quote_id: 'quote-1', id: 'quote-1' }, id: 'quote-1' },
  deleteQuote: undefined,
  acceptQuote: undefined,
  confirmQuote: undefined,
  getRfqQuote: { quote: sampleQuote },
  deleteRfqQuote: undefined,
  acceptRfqQuote: undefined,
  confirmRfqQuote: undefined,
  getBlockTradeProposals: { block_trade_proposals: [sampleProposal], cursor: '' },
  createBlockTradeProposal: { block_trade_proposal_id: 'btp-1' },
  acceptBlockTradeProposal: undefined,
  // fcm
  getFcmOrders: { orders: [sampleOrder], cursor: '' },
  getFcmFills: {
    fills: [
      {
        fill_id: 'fill-9',
        ticker: sampleMarket.ticker,
        taker_outcome_side: 'yes',
        yes_price_dollars: '0.4500',
        count_fp: '1.00',
        maker_subtrader_id: 'fcm_a1',
        taker_subtrader_id: null,
        maker_fee_cost: '0.000000',
      },
    ],
    cursor: '',
  },
  getFcmPositions: samplePositions,
  getSubtraders: { subtraders: [{ subtrader_id: 'fcm_a1', exchange_indices: [0], trading_blocked: false }] },
  createSubtrader: { subtrader_id: 'fcm_a1' },
  getSubtraderBlockedCategories: { subtrader_id: 'fcm_a1', blocked_categories: ['Sports'] },
  setSubtraderBlockedCategory: { subtrader_id: 'fcm_a1', blocked_categories: [] },
  getSubtraderDailyCap: { subtrader_id: 'fcm_a1', limit: '5000.00' },
  setSubtraderDailyCap: {},
  clearSubtraderDailyCap: {},
  // account
  getAccountLimits: {
    usage_tier: 'basic',
    read: { bucket_capacity: 200, refill_rate: 200 },
    write: { bucket_capacity: 100, refill_rate: 100 },
    grants: [{ exchange_instance: 'event_contract', level: 'advanced', source: 'manual', expires_ts: null }],
  },
  getEndpointCosts: { default_cost: 10, endpoint_costs: [{ method: 'DELETE', path: '/trade-api/v2/portfolio/events/orders/batched', cost: 2 }] },
  getVolumeProgress: {
    volume_progress: [{ computed_ts: ts, trailing_30d_volume_fp: '1000.00', goals: [{ level: 'advanced', earn_volume_goal_fp: '5000.00', keep_volume_goal_fp: '2500.00' }] }],
  },
  upgradeApiUsageLevel: undefined,
  // markets
  getMarkets: { markets: [sampleMarket], cursor: 'abc', has_next: true },
  getMarket: { market: sampleMarket },
  getOrderbook: { orderbook_fp: { yes_dollars: [['0.4500', '10.00'], ['0.4400', '3.00']], no_dollars: [['0.5300', '7.00']] } },
  getOrderbooks: { orderbooks: [{ market_ticker: sampleMarket.ticker, ticker: sampleMarket.ticker, orderbook_fp: { yes_dollars: [], no_dollars: [] } }] },
  getMarketCandlesticks: { ticker: sampleMarket.ticker, candlesticks: [sampleCandle] },
  getBulkMarketCandlesticks: [{ market_ticker: sampleMarket.ticker, candlesticks: [sampleCandle] }],
  getTrades: {
    trades: [{ trade_id: 't-1', ticker: sampleMarket.ticker, yes_price_dollars: '0.4600', no_price_dollars: '0.5400', count_fp: '3.00', taker_side: 'yes', is_block_trade: false, created_time: '2025-01-01T00:00:00Z' }],
    cursor: '',
  },
  // series, events
  getSeriesList: [sampleSeries],
  getSeries: { series: sampleSeries },
  getSeriesFeeChanges: [{ series_ticker: 'KXTEST', effective_ts: ts, maker_fee: '0.0175', taker_fee: '0.07' }],
  getEventCandlesticks: { market_tickers: [sampleMarket.ticker], market_candlesticks: [[sampleCandle]], adjusted_end_ts: ts },
  getForecastPercentileHistory: [{ ts, percentile: 5000, value: 71.5 }],
  getEvents: { events: [sampleEvent], cursor: '', has_next: false },
  getMultivariateEvents: { events: [], cursor: '' },
  getEvent: { event: { ...sampleEvent, markets: [sampleMarket] }, markets: [sampleMarket] },
  getEventMetadata: { image_url: '/img/e.png', market_details: null, settlement_sources: [], tags: [], categories: ['Economics'] },
  getEventFeeChanges: { event_fee_changes: [{ event_ticker: sampleMarket.event_ticker, fee_type_override: null, fee_multiplier_override: null }], cursor: '' },
  getMultivariateCollections: { multivariate_contracts: [{ collection_ticker: 'KXMVE', title: 'Parlay', exchange_index: 0 }], cursor: '' },
  getMultivariateCollection: { multivariate_contract: { collection_ticker: 'KXMVE', title: 'Parlay', exchange_index: 0 } },
  createMarketInCollection: { market_ticker: 'KXMVE-1', event_ticker: 'KXMVE-E1' },
  getStructuredTargets: { structured_targets: [{ structured_target_id: 'st-1', id: 'st-1', name: 'Team A', type: 'team', competition: 'League' }], cursor: '' },
  getStructuredTarget: { structured_target: null },
  // historical
  getHistoricalCutoff: { market_settled_ts: ts, trades_created_ts: ts, orders_updated_ts: ts, market_positions_last_updated_ts: ts },
  getHistoricalMarkets: { markets: [{ ...sampleMarket, status: 'settled' }], cursor: '' },
  getHistoricalMarket: { market: { ...sampleMarket, status: 'settled' } },
  getHistoricalMarketCandlesticks: { ticker: sampleMarket.ticker, candlesticks: [sampleCandle] },
  getHistoricalTrades: { trades: [], cursor: '' },
  getHistoricalFills: { fills: [sampleFill], cursor: '' },
  getHistoricalOrders: { orders: [{ ...sampleOrder, status: 'executed', remaining_count_fp: '0.00' }], cursor: '' },
  getHistoricalPositions: { market_positions: [], event_positions: null, cursor: '' },
  // live data
  getMilestoneLiveData: { live_data: liveData },
  getEventLiveData: { live_data: { type: 'crypto', details: {}, default_range: '1h', range_options: ['15min', '1h', '1d'], is_historical: false } },
  getLiveDataBatch: [liveData],
  getGameStats: { pbp: null },
  getWeatherIndex: { city: 'miami', units: 'fahrenheit', config_version: 'miami-temperature-v1.0', timeseries: [{ t: ts * 1000, status: 'normal', v: 81.23 }] },
  getWeatherCalibrations: { city: 'miami', units: 'celsius', calibrations: [{ config_version: 'v1', effective_at_ms: ts * 1000, city_reference_c: 0.12 }] },
  getLegacyMilestoneLiveData: { live_data: liveData },
};

/** What the official SDK (and so the real exchange) sends where it differs from the spec. */
export const sdkResponseSamples: Partial<Record<EndpointId, unknown>> = {
  getSeriesList: { series: [{ ...sampleSeries, fee_multiplier: 1 }] },
  getSeriesFeeChanges: { series_fee_change_arr: [{ id: 'fc-1', series_ticker: 'KXTEST', fee_type: 'quadratic', fee_multiplier: 1.5, scheduled_ts: '2025-01-01T00:00:00Z' }] },
  getOrderGroups: { order_groups: [{ id: 'og-1', contracts_limit_fp: '100.00', is_auto_cancel_enabled: true }] },
  getOrderGroup: { is_auto_cancel_enabled: true, contracts_limit_fp: '100.00', orders: ['ord-1'] },
  createOrderGroup: { order_group_id: 'og-1', subaccount: 0 },
  getBulkMarketCandlesticks: { markets: [{ market_ticker: sampleMarket.ticker, candlesticks: [sampleCandle] }] },
  getLiveDataBatch: { live_datas: [liveData] },
  getQueuePositions: { queue_positions: [{ order_id: 'ord-1', market_ticker: sampleMarket.ticker, queue_position_fp: '25.00' }] },
  getOrderQueuePosition: { queue_position_fp: '25.00' },
  getRfq: { rfq: { id: 'rfq-1', creator_id: 'c', market_ticker: sampleMarket.ticker, contracts_fp: '100.00', status: 'closed', created_ts: '2025-01-01T00:00:00Z' } },
  getQuote: { quote: { ...sampleQuote, quote_id: undefined, id: 'quote-1', status: 'cancelled', updated_ts: '2025-01-01T00:00:00Z' } },
  createRfq: { id: 'rfq-1' },
  createQuote: { id: 'quote-1' },
  createApiKey: { api_key_id: 'key-2' },
  getApiKeys: { api_keys: [{ api_key_id: 'key-1', name: 'bot', scopes: ['read'] }] },
  getCommunicationsId: { communications_id: 'user-1' },
  getStructuredTargets: { structured_targets: [{ id: 'st-1', name: 'Team A', type: 'team' }], cursor: '' },
  getSettlements: {
    settlements: [{ ticker: sampleMarket.ticker, event_ticker: sampleMarket.event_ticker, exchange_index: 0, market_result: 'no', revenue: 0, settled_time: '2025-01-01T00:00:00Z', fee_cost: '0.00' }],
    cursor: '',
  },
  getUserDataTimestamp: { as_of_time: '2025-01-01T00:00:00Z' },
  getExchangeSchedule: { schedule: { standard_hours: [], maintenance_windows: [{ start_datetime: '2025-01-01T00:00:00Z', end_datetime: '2025-01-01T01:00:00Z' }] } },
  getOrderbooks: { orderbooks: [{ ticker: sampleMarket.ticker, orderbook_fp: { yes_dollars: [['0.4500', '1.00']], no_dollars: [] } }] },
  amendOrder: { order_id: 'ord-1', client_order_id: 'c-1', remaining_count: '10.00', fill_count: '0.00', ts_ms: ts * 1000 },
  getHistoricalCutoff: { market_settled_ts: '2025-01-01T00:00:00Z', trades_created_ts: '2025-01-01T00:00:00Z', orders_updated_ts: '2025-01-01T00:00:00Z' },
  getForecastPercentileHistory: {
    forecast_history: [
      {
        event_ticker: sampleMarket.event_ticker,
        end_period_ts: ts,
        period_interval: 60,
        percentile_points: [{ percentile: 5000, raw_numerical_forecast: 71.46, numerical_forecast: 71.5, formatted_forecast: '71.5°F' }],
      },
    ],
  },
  getHistoricalMarketCandlesticks: {
    ticker: sampleMarket.ticker,
    candlesticks: [
      {
        end_period_ts: ts,
        yes_bid: { open: '0.4000', low: '0.3900', high: '0.4600', close: '0.4500' },
        yes_ask: { open: '0.4200', low: '0.4100', high: '0.4800', close: '0.4700' },
        price: { open: null, low: null, high: null, close: null, mean: null, previous: '0.4500' },
        volume: '0.00',
        open_interest: '80.00',
      },
    ],
  },
};
