// The contract scenario, part 1: the exchange, market data, series and events, multivariate
// collections, structured targets, historical archive and live data, each operation called
// through the official SDK exactly as a bot would, over the seeded catalog (and, for the
// caller's archive, activity made at past times). Every answer is recorded for validation.
import type { SdkClient } from './clients';
import { type Recorder, str } from './recorder';

const nowSec = () => Math.floor(Date.now() / 1000);
const HOUR = 3600;
const DAY = 86_400;

export interface PublicFacts {
  /** a market the trader traded in (the trading part makes it) with its event and series */
  tradedTicker: string;
  tradedEvent: string;
  tradedSeries: string;
  /** the trader's market archived 40 days ago (historical part) */
  archivedTicker: string;
  /** a seeded market with weeks of trading (quiet periods between trades) in series KXMAYOR */
  seasonedTicker: string;
}

export async function exchangeOps(rec: Recorder, c: SdkClient): Promise<void> {
  await rec.ok('getExchangeStatus', c.exchange.getExchangeStatus(), ['exchange_index_statuses']);
  await rec.ok('getExchangeSchedule', c.exchange.getExchangeSchedule(), ['schedule.standard_hours', 'schedule.maintenance_windows']);
  await rec.ok('getUserDataTimestamp', c.exchange.getUserDataTimestamp());
  await rec.ok('getSeriesFeeChanges', c.exchange.getSeriesFeeChanges(undefined, true), ['series_fee_change_arr']);
}

export async function marketOps(rec: Recorder, c: SdkClient, f: PublicFacts): Promise<void> {
  const m = c.market;
  await rec.ok('getSeriesList', m.getSeriesList(undefined, undefined, true, true), ['series']);
  await rec.ok('getSeries', m.getSeries(f.tradedSeries, true));
  // every status the catalog has (settled, closed, open, paused, unopened) across pages
  await rec.ok('getMarkets', m.getMarkets(1000), ['markets']);
  await rec.ok('getMarkets', m.getMarkets(100, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, 'settled'), ['markets']);
  await rec.ok('getMarkets', m.getMarkets(100, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, 'only'), ['markets']);
  await rec.ok('getMarket', m.getMarket(f.tradedTicker));
  await rec.ok('getMarketOrderbook', m.getMarketOrderbook(f.tradedTicker), ['orderbook_fp.yes_dollars']);
  await rec.ok('getMarketOrderbooks', m.getMarketOrderbooks([f.tradedTicker]), ['orderbooks']);
  await rec.ok('getTrades', m.getTrades(100, undefined, f.tradedTicker), ['trades']);
  const end = nowSec() + 60;
  await rec.ok('getMarketCandlesticks', m.getMarketCandlesticks(f.tradedSeries, f.tradedTicker, end - 3 * HOUR, end, 1), ['candlesticks']);
  // (the spec reads 60 as one minute; the SDK's day is 1440)
  await rec.ok('getMarketCandlesticks', m.getMarketCandlesticks('KXMAYOR', f.seasonedTicker, end - 6 * HOUR, end, 60, true), ['candlesticks']);
  await rec.ok('getMarketCandlesticks', m.getMarketCandlesticks('KXMAYOR', f.seasonedTicker, end - 29 * DAY, end, 1440, true), ['candlesticks']);
  await rec.ok('batchGetMarketCandlesticks', m.batchGetMarketCandlesticks(f.tradedTicker, end - 3 * HOUR, end, 1, true), ['markets', 'markets.0.candlesticks']);
  await rec.ok('batchGetMarketCandlesticks', m.batchGetMarketCandlesticks(`${f.seasonedTicker},${f.tradedTicker}`, end - 20 * DAY, end, 1440), ['markets', 'markets.0.candlesticks']);
}

export async function eventOps(rec: Recorder, c: SdkClient, f: PublicFacts): Promise<void> {
  const e = c.events;
  const events = await rec.ok('getEvents', e.getEvents(200, undefined, true, true), ['events', 'milestones']);
  await rec.ok('getEvents', e.getEvents(200, undefined, false, false, 'settled'), ['events']);
  await rec.ok('getEvent', e.getEvent(f.tradedEvent, true), ['markets']);
  for (const ev of events.events.slice(0, 20)) await rec.ok('getEventMetadata', e.getEventMetadata(ev.event_ticker));
  await rec.ok('getEventFeeChanges', e.getEventFeeChanges(undefined, 100), ['event_fee_changes']);
  await rec.ok('getMultivariateEvents', e.getMultivariateEvents(100, undefined, undefined, undefined, true), ['events']);
  const end = nowSec();
  await rec.ok('getMarketCandlesticksByEvent', e.getMarketCandlesticksByEvent(f.tradedEvent, f.tradedSeries, end - 3 * HOUR, end + 60, 1), ['market_tickers', 'market_candlesticks']);
  const cpi = events.events.find((x) => x.series_ticker === 'KXCPI' && x.event_ticker !== f.tradedEvent);
  if (!cpi) throw new Error('the seeded catalog has no KXCPI event');
  await rec.ok('getEventForecastPercentilesHistory', e.getEventForecastPercentilesHistory(cpi.event_ticker, 'KXCPI', [1000, 5000, 9000], end - DAY, end, 60), ['forecast_history']);
}

