// Series, events, event metadata, fee changes, event candlesticks, forecast history,
// multivariate collections (incl. create-market-in-collection) and structured targets.
// Part of the market-data family (see ./market-data).
import type { z } from 'zod';
import type { MarketView } from '../engine/types';
import { invalidParameters, notFound } from '../core/errors';
import type { ForecastQuery, GetEventsQuery, StructuredTargetsQuery } from '../../src-shared/endpoints/series-events';
import type { CreateMarketInCollectionRequest } from '../../src-shared/wire/events';
import {
  collectionStatus,
  eventStatusOf,
  isArchivedMarket,
  makerFeeText,
  marketCloseMs,
  multiplierNumber,
  takerFeeText,
  type CatalogState,
  type CollectionRecord,
  type EventRecord,
  type MilestoneRecord,
  type StructuredTargetRecord,
} from '../state/catalog';
import { forecastValue } from '../sim/livedata';
import { caller, pageAfterSortKey, pageOf, type HandlerFamily, type HandlerMap } from './support';
import { run, type Services } from '../core/services';
import { buildCandles, MAX_CANDLES, periodEnds } from './candles';
import { iso, presentEvent, presentMarket, presentSeries, sec } from './present-market';
import { readsOf, type Reads } from './reads';

type EventsQuery = z.output<typeof GetEventsQuery>;

/** Markets of each event (engine order), computed once per request. */
function marketsByEvent(reads: Reads): Map<string, MarketView[]> {
  const out = new Map<string, MarketView[]>();
  for (const m of reads.engine().listMarkets()) {
    const list = out.get(m.event_ticker);
    if (list) list.push(m);
    else out.set(m.event_ticker, [m]);
  }
  return out;
}

function eventOf(cat: CatalogState, ticker: string): EventRecord {
  const ev = cat.events[ticker];
  if (!ev) throw notFound(`event ${ticker}`);
  return ev;
}

function presentMilestone(m: MilestoneRecord) {
  return {
    id: m.id,
    category: m.category,
    type: m.type,
    title: m.title,
    notification_message: m.notification_message,
    start_date: iso(m.start_ms),
    end_date: m.end_ms === null ? null : iso(m.end_ms),
    related_event_tickers: [...m.related_event_tickers],
    primary_event_tickers: [...m.primary_event_tickers],
    details: m.details,
    source_id: m.source_id,
    last_updated_ts: sec(m.updated_ms),
  };
}

function presentCollection(c: CollectionRecord, nowMs: number) {
  return {
    collection_ticker: c.collection_ticker,
    series_ticker: c.series_ticker,
    title: c.title,
    description: c.description,
    exchange_index: 0,
    status: collectionStatus(c, nowMs),
    open_date: iso(c.open_ms),
    close_date: iso(c.close_ms),
    associated_events: c.associated_events.map((a) => ({ ...a, active_quoters: [] })),
    associated_event_tickers: c.associated_events.map((a) => a.ticker),
    is_ordered: c.is_ordered,
    is_single_market_per_event: c.is_single_market_per_event,
    is_all_yes: c.is_all_yes,
    size_min: c.size_min,
    size_max: c.size_max,
    functional_description: c.functional_description,
  };
}

function presentTarget(t: StructuredTargetRecord) {
  return {
    structured_target_id: t.id,
    id: t.id,
    name: t.name,
    type: t.type,
    competition: t.competition,
    details: t.details,
    // optional and not nullable in the SDK's StructuredTarget: left out when there is none
    ...(t.source_id !== null && t.source_id !== undefined ? { source_id: t.source_id } : {}),
    source_ids: { ...t.source_ids },
    last_updated_ts: sec(t.updated_ms),
  };
}

/** Whether a target plays in a competition: its own, or a league/conference/division/tour in its details. */
function inCompetition(t: StructuredTargetRecord, competition: string): boolean {
  const d = t.details;
  const named = [t.competition, d.league, d.conference, d.division, d.tour].filter((x) => typeof x === 'string');
  const leagues = Array.isArray(d.leagues) ? d.leagues.filter((x) => typeof x === 'string') : [];
  return [...named, ...leagues].includes(competition);
}

