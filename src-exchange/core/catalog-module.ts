// The catalog domain module: series, events, market metadata, fee schedules and overrides,
// multivariate collections, structured targets and milestones (state in state/catalog.ts).
// Commands that touch markets drive the engine inside the same command (addMarket, openMarket,
// updateMarketFees, lifecycle), so catalog and engine change together in one journal record.
import type { Engine } from '../engine/engine';
import type { Command as EngineCommand, FeeType, MarketResult } from '../engine/types';
import { fail, type DomainCtx, type DomainModule, type DomainResult } from '../state/domain';
import {
  CATALOG,
  effectiveFee,
  emptyCatalog,
  multiplierText,
  type CatalogState,
  type EventRecord,
  type MarketMetaRecord,
  type SeriesRecord,
} from '../state/catalog';
import {
  feeType,
  InputError,
  ms,
  multiplier,
  readCollection,
  readEvent,
  readLegs,
  readMarket,
  readMarketPatch,
  readMilestone,
  readSeries,
  readStructuredTarget,
  ticker,
} from '../state/catalog-input';

export type LifecycleAction = 'open' | 'pause' | 'close' | 'determine' | 'settle';

export type CatalogCommand =
  | { type: 'catalogUpsertSeries'; nowMs: number; series: unknown }
  | { type: 'catalogScheduleSeriesFeeChange'; nowMs: number; id: string; series_ticker: string; fee_type: FeeType; fee_multiplier: string; effective_ms: number }
  | { type: 'catalogApplyDueFeeChanges'; nowMs: number }
  | { type: 'catalogUpsertEvent'; nowMs: number; event: unknown }
  | { type: 'catalogCreateMarket'; nowMs: number; market: unknown; open?: boolean }
  | { type: 'catalogUpdateMarket'; nowMs: number; ticker: string; patch: unknown }
  | { type: 'catalogMarketLifecycle'; nowMs: number; ticker: string; action: LifecycleAction; result?: MarketResult; resume_at_ms?: number }
  | { type: 'catalogSetEventFeeOverride'; nowMs: number; id: string; event_ticker: string; fee_type_override: FeeType | null; fee_multiplier_override: string | null }
  | { type: 'catalogUpsertCollection'; nowMs: number; collection: unknown }
  | { type: 'catalogCreateMarketInCollection'; nowMs: number; collection_ticker: string; selected_markets: unknown }
  | { type: 'catalogUpsertStructuredTarget'; nowMs: number; target: unknown }
  | { type: 'catalogUpsertMilestone'; nowMs: number; milestone: unknown };

export const CATALOG_COMMANDS = [
  'catalogUpsertSeries',
  'catalogScheduleSeriesFeeChange',
  'catalogApplyDueFeeChanges',
  'catalogUpsertEvent',
  'catalogCreateMarket',
  'catalogUpdateMarket',
  'catalogMarketLifecycle',
  'catalogSetEventFeeOverride',
  'catalogUpsertCollection',
  'catalogCreateMarketInCollection',
  'catalogUpsertStructuredTarget',
  'catalogUpsertMilestone',
] as const satisfies readonly CatalogCommand['type'][];

/** An accepted command with its result fields. */
const done = (fields: Record<string, unknown> = {}): DomainResult => ({ ok: true, ...fields }) as DomainResult;
const notFound = (what: string) => fail('not_found', `${what} not found`, 404);
const invalid = (message: string) => fail('invalid_parameters', message, 400);

/** Runs an engine command that the module has already checked; forwards its events. */
function drive(ctx: DomainCtx, cmd: EngineCommand): void {
  const r = ctx.engine.apply(cmd);
  for (const e of r.events) ctx.emit(e);
  if (!r.ok) throw new Error(`catalog: engine refused a checked ${cmd.type}: ${r.message}`);
}

const FEE_UPDATABLE = new Set(['unopened', 'open', 'paused', 'closed', 'determined']);

/** Puts a fee on every market of the event that is not settled and does not already have it. */
function feeEventMarkets(ctx: DomainCtx, eventTicker: string, fee: { feeType: FeeType; feeMultiplierE4: number }, nowMs: number): void {
  for (const m of ctx.engine.listMarkets({ eventTicker })) {
    if (!FEE_UPDATABLE.has(m.status)) continue;
    if (m.fee_type === fee.feeType && m.fee_multiplier === fee.feeMultiplierE4) continue;
    drive(ctx, { type: 'updateMarketFees', nowMs, ticker: m.ticker, feeType: fee.feeType, feeMultiplierE4: fee.feeMultiplierE4 });
  }
}

