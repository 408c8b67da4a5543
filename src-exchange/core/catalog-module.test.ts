// The catalog module on a bare core: commands drive the engine in the same step, a rejected
// command changes nothing, fee schedules and overrides reach the engine's markets, the seed
// plan is deterministic and replays to the same state, and the catalog clock finds due fee changes.
import { describe, expect, it } from 'vitest';
import { ExchangeCore, type CoreCommand } from './core';
import { catalogOf, comboTickers } from './catalog-module';
import { cutoffsAt, makerFeeText, multiplierText, parseMultiplier, takerFeeText } from '../state/catalog';
import { planCatalogSeed } from '../sim/catalog-seed';
import { dueCatalogCommands } from '../sim/catalog-clock';

const T0 = Date.UTC(2026, 0, 15, 12);

function core(): ExchangeCore {
  const c = new ExchangeCore();
  const ok = (cmd: Omit<CoreCommand, 'nowMs'> & { nowMs?: number }) => {
    const r = c.apply({ nowMs: T0, ...cmd } as CoreCommand);
    expect(r.ok, JSON.stringify(r.result)).toBe(true);
  };
  ok({ type: 'catalogUpsertSeries', series: { ticker: 'S', title: 'Series', category: 'Economics', fee_type: 'quadratic', fee_multiplier: '1' } });
  ok({ type: 'catalogUpsertEvent', event: { event_ticker: 'S-E', series_ticker: 'S', title: 'Event' } });
  ok({ type: 'catalogCreateMarket', open: true, market: { ticker: 'S-E-A', event_ticker: 'S-E', title: 'A', open_ms: T0, close_ms: T0 + 86_400_000 } });
  ok({ type: 'catalogCreateMarket', market: { ticker: 'S-E-B', event_ticker: 'S-E', title: 'B', open_ms: T0 + 3_600_000, close_ms: T0 + 86_400_000 } });
  return c;
}

const state = (c: ExchangeCore) => JSON.stringify(c.toSnapshot());

describe('numbers', () => {
  it('keeps fee multipliers exact', () => {
    expect(parseMultiplier('1.25')).toBe(12_500);
    expect(parseMultiplier('0.0001')).toBe(1);
    expect(parseMultiplier('1.00001')).toBeUndefined();
    expect(parseMultiplier('101')).toBeUndefined();
    expect(multiplierText(12_500)).toBe('1.25');
    expect(multiplierText(10_000)).toBe('1');
    expect(takerFeeText(10_000)).toBe('0.07');
    expect(makerFeeText('quadratic_with_maker_fees', 15_000)).toBe('0.02625');
    expect(makerFeeText('quadratic', 15_000)).toBe('0');
  });

  it('puts every cutoff at UTC midnight 30 days back', () => {
    const c = cutoffsAt(Date.UTC(2026, 2, 31, 15, 30));
    expect(c.marketSettledMs).toBe(Date.UTC(2026, 2, 1));
    expect(new Set(Object.values(c)).size).toBe(1);
  });
});