/** The series and event routes, in four families that share the event views below. */
export const seriesEventHandlers: HandlerFamily = (svc) => {
  const reads = readsOf(svc);
  const views = eventViews(reads);
  return { ...seriesHandlers(reads), ...eventReadHandlers(reads, views), ...eventHistoryHandlers(svc, reads, views), ...collectionHandlers(svc, reads, views) };
};

type EventViews = ReturnType<typeof eventViews>;

/** Markets of an event that are still live, presented markets, and the event lists. */
function eventViews(reads: Reads) {
  const liveMarketsOf = (byEvent: Map<string, MarketView[]>, ev: string, nowMs: number) => {
    const cut = reads.cutoffs(nowMs);
    return (byEvent.get(ev) ?? []).filter((m) => !isArchivedMarket(m, cut));
  };
  const present = (markets: readonly MarketView[], nowMs: number) =>
    markets.map((m) => presentMarket(reads.engine(), reads.cat(), m, reads.tapes.tape(m.ticker), nowMs));

  function listEvents(q: EventsQuery, nowMs: number, multivariate: boolean) {
    const cat = reads.cat();
    const byEvent = marketsByEvent(reads);
    const tickers = q.tickers ? new Set(q.tickers) : undefined;
    // each event with its place in the catalog's event order (append-only): pages are keyed by it,
    // so an event leaving the filter between a client's pages (its markets' status) hides none
    const places = new Map(cat.eventOrder.map((t, i) => [t, i]));
    const all = cat.eventOrder
      .map((t) => cat.events[t]!)
      .filter((ev) => {
        const mve = ev.collection_ticker !== null;
        if (q.collection_ticker !== undefined) {
          if (ev.collection_ticker !== q.collection_ticker) return false;
        } else if (mve !== multivariate) return false;
        if (q.series_ticker !== undefined && ev.series_ticker !== q.series_ticker) return false;
        if (tickers && !tickers.has(ev.event_ticker)) return false;
        const markets = byEvent.get(ev.event_ticker) ?? [];
        if (q.status !== undefined && eventStatusOf(markets.map((m) => m.status)) !== q.status) return false;
        if (q.min_close_ts !== undefined && !markets.some((m) => sec(marketCloseMs(m, cat.markets[m.ticker])) > q.min_close_ts!)) return false;
        if (q.min_updated_ts !== undefined && sec(ev.updated_ms) < q.min_updated_ts) return false;
        return true;
      });
    const page = pageAfterSortKey(all, q.cursor, q.limit, (ev) => [places.get(ev.event_ticker)!]);
    const events = page.items.map((ev) => {
      const markets = byEvent.get(ev.event_ticker) ?? [];
      const status = eventStatusOf(markets.map((m) => m.status));
      return presentEvent(ev, status, q.with_nested_markets ? present(liveMarketsOf(byEvent, ev.event_ticker, nowMs), nowMs) : undefined);
    });
    const out: Record<string, unknown> = { events, cursor: page.cursor, has_next: page.has_next };
    if (q.with_milestones) {
      const ids = [...new Set(page.items.flatMap((ev) => ev.milestone_ids))];
      out.milestones = ids.flatMap((id) => (cat.milestones[id] ? [presentMilestone(cat.milestones[id])] : []));
    }
    return out;
  }

  return { liveMarketsOf, present, listEvents };
}