/** A series' fee reaches every market of it whose event has no override. */
function feeSeriesMarkets(st: CatalogState, ctx: DomainCtx, series: SeriesRecord, nowMs: number): void {
  const events = new Set<string>();
  for (const m of ctx.engine.listMarkets({ seriesTicker: series.ticker })) events.add(m.event_ticker);
  for (const ev of events) {
    const rec = st.events[ev];
    if (rec && rec.fee_type_override !== null) continue;
    feeEventMarkets(ctx, ev, { feeType: series.fee_type, feeMultiplierE4: series.fee_multiplier_e4 }, nowMs);
  }
}

function applyDueSeriesFees(st: CatalogState, ctx: DomainCtx, nowMs: number): number {
  let applied = 0;
  const due = st.seriesFeeChanges.filter((c) => !c.applied && c.effective_ms <= nowMs).sort((a, b) => a.effective_ms - b.effective_ms);
  for (const c of due) {
    const series = st.series[c.series_ticker];
    c.applied = true;
    applied++;
    if (!series) continue;
    series.fee_type = c.fee_type;
    series.fee_multiplier_e4 = c.fee_multiplier_e4;
    series.updated_ms = nowMs;
    feeSeriesMarkets(st, ctx, series, nowMs);
  }
  return applied;
}

function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const hex = (n: number) => n.toString(16).toUpperCase().padStart(8, '0');

/** Ticker of the market a leg selection names: the same legs always give the same market. */
export function comboTickers(collection: string, legs: readonly { event_ticker: string; market_ticker: string; side: string }[], ordered: boolean) {
  const keyed = legs.map((l) => `${l.event_ticker}/${l.market_ticker}/${l.side}`);
  const key = (ordered ? keyed : [...keyed].sort()).join('|');
  const eventTicker = `${collection}-S${hex(hash32(key.replace(/\/(yes|no)(?=\||$)/g, '')))}`;
  return { eventTicker, marketTicker: `${eventTicker}-${hex(hash32(key))}` };
}

function createMarketInCollection(st: CatalogState, cmd: Extract<CatalogCommand, { type: 'catalogCreateMarketInCollection' }>, ctx: DomainCtx): DomainResult {
  const c = st.collections[cmd.collection_ticker];
  if (!c) return notFound(`multivariate collection ${cmd.collection_ticker}`);
  if (cmd.nowMs < c.open_ms || cmd.nowMs >= c.close_ms) return invalid(`collection ${c.collection_ticker} is not open`);
  const legs = readLegs(cmd.selected_markets);
  if (legs.length < c.size_min || legs.length > c.size_max) return invalid(`collection ${c.collection_ticker} takes ${c.size_min}-${c.size_max} legs, got ${legs.length}`);
  const seenEvents = new Set<string>();
  const seenMarkets = new Set<string>();
  let closeMs = c.close_ms;
  for (const leg of legs) {
    const assoc = c.associated_events.find((a) => a.ticker === leg.event_ticker);
    if (!assoc) return invalid(`event ${leg.event_ticker} is not part of collection ${c.collection_ticker}`);
    if (c.is_single_market_per_event && seenEvents.has(leg.event_ticker)) return invalid(`collection ${c.collection_ticker} takes one market per event (${leg.event_ticker} twice)`);
    if (seenMarkets.has(leg.market_ticker)) return invalid(`market ${leg.market_ticker} is selected twice`);
    if ((c.is_all_yes || assoc.is_yes_only) && leg.side !== 'yes') return invalid(`leg ${leg.market_ticker} must be on the yes side`);
    const m = ctx.engine.getMarket(leg.market_ticker);
    if (!m || m.event_ticker !== leg.event_ticker) return invalid(`market ${leg.market_ticker} is not a market of event ${leg.event_ticker}`);
    if (m.status !== 'open' && m.status !== 'unopened' && m.status !== 'paused') return invalid(`leg market ${leg.market_ticker} is ${m.status}`);
    seenEvents.add(leg.event_ticker);
    seenMarkets.add(leg.market_ticker);
    const legClose = st.markets[leg.market_ticker]?.close_ms ?? (m.close_time > 0 ? m.close_time * 1000 : closeMs);
    closeMs = Math.min(closeMs, legClose);
  }
  const series = st.series[c.series_ticker];
  if (!series) return invalid(`collection series ${c.series_ticker} is not in the catalog`);
  const { eventTicker, marketTicker } = comboTickers(c.collection_ticker, legs, c.is_ordered);
  if (ctx.engine.getMarket(marketTicker)) return done({ market_ticker: marketTicker, event_ticker: eventTicker, created: false });

  const legTitles = legs.map((l) => `${l.side === 'yes' ? '' : 'not '}${st.markets[l.market_ticker]?.yes_sub_title || l.market_ticker}`);
  const title = legTitles.join(', ').slice(0, 1000);
  // Build both records first (they may still refuse the input), then change state.
  const newEvent = st.events[eventTicker]
    ? undefined
    : readEvent(
        { event_ticker: eventTicker, series_ticker: c.series_ticker, title: `${c.title}: ${title}`, sub_title: `${legs.length} legs`, category: series.category, collection_ticker: c.collection_ticker },
        cmd.nowMs,
        undefined,
      );
  const meta = readMarket(
    { ticker: marketTicker, event_ticker: eventTicker, title, yes_sub_title: title, no_sub_title: `Not all of: ${title}`, open_ms: cmd.nowMs, close_ms: Math.max(closeMs, cmd.nowMs), strike_type: 'custom', rules_primary: `Resolves Yes if every leg resolves as selected: ${title}.` },
    c.series_ticker,
    cmd.nowMs,
  );
  meta.mve_collection_ticker = c.collection_ticker;
  meta.mve_selected_legs = legs;
  if (newEvent) {
    st.events[eventTicker] = newEvent;
    st.eventOrder.push(eventTicker);
  }
  const ev = st.events[eventTicker]!;
  const fee = effectiveFee(st, eventTicker)!;
  drive(ctx, { type: 'addMarket', nowMs: cmd.nowMs, ticker: marketTicker, eventTicker, seriesTicker: c.series_ticker, title, feeType: fee.feeType, feeMultiplierE4: fee.feeMultiplierE4, openTime: Math.floor(meta.open_ms / 1000), closeTime: Math.floor(meta.close_ms / 1000), priceLevelStructure: meta.price_level_structure });
  drive(ctx, { type: 'openMarket', nowMs: cmd.nowMs, ticker: marketTicker });
  st.markets[marketTicker] = meta;
  ev.markets.push(marketTicker);
  ev.updated_ms = cmd.nowMs;
  return done({ market_ticker: marketTicker, event_ticker: eventTicker, created: true });
}