describe('commands', () => {
  it('creates markets in the engine with the series fee, opened only when asked', () => {
    const c = core();
    expect(c.engine.getMarket('S-E-A')).toMatchObject({ status: 'open', fee_type: 'quadratic', fee_multiplier: 10_000, series_ticker: 'S' });
    expect(c.engine.getMarket('S-E-B')?.status).toBe('unopened');
    expect(catalogOf(c).events['S-E']?.markets).toEqual(['S-E-A', 'S-E-B']);
  });

  it('changes nothing when it rejects', () => {
    const c = core();
    const before = state(c);
    const bad: Omit<CoreCommand, 'nowMs'>[] = [
      { type: 'catalogCreateMarket', market: { ticker: 'S-E-A', event_ticker: 'S-E', open_ms: T0, close_ms: T0 } },
      { type: 'catalogCreateMarket', market: { ticker: 'S-E-C', event_ticker: 'NOPE', open_ms: T0, close_ms: T0 } },
      { type: 'catalogCreateMarket', market: { ticker: 'S-E-C', event_ticker: 'S-E', open_ms: T0, close_ms: T0 - 1 } },
      { type: 'catalogUpsertEvent', event: { event_ticker: 'X-E', series_ticker: 'NOPE', title: 'x' } },
      { type: 'catalogUpsertSeries', series: { ticker: 'S2', title: 'x', category: 'c', fee_type: 'flat', fee_multiplier: '1' } },
      { type: 'catalogSetEventFeeOverride', id: 'f1', event_ticker: 'S-E', fee_type_override: 'quadratic', fee_multiplier_override: null },
      { type: 'catalogSetEventFeeOverride', id: 'f1', event_ticker: 'S-E', fee_type_override: 'quadratic', fee_multiplier_override: '1.00001' },
      { type: 'catalogMarketLifecycle', ticker: 'S-E-B', action: 'settle' },
      { type: 'catalogCreateMarketInCollection', collection_ticker: 'NOPE', selected_markets: [] },
      { type: 'catalogUpdateMarket', ticker: 'S-E-A', patch: { status: 'settled' } },
    ];
    for (const cmd of bad) {
      const r = c.apply({ nowMs: T0, ...cmd } as CoreCommand);
      expect(r.ok, String(cmd.type)).toBe(false);
      expect(r.mutated).toBe(false);
    }
    expect(state(c)).toBe(before);
  });

  it('applies an event override to the engine and emits event_fee_update; both null clears it', () => {
    const c = core();
    const set = c.apply({ type: 'catalogSetEventFeeOverride', nowMs: T0 + 1, id: 'f1', event_ticker: 'S-E', fee_type_override: 'quadratic_with_maker_fees', fee_multiplier_override: '0.5' });
    expect(set.ok).toBe(true);
    expect(c.engine.getMarket('S-E-A')).toMatchObject({ fee_type: 'quadratic_with_maker_fees', fee_multiplier: 5_000 });
    expect(c.engine.getMarket('S-E-B')).toMatchObject({ fee_multiplier: 5_000 });
    const domain = set.events.find((e) => e.type === 'domain');
    expect(domain).toMatchObject({ channel: 'market_lifecycle_v2', kind: 'event_fee_update', payload: { fee_type_override: 'quadratic_with_maker_fees', fee_multiplier_override: '0.5' } });
    expect(set.events.some((e) => e.type === 'market' && e.event === 'fees_updated')).toBe(true);
    c.apply({ type: 'catalogSetEventFeeOverride', nowMs: T0 + 2, id: 'f2', event_ticker: 'S-E', fee_type_override: null, fee_multiplier_override: null });
    expect(c.engine.getMarket('S-E-A')).toMatchObject({ fee_type: 'quadratic', fee_multiplier: 10_000 });
    expect(catalogOf(c).eventFeeChanges.map((f) => f.fee_multiplier_override_e4)).toEqual([5_000, null]);
  });

  it('holds a series fee change until it is due, then applies it to markets without an override', () => {
    const c = core();
    const r = c.apply({ type: 'catalogScheduleSeriesFeeChange', nowMs: T0, id: 'sf1', series_ticker: 'S', fee_type: 'quadratic', fee_multiplier: '2', effective_ms: T0 + 1000 });
    expect(r.result).toMatchObject({ applied: false });
    expect(c.engine.getMarket('S-E-A')?.fee_multiplier).toBe(10_000);
    expect(dueCatalogCommands(catalogOf(c), T0 + 999).some((x) => x.type === 'catalogApplyDueFeeChanges')).toBe(false);
    const due = dueCatalogCommands(catalogOf(c), T0 + 1000);
    expect(due.map((x) => x.type)).toContain('catalogApplyDueFeeChanges');
    c.apply({ type: 'catalogApplyDueFeeChanges', nowMs: T0 + 1000 });
    expect(c.engine.getMarket('S-E-A')?.fee_multiplier).toBe(20_000);
    expect(catalogOf(c).series.S?.fee_multiplier_e4).toBe(20_000);
  });

  it('names a leg selection the same whatever the leg order (unordered collections)', () => {
    const a = { event_ticker: 'E1', market_ticker: 'M1', side: 'yes' };
    const b = { event_ticker: 'E2', market_ticker: 'M2', side: 'no' };
    expect(comboTickers('C', [a, b], false)).toEqual(comboTickers('C', [b, a], false));
    expect(comboTickers('C', [a, b], true)).not.toEqual(comboTickers('C', [b, a], true));
    expect(comboTickers('C', [a, { ...b, side: 'yes' }], false).eventTicker).toBe(comboTickers('C', [a, b], false).eventTicker);
  });
});

describe('seed plan', () => {
  it('is deterministic, time ordered, and replays to the same state', () => {
    const plan = planCatalogSeed(7, T0);
    expect(planCatalogSeed(7, T0)).toEqual(plan);
    expect(planCatalogSeed(8, T0)).not.toEqual(plan);
    for (let i = 1; i < plan.length; i++) expect(plan[i]!.nowMs).toBeGreaterThanOrEqual(plan[i - 1]!.nowMs);
    const a = new ExchangeCore();
    const b = new ExchangeCore();
    for (const cmd of plan) {
      const r = a.apply(structuredClone(cmd));
      expect(r.ok, `${cmd.type} ${JSON.stringify(r.result)}`).toBe(true);
      b.apply(structuredClone(cmd));
    }
    expect(state(a)).toBe(state(b));
    const cat = catalogOf(a);
    expect(cat.seriesOrder.length).toBeGreaterThanOrEqual(5);
    expect(cat.eventOrder.filter((e) => cat.events[e]!.collection_ticker === null)).toHaveLength(20);
    expect(a.engine.listMarkets().length).toBeGreaterThanOrEqual(100);
    const statuses = new Set(a.engine.listMarkets().map((m) => m.status));
    for (const s of ['unopened', 'open', 'paused', 'closed', 'settled']) expect(statuses).toContain(s);
    expect(cat.collectionOrder).toHaveLength(2);
    expect(a.engine.getTrades().length).toBeGreaterThan(1000);
    expect(a.engine.checkInvariants()).toEqual([]);
  });
});

describe('seed plan at any time of day', () => {
  it.each([Date.UTC(2026, 5, 1, 0, 1), Date.UTC(2026, 2, 31, 23, 59), Date.UTC(2027, 1, 28, 6, 30)])('is accepted whole when started at %d', (t0) => {
    const c = new ExchangeCore();
    for (const cmd of planCatalogSeed(3, t0)) {
      const r = c.apply(cmd);
      expect(r.ok, `${cmd.type} ${JSON.stringify(r.result)}`).toBe(true);
    }
    expect(c.engine.listMarkets({ status: 'paused' })).toHaveLength(2);
  });
});