function seriesHandlers(reads: Reads): HandlerMap {
  return {
    getSeriesList: (ctx) => {
      const q = ctx.query as { category?: string; tags?: string; include_product_metadata?: boolean; include_volume?: boolean; min_updated_ts?: number };
      const cat = reads.cat();
      const wanted = q.tags?.split(',').map((t) => t.trim()).filter(Boolean);
      const volumes = q.include_volume ? seriesVolumes(reads) : undefined;
      // the spec's form: a plain array
      return cat.seriesOrder
        .map((t) => cat.series[t]!)
        .filter((s) => q.category === undefined || s.category === q.category || s.categories.includes(q.category))
        .filter((s) => !wanted || wanted.some((t) => s.tags.includes(t)))
        .filter((s) => q.min_updated_ts === undefined || sec(s.updated_ms) >= q.min_updated_ts)
        .map((s) => presentSeries(s, { productMetadata: q.include_product_metadata === true, ...(volumes ? { volumeCenti: volumes.get(s.ticker) ?? 0 } : {}) }));
    },

    getSeries: (ctx) => {
      const s = reads.cat().series[ctx.params.series_ticker!];
      if (!s) throw notFound(`series ${ctx.params.series_ticker}`);
      const q = ctx.query as { include_volume?: boolean };
      return { series: presentSeries(s, { productMetadata: true, ...(q.include_volume ? { volumeCenti: seriesVolumes(reads).get(s.ticker) ?? 0 } : {}) }) };
    },

    getSeriesFeeChanges: (ctx) => {
      const q = ctx.query as { series_ticker?: string; show_historical?: boolean };
      const cat = reads.cat();
      if (q.series_ticker !== undefined && !cat.series[q.series_ticker]) throw notFound(`series ${q.series_ticker}`);
      return cat.seriesFeeChanges
        .filter((c) => q.series_ticker === undefined || c.series_ticker === q.series_ticker)
        .filter((c) => q.show_historical === true || c.effective_ms > ctx.nowMs)
        .sort((a, b) => a.effective_ms - b.effective_ms)
        .map((c) => ({
          id: c.id,
          series_ticker: c.series_ticker,
          fee_type: c.fee_type,
          fee_multiplier: multiplierNumber(c.fee_multiplier_e4),
          effective_ts: sec(c.effective_ms),
          scheduled_ts: sec(c.effective_ms),
          maker_fee: makerFeeText(c.fee_type, c.fee_multiplier_e4),
          taker_fee: takerFeeText(c.fee_multiplier_e4),
        }));
    },
  };
}