export async function collectionOps(rec: Recorder, c: SdkClient): Promise<void> {
  const mv = c.multivariate;
  await rec.ok('getMultivariateEventCollections', mv.getMultivariateEventCollections(), ['multivariate_contracts']);
  const cross = await rec.ok('getMultivariateEventCollection', mv.getMultivariateEventCollection('KXMVECROSS'));
  // one open market in each of two associated events, YES legs
  const legs = [];
  for (const ev of cross.multivariate_contract.associated_events.slice(0, 2)) {
    const evRes = await c.events.getEvent(ev.ticker, true);
    const open = (evRes.data.markets ?? []).find((x) => (x.status as string) === 'open' || x.status === 'active');
    if (!open) throw new Error(`no open market in ${ev.ticker}`);
    legs.push({ event_ticker: ev.ticker, market_ticker: open.ticker, side: 'yes' as const });
  }
  await rec.ok('createMarketInMultivariateEventCollection', mv.createMarketInMultivariateEventCollection('KXMVECROSS', { selected_markets: legs, with_market_payload: true }));
  const st = c.structuredTargets;
  const targets = await rec.ok('getStructuredTargets', st.getStructuredTargets(undefined, undefined, undefined, 100), ['structured_targets']);
  for (const x of targets.structured_targets ?? []) await rec.ok('getStructuredTarget', st.getStructuredTarget(str(x, 'id')));
}

export async function historicalOps(rec: Recorder, c: SdkClient, f: PublicFacts): Promise<void> {
  const h = c.historical;
  await rec.ok('getHistoricalCutoff', h.getHistoricalCutoff());
  await rec.ok('getHistoricalMarkets', h.getHistoricalMarkets(1000), ['markets']);
  await rec.ok('getHistoricalMarket', h.getHistoricalMarket(f.archivedTicker));
  const end = nowSec() - 30 * DAY;
  await rec.ok('getMarketCandlesticksHistorical', h.getMarketCandlesticksHistorical(f.archivedTicker, end - 15 * DAY, end, 60), ['candlesticks']);
  await rec.ok('getTradesHistorical', h.getTradesHistorical(undefined, undefined, undefined, 200), ['trades']);
  await rec.ok('getFillsHistorical', h.getFillsHistorical(), ['fills']);
  await rec.ok('getHistoricalOrders', h.getHistoricalOrders(), ['orders']);
  await rec.ok('getHistoricalPositions', h.getHistoricalPositions(), ['market_positions', 'event_positions']);
}

export async function liveDataOps(rec: Recorder, c: SdkClient, milestones: { id: string; type: string; related_event_tickers: string[] }[]): Promise<void> {
  const l = c.liveData;
  if (milestones.length === 0) throw new Error('the seeded catalog has no milestones');
  for (const ms of milestones) {
    await rec.ok('getLiveDataByMilestone', l.getLiveDataByMilestone(ms.id, true));
    await rec.ok('getLiveData', l.getLiveData(ms.type, ms.id));
    await rec.ok('getGameStats', l.getGameStats(ms.id));
    await rec.ok('getEventLiveData', l.getEventLiveData(ms.related_event_tickers[0]!));
  }
  await rec.ok('getLiveDatas', l.getLiveDatas(milestones.map((m) => m.id), true), ['live_datas']);
  await rec.ok('getWeatherIndex', l.getWeatherIndex('nyc', undefined, undefined, 600), ['timeseries']);
  await rec.ok('getWeatherIndex', l.getWeatherIndex('nyc', undefined, undefined, 300, true), ['timeseries']);
  await rec.ok('getWeatherIndexCalibrations', l.getWeatherIndexCalibrations('nyc'), ['calibrations']);
}

/**
 * The SDK's operations beyond the spec's 112 (docs/spec/protocol-notes.md: "welcome but not required").
 * This exchange does not provide them: each must answer 404 with the error body.
 */
export const NOT_PROVIDED = [
  'getIncentivePrograms', // GET /incentive_programs
  'getMilestones', // GET /milestones
  'getMilestone', // GET /milestones/{milestone_id}
  'getFiltersForSports', // GET /search/filters_by_sport
  'getTagsForSeriesCategories', // GET /search/tags_by_categories
  'intraExchangeInstanceTransfer', // POST /portfolio/intra_exchange_instance_transfer (margin product surface)
] as const;

export async function notProvidedOps(rec: Recorder, c: SdkClient, milestoneId: string): Promise<void> {
  await rec.notProvided('getIncentivePrograms', c.incentivePrograms.getIncentivePrograms());
  await rec.notProvided('getMilestones', c.milestone.getMilestones(10));
  await rec.notProvided('getMilestone', c.milestone.getMilestone(milestoneId));
  await rec.notProvided('getFiltersForSports', c.search.getFiltersForSports());
  await rec.notProvided('getTagsForSeriesCategories', c.search.getTagsForSeriesCategories());
  await rec.notProvided('intraExchangeInstanceTransfer', c.portfolio.intraExchangeInstanceTransfer({ source: 'event_contract', destination: 'margined', amount: 100 }));
}