function lifecycle(st: CatalogState, cmd: Extract<CatalogCommand, { type: 'catalogMarketLifecycle' }>, ctx: DomainCtx): DomainResult {
  const t = ticker(cmd.ticker, 'ticker');
  const engineCmd: EngineCommand | undefined =
    cmd.action === 'open' ? { type: 'openMarket', nowMs: cmd.nowMs, ticker: t }
    : cmd.action === 'pause' ? { type: 'pauseMarket', nowMs: cmd.nowMs, ticker: t }
    : cmd.action === 'close' ? { type: 'closeMarket', nowMs: cmd.nowMs, ticker: t }
    : cmd.action === 'determine' ? { type: 'determineMarket', nowMs: cmd.nowMs, ticker: t, result: cmd.result as MarketResult }
    : cmd.action === 'settle' ? { type: 'settleMarket', nowMs: cmd.nowMs, ticker: t }
    : undefined;
  if (!engineCmd) return invalid('action must be open, pause, close, determine or settle');
  const r = ctx.engine.apply(engineCmd);
  for (const e of r.events) ctx.emit(e);
  if (!r.ok) {
    if (r.mutated) ctx.markMutated();
    return fail(r.code, r.message, r.code === 'not_found' ? 404 : 400);
  }
  const meta = st.markets[t];
  if (meta) {
    meta.updated_ms = cmd.nowMs;
    if (cmd.action === 'pause') meta.resume_at_ms = typeof cmd.resume_at_ms === 'number' ? cmd.resume_at_ms : null;
    else if (cmd.action === 'open') meta.resume_at_ms = null;
  }
  return done({ status: r.market.status });
}