function eventHistoryHandlers(svc: Services, reads: Reads, { liveMarketsOf }: EventViews): HandlerMap {
  return {
    getEventCandlesticks: (ctx) => {
      const ev = eventOf(reads.cat(), ctx.params.ticker!);
      if (ev.series_ticker !== ctx.params.series_ticker) throw notFound(`event ${ev.event_ticker} in series ${ctx.params.series_ticker}`);
      const q = ctx.query as { start_ts: number; end_ts: number; period_interval: number };
      const markets = liveMarketsOf(marketsByEvent(reads), ev.event_ticker, ctx.nowMs);
      if (q.end_ts < q.start_ts) throw invalidParameters('end_ts must not be before start_ts');
      // over the limit the range is cut short and adjusted_end_ts says where it ended
      const longest = Math.max(0, ...markets.map((m) => periodEnds(m, q, ctx.nowMs).count));
      const perMarket = markets.length > 0 ? Math.floor(MAX_CANDLES / markets.length) : MAX_CANDLES;
      let adjustedEnd = q.end_ts;
      if (longest > perMarket) {
        const firsts = markets.map((m) => periodEnds(m, q, ctx.nowMs).first);
        adjustedEnd = Math.min(...firsts) + (perMarket - 1) * q.period_interval;
      }
      const range = { ...q, end_ts: adjustedEnd };
      return {
        market_tickers: markets.map((m) => m.ticker),
        market_candlesticks: markets.map((m) => buildCandles(reads.tapes, m, range, ctx.nowMs, { maxCount: perMarket })),
        adjusted_end_ts: adjustedEnd,
      };
    },

    getForecastPercentileHistory: (ctx) => {
      caller(ctx);
      const ev = eventOf(reads.cat(), ctx.params.ticker!);
      if (ev.series_ticker !== ctx.params.series_ticker) throw notFound(`event ${ev.event_ticker} in series ${ctx.params.series_ticker}`);
      if (!ev.forecast) throw notFound(`forecast history of event ${ev.event_ticker} (it has no numeric forecast)`);
      const q = ctx.query as z.output<typeof ForecastQuery>;
      if (q.percentiles.length > 10) throw invalidParameters('percentiles takes at most 10 values');
      if (q.end_ts < q.start_ts) throw invalidParameters('end_ts must not be before start_ts');
      const step = q.period_interval === 0 ? 5 : q.period_interval;
      const first = Math.ceil(Math.max(q.start_ts, sec(ev.created_ms)) / step) * step;
      const last = Math.floor(Math.min(q.end_ts, sec(ctx.nowMs)) / step) * step;
      const periods = last >= first ? (last - first) / step + 1 : 0;
      if (periods * q.percentiles.length > MAX_CANDLES) {
        throw invalidParameters(`the request spans ${periods * q.percentiles.length} points; at most ${MAX_CANDLES}: narrow the range or use a longer period_interval`);
      }
      const points: Record<string, unknown>[] = [];
      const sdkMinutes = q.period_interval === 0 ? 0 : step / 60;
      for (let ts = first; ts <= last; ts += step) {
        for (const p of q.percentiles) {
          const value = forecastValue(svc.seed, ev.event_ticker, ev.forecast, p, ts * 1000);
          const formatted = `${value.toFixed(ev.forecast.decimals)}${ev.forecast.unit}`;
          points.push({
            ts,
            percentile: p,
            value,
            formatted_value: formatted,
            event_ticker: ev.event_ticker,
            // the same point in the SDK's ForecastPercentilesPoint names (one percentile each)
            end_period_ts: ts,
            period_interval: sdkMinutes,
            percentile_points: [{ percentile: p, raw_numerical_forecast: value, numerical_forecast: value, formatted_forecast: formatted }],
          });
        }
      }
      // the spec's form: a plain array of { ts, percentile, value } (the SDK wraps it in forecast_history)
      return points;
    },
  };
}

function eventReadHandlers(reads: Reads, { liveMarketsOf, present, listEvents }: EventViews): HandlerMap {
  return {
    getEvents: (ctx) => listEvents(ctx.query as EventsQuery, ctx.nowMs, false),
    getMultivariateEvents: (ctx) => listEvents(ctx.query as EventsQuery, ctx.nowMs, true),

    getEvent: (ctx) => {
      const ev = eventOf(reads.cat(), ctx.params.event_ticker!);
      const byEvent = marketsByEvent(reads);
      const all = byEvent.get(ev.event_ticker) ?? [];
      const markets = present(liveMarketsOf(byEvent, ev.event_ticker, ctx.nowMs), ctx.nowMs);
      const nested = (ctx.query as { with_nested_markets?: boolean }).with_nested_markets === true;
      return { event: presentEvent(ev, eventStatusOf(all.map((m) => m.status)), nested ? markets : undefined), markets };
    },

    getEventMetadata: (ctx) => {
      const ev = eventOf(reads.cat(), ctx.params.event_ticker!);
      return {
        image_url: ev.image_url,
        featured_image_url: ev.featured_image_url,
        // kept null when the catalog has none: readers treat a null list as empty
        market_details: ev.market_details === null ? null : ev.market_details.map((d) => ({ ...d })),
        settlement_sources: ev.settlement_sources.map((s) => ({ ...s })),
        tags: [...ev.tags],
        categories: [...ev.categories],
        competition: ev.competition,
        competition_scope: ev.competition_scope,
      };
    },

    getEventFeeChanges: (ctx) => {
      const q = ctx.query as { event_ticker?: string; limit?: number; cursor?: string };
      const cat = reads.cat();
      if (q.event_ticker !== undefined) eventOf(cat, q.event_ticker);
      const all = cat.eventFeeChanges.filter((c) => q.event_ticker === undefined || c.event_ticker === q.event_ticker).reverse();
      const page = pageOf(all, q.cursor, q.limit);
      return {
        event_fee_changes: page.items.map((c) => ({
          id: c.id,
          event_ticker: c.event_ticker,
          series_ticker: c.series_ticker,
          fee_type_override: c.fee_type_override,
          fee_multiplier_override: c.fee_multiplier_override_e4 === null ? null : multiplierNumber(c.fee_multiplier_override_e4),
          scheduled_ts: sec(c.effective_ms),
          effective_ts: sec(c.effective_ms),
        })),
        cursor: page.cursor,
        has_next: page.has_next,
      };
    },
  };
}