function setEventFeeOverride(st: CatalogState, cmd: Extract<CatalogCommand, { type: 'catalogSetEventFeeOverride' }>, ctx: DomainCtx): DomainResult {
  const ev = st.events[cmd.event_ticker];
  if (!ev) return notFound(`event ${cmd.event_ticker}`);
  const id = ticker(cmd.id, 'id');
  if (st.eventFeeChanges.some((c) => c.id === id)) return fail('conflict', `event fee change ${id} exists`, 409);
  const cleared = cmd.fee_type_override === null && cmd.fee_multiplier_override === null;
  if (!cleared && (cmd.fee_type_override === null || cmd.fee_multiplier_override === null)) {
    return invalid('fee_type_override and fee_multiplier_override are set together (both null clears the override)');
  }
  const type = cleared ? null : feeType(cmd.fee_type_override, 'fee_type_override');
  const mult = cleared ? null : multiplier(cmd.fee_multiplier_override, 'fee_multiplier_override');
  if (!st.series[ev.series_ticker]) return invalid(`series ${ev.series_ticker} of event ${ev.event_ticker} is not in the catalog`);
  ev.fee_type_override = type;
  ev.fee_multiplier_override_e4 = mult;
  ev.updated_ms = cmd.nowMs;
  st.eventFeeChanges.push({ id, event_ticker: ev.event_ticker, series_ticker: ev.series_ticker, fee_type_override: type, fee_multiplier_override_e4: mult, effective_ms: cmd.nowMs });
  feeEventMarkets(ctx, ev.event_ticker, effectiveFee(st, ev.event_ticker)!, cmd.nowMs);
  ctx.emit({
    type: 'domain',
    channel: 'market_lifecycle_v2',
    audience: 'public',
    kind: 'event_fee_update',
    payload: {
      event_type: 'event_fee_update',
      event_ticker: ev.event_ticker,
      series_ticker: ev.series_ticker,
      fee_type_override: type,
      fee_multiplier_override: mult === null ? null : multiplierText(mult),
      ts: Math.floor(cmd.nowMs / 1000),
    },
  });
  return done();
}

/** A market in an event of the catalog, added to the engine (and opened when asked) with its series' fee. */
function createMarket(st: CatalogState, cmd: Extract<CatalogCommand, { type: 'catalogCreateMarket' }>, ctx: DomainCtx, nowMs: number): DomainResult {
  const evTicker = ticker((cmd.market as { event_ticker?: unknown })?.event_ticker, 'market.event_ticker');
  const ev = st.events[evTicker];
  if (!ev) return notFound(`event ${evTicker}`);
  const meta = readMarket(cmd.market, ev.series_ticker, nowMs);
  if (st.markets[meta.ticker] || ctx.engine.getMarket(meta.ticker)) return fail('conflict', `market ${meta.ticker} exists`, 409);
  const fee = effectiveFee(st, evTicker);
  if (!fee) return invalid(`series ${ev.series_ticker} is not in the catalog`);
  drive(ctx, { type: 'addMarket', nowMs, ticker: meta.ticker, eventTicker: evTicker, seriesTicker: ev.series_ticker, title: meta.title, feeType: fee.feeType, feeMultiplierE4: fee.feeMultiplierE4, openTime: Math.floor(meta.open_ms / 1000), closeTime: Math.floor(meta.close_ms / 1000), priceLevelStructure: meta.price_level_structure });
  if (cmd.open === true) drive(ctx, { type: 'openMarket', nowMs, ticker: meta.ticker });
  st.markets[meta.ticker] = meta;
  ev.markets.push(meta.ticker);
  ev.updated_ms = nowMs;
  return done({ ticker: meta.ticker });
}

/** A collection of a known series whose associated events all exist. */
function upsertCollection(st: CatalogState, cmd: Extract<CatalogCommand, { type: 'catalogUpsertCollection' }>, nowMs: number): DomainResult {
  const tk = ticker((cmd.collection as { collection_ticker?: unknown })?.collection_ticker, 'collection.collection_ticker');
  const prior = st.collections[tk];
  const rec = readCollection(cmd.collection, nowMs, prior);
  if (!st.series[rec.series_ticker]) return notFound(`series ${rec.series_ticker}`);
  const missing = rec.associated_events.find((a) => !st.events[a.ticker]);
  if (missing) return notFound(`event ${missing.ticker}`);
  st.collections[tk] = rec;
  if (!prior) st.collectionOrder.push(tk);
  return done();
}

/** A milestone whose events all exist, noted on each of them. */
function upsertMilestone(st: CatalogState, cmd: Extract<CatalogCommand, { type: 'catalogUpsertMilestone' }>, nowMs: number): DomainResult {
  const rec = readMilestone(cmd.milestone, nowMs);
  const unknown = [...rec.related_event_tickers, ...rec.primary_event_tickers].find((t) => !st.events[t]);
  if (unknown) return notFound(`event ${unknown}`);
  if (!st.milestones[rec.id]) st.milestoneOrder.push(rec.id);
  st.milestones[rec.id] = rec;
  for (const t of new Set([...rec.related_event_tickers, ...rec.primary_event_tickers])) {
    const ev: EventRecord = st.events[t]!;
    if (!ev.milestone_ids.includes(rec.id)) ev.milestone_ids.push(rec.id);
  }
  return done();
}

function applyCatalog(st: CatalogState, cmd: CatalogCommand, ctx: DomainCtx): DomainResult {
  const nowMs = ms(cmd.nowMs, 'nowMs');
  switch (cmd.type) {
    case 'catalogUpsertSeries': {
      const tk = ticker((cmd.series as { ticker?: unknown })?.ticker, 'series.ticker');
      const prior = st.series[tk];
      const rec = readSeries(cmd.series, nowMs, prior);
      st.series[tk] = rec;
      if (!prior) st.seriesOrder.push(tk);
      if (prior && (prior.fee_type !== rec.fee_type || prior.fee_multiplier_e4 !== rec.fee_multiplier_e4)) feeSeriesMarkets(st, ctx, rec, nowMs);
      return done();
    }
    case 'catalogScheduleSeriesFeeChange': {
      const id = ticker(cmd.id, 'id');
      if (!st.series[cmd.series_ticker]) return notFound(`series ${cmd.series_ticker}`);
      if (st.seriesFeeChanges.some((c) => c.id === id)) return fail('conflict', `series fee change ${id} exists`, 409);
      const rec = { id, series_ticker: cmd.series_ticker, fee_type: feeType(cmd.fee_type, 'fee_type'), fee_multiplier_e4: multiplier(cmd.fee_multiplier, 'fee_multiplier'), effective_ms: ms(cmd.effective_ms, 'effective_ms'), applied: false, created_ms: nowMs };
      st.seriesFeeChanges.push(rec);
      applyDueSeriesFees(st, ctx, nowMs);
      return done({ applied: rec.applied });
    }
    case 'catalogApplyDueFeeChanges':
      return done({ applied: applyDueSeriesFees(st, ctx, nowMs) });
    case 'catalogUpsertEvent': {
      const tk = ticker((cmd.event as { event_ticker?: unknown })?.event_ticker, 'event.event_ticker');
      const prior = st.events[tk];
      const rec = readEvent(cmd.event, nowMs, prior);
      if (!st.series[rec.series_ticker]) return notFound(`series ${rec.series_ticker}`);
      if (prior && prior.series_ticker !== rec.series_ticker) return invalid(`event ${tk} belongs to series ${prior.series_ticker}`);
      st.events[tk] = rec;
      if (!prior) st.eventOrder.push(tk);
      return done();
    }
    case 'catalogCreateMarket':
      return createMarket(st, cmd, ctx, nowMs);
    case 'catalogUpdateMarket': {
      const meta: MarketMetaRecord | undefined = st.markets[cmd.ticker];
      if (!meta) return notFound(`market ${cmd.ticker}`);
      const patch = readMarketPatch(cmd.patch);
      Object.assign(meta, patch);
      meta.updated_ms = nowMs;
      return done();
    }
    case 'catalogMarketLifecycle':
      return lifecycle(st, cmd, ctx);
    case 'catalogSetEventFeeOverride':
      return setEventFeeOverride(st, cmd, ctx);
    case 'catalogUpsertCollection':
      return upsertCollection(st, cmd, nowMs);
    case 'catalogCreateMarketInCollection':
      return createMarketInCollection(st, cmd, ctx);
    case 'catalogUpsertStructuredTarget': {
      const rec = readStructuredTarget(cmd.target, nowMs);
      if (!st.structuredTargets[rec.id]) st.structuredTargetOrder.push(rec.id);
      st.structuredTargets[rec.id] = rec;
      return done();
    }
    case 'catalogUpsertMilestone':
      return upsertMilestone(st, cmd, nowMs);
    default:
      return invalid(`unknown catalog command ${(cmd as { type: string }).type}`);
  }
}

export const catalogModule: DomainModule<CatalogState, CatalogCommand> = {
  name: CATALOG,
  commandTypes: CATALOG_COMMANDS,
  empty: emptyCatalog,
  apply(state, cmd, ctx) {
    try {
      return applyCatalog(state, cmd, ctx);
    } catch (err) {
      // Input errors are raised by the readers before anything is stored.
      if (err instanceof InputError) return invalid(err.message);
      throw err;
    }
  },
};

/** The catalog state of a core (read-only by convention). */
export function catalogOf(core: { domain<S>(name: string): S }): CatalogState {
  return core.domain<CatalogState>(CATALOG);
}

export type { Engine };