function collectionHandlers(svc: Services, reads: Reads, { present }: EventViews): HandlerMap {
  return {
    getMultivariateCollections: (ctx) => {
      const q = ctx.query as { status?: 'unopened' | 'open' | 'closed'; series_ticker?: string; associated_event_ticker?: string; limit?: number; cursor?: string };
      const cat = reads.cat();
      const all = cat.collectionOrder
        .map((t) => cat.collections[t]!)
        .filter((c) => q.status === undefined || collectionStatus(c, ctx.nowMs) === q.status)
        .filter((c) => q.series_ticker === undefined || c.series_ticker === q.series_ticker)
        .filter((c) => q.associated_event_ticker === undefined || c.associated_events.some((a) => a.ticker === q.associated_event_ticker));
      const page = pageOf(all, q.cursor, q.limit);
      return { multivariate_contracts: page.items.map((c) => presentCollection(c, ctx.nowMs)), cursor: page.cursor, has_next: page.has_next };
    },

    getMultivariateCollection: (ctx) => {
      const c = reads.cat().collections[ctx.params.ticker!];
      if (!c) throw notFound(`multivariate collection ${ctx.params.ticker}`);
      return { multivariate_contract: presentCollection(c, ctx.nowMs) };
    },

    createMarketInCollection: async (ctx) => {
      caller(ctx);
      const body = ctx.body as z.output<typeof CreateMarketInCollectionRequest>;
      const r = await run<{ market_ticker: string; event_ticker: string }>(svc, {
        type: 'catalogCreateMarketInCollection',
        nowMs: svc.node.now(),
        collection_ticker: ctx.params.ticker!,
        selected_markets: body.selected_markets,
      });
      const out: Record<string, unknown> = { market_ticker: r.market_ticker, event_ticker: r.event_ticker };
      if (body.with_market_payload) {
        const m = reads.engine().getMarket(r.market_ticker)!;
        out.market = present([m], ctx.nowMs)[0];
      }
      return out;
    },

    getStructuredTargets: (ctx) => {
      const q = ctx.query as z.output<typeof StructuredTargetsQuery>;
      const cat = reads.cat();
      const ids = q.ids ? new Set(q.ids) : undefined;
      const all = cat.structuredTargetOrder
        .map((id) => cat.structuredTargets[id]!)
        .filter((t) => !ids || ids.has(t.id))
        .filter((t) => q.type === undefined || t.type === q.type)
        .filter((t) => q.competition === undefined || inCompetition(t, q.competition));
      const page = pageOf(all, q.cursor, q.page_size);
      return { structured_targets: page.items.map(presentTarget), cursor: page.cursor, has_next: page.has_next };
    },

    getStructuredTarget: (ctx) => {
      const t = reads.cat().structuredTargets[ctx.params.id!];
      if (!t) throw notFound(`structured target ${ctx.params.id}`);
      return { structured_target: presentTarget(t) };
    },
  };
}

/** Contracts traded per series (centi), over live and archived markets. */
function seriesVolumes(reads: Reads): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of reads.engine().listMarkets()) out.set(m.series_ticker, (out.get(m.series_ticker) ?? 0) + m.volume);
  return out;
}
