// The seeded catalog and its history, as a bootstrap step. planCatalogSeed(seed, now) is pure:
// the same seed and start time give the same commands. History is made the ordinary way, in
// time order from 90 days ago: markets are created and opened, two seed accounts (made with
// createUser + deposit) trade by crossing orders at past times, markets close, are determined
// and settle, fee schedules and event overrides change. Some of it falls before the
// historical cutoff (30 days), so the archive has data from the first start.
//
// Contents: 7 series (economics, weather, crypto, politics, sports, 2 combo series), 20 events,
// 102 markets (settled, closed, open, paused, unopened), 2 multivariate collections with 3
// combo markets, 13 structured targets, 11 milestones, series fee changes (2 past, 2 scheduled)
// and event fee overrides (one set, one free, one set then cleared). Markets carry the real
// service's price level structures (PRICE_LEVELS_OF_SERIES).
//
// planCatalogSeed runs the steps in order; they live here, except the events and their markets,
// planned family by family in catalog-seed-events.ts. The plan the steps write into (the
// commands, the seeded random source, the window of history) is catalog-seed-plan.ts.
import type { CoreCommand } from '../core/core';
import type { BootstrapContext } from '../server-types';
import { GAMES, OTHER_TARGETS, SERIES, seedUuid } from './catalog-seed-data';
import type { PriceLevelStructure } from '../../src-shared/price-ranges';
import { planEvents } from './catalog-seed-events';
import { DAY, HOUR, MIN, newSeedPlan, seedAccountIds, type EventPlan, type MarketPlan, type SeedPlan } from './catalog-seed-plan';

const SEED_CASH_MICRO = 10_000_000 * 1_000_000;

/**
 * The price grids, as the real service mixes them: most markets in whole cents; bitcoin ranges
 * with tenths of a cent in the tails (tapered); temperature brackets in tenths of a cent
 * throughout. The markets the simulation trades most (by volume: inflation, the races) are in
 * cents, so the default screen trades in cents.
 */
export const PRICE_LEVELS_OF_SERIES: Readonly<Record<string, PriceLevelStructure>> = { KXBTC: 'tapered_deci_cent', KXHIGHNY: 'deci_cent' };

/**
 * The steps in the order they draw from the seeded random source and add their commands (ties
 * in time keep that order): changing the order changes the catalog.
 */
export function planCatalogSeed(seed: number, nowMs: number): CoreCommand[] {
  const p = newSeedPlan(seed, nowMs);
  seedAccounts(p);
  seedSeries(p);
  const teamTarget = seedStructuredTargets(p);
  const events = planEvents(p, teamTarget);
  seedEvents(p, events);
  seedMilestones(p, events);
  const lastPrice = seedMarkets(p, events);
  seedFees(p, events);
  seedCollections(p, events);
  seedRestingQuotes(p, events, lastPrice);
  return p.commands();
}

/** The two seed accounts, funded. */
function seedAccounts(p: SeedPlan): void {
  const { start, maker, taker } = p;
  p.at(start, { type: 'createUser', user_id: maker, name: 'seed-maker', is_fcm_member: false });
  p.at(start, { type: 'createUser', user_id: taker, name: 'seed-taker', is_fcm_member: false });
  p.at(start, { type: 'deposit', userId: maker, amountMicro: SEED_CASH_MICRO });
  p.at(start, { type: 'deposit', userId: taker, amountMicro: SEED_CASH_MICRO });
}

function seedSeries(p: SeedPlan): void {
  for (const s of SERIES) {
    p.at(p.start, {
      type: 'catalogUpsertSeries',
      series: {
        ticker: s.ticker,
        title: s.title,
        category: s.category,
        categories: s.categories,
        tags: s.tags,
        frequency: s.frequency,
        settlement_sources: [s.source],
        contract_url: `https://example.invalid/contracts/${s.ticker}.pdf`,
        contract_terms_url: `https://example.invalid/terms/${s.ticker}.pdf`,
        product_metadata: { display: s.title, scope: s.category },
        additional_prohibitions: s.category === 'Sports' ? ['Team personnel may not trade'] : [],
        fee_type: s.fee_type,
        fee_multiplier: s.fee_multiplier,
      },
    });
  }
}

/** Structured targets: the NBA teams of the games, and a few others. Returns team code -> target id. */
function seedStructuredTargets(p: SeedPlan): Map<string, string> {
  const { seed, start } = p;
  const teamTarget = new Map<string, string>();
  let targetN = 0;
  for (const team of GAMES.flat()) {
    const id = seedUuid(seed, 2, ++targetN);
    teamTarget.set(team.code, id);
    p.at(start, {
      type: 'catalogUpsertStructuredTarget',
      target: { id, name: team.name, type: 'basketball_team', competition: 'NBA', details: { league: 'NBA', conference: team.conference, division: team.division, abbreviation: team.code }, source_id: `nba-${team.code.toLowerCase()}`, source_ids: { nba: team.code } },
    });
  }
  for (const t of OTHER_TARGETS) {
    p.at(start, { type: 'catalogUpsertStructuredTarget', target: { id: seedUuid(seed, 2, ++targetN), name: t.name, type: t.type, competition: t.competition, details: t.details, source_id: null, source_ids: {} } });
  }
  return teamTarget;
}

function seedEvents(p: SeedPlan, events: readonly EventPlan[]): void {
  for (const ev of events) {
    const { game: _game, race: _race, ...extra } = ev.extra;
    p.at(p.start, {
      type: 'catalogUpsertEvent',
      event: {
        event_ticker: ev.ticker,
        series_ticker: ev.series,
        title: ev.title,
        sub_title: ev.sub_title,
        category: SERIES.find((s) => s.ticker === ev.series)!.category,
        mutually_exclusive: ev.mutuallyExclusive,
        collateral_return_type: ev.mutuallyExclusive ? 'MECNET' : '',
        strike_date: new Date(ev.closeMs).toISOString(),
        strike_period: null,
        image_url: `https://example.invalid/img/${ev.series}.png`,
        featured_image_url: '',
        settlement_sources: [SERIES.find((s) => s.ticker === ev.series)!.source],
        market_details: ev.markets.map((m, i) => ({ market_ticker: m.ticker, image_url: '', color_code: ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2'][i % 7] })),
        ...extra,
      },
    });
  }
}

/** Milestones: games, races, releases. */
function seedMilestones(p: SeedPlan, events: readonly EventPlan[]): void {
  const { seed, start } = p;
  let milestoneN = 0;
  for (const ev of events) {
    const game = ev.extra.game as { tip: number; away: { name: string; code: string }; home: { name: string; code: string } } | undefined;
    const race = ev.extra.race as { city: string; candidates: string[] } | undefined;
    const base = { id: seedUuid(seed, 3, ++milestoneN), related_event_tickers: [ev.ticker], primary_event_tickers: [ev.ticker], source_id: null };
    if (game) {
      p.at(start, { type: 'catalogUpsertMilestone', milestone: { ...base, category: 'Sports', type: 'basketball_game', title: ev.title, start_ms: game.tip, end_ms: game.tip + 150 * MIN, notification_message: `${ev.title} tips off`, details: { home_team: game.home.name, away_team: game.away.name, players: [`${game.home.code} Guard`, `${game.home.code} Center`, `${game.away.code} Forward`], competition: 'NBA' } } });
    } else if (race) {
      p.at(start, { type: 'catalogUpsertMilestone', milestone: { ...base, category: 'Elections', type: 'political_race', title: ev.title, start_ms: ev.closeMs, end_ms: ev.closeMs + 6 * HOUR, notification_message: `Polls close in ${race.city}`, details: { candidates: race.candidates, expected_votes: 250_000 } } });
    } else if (ev.series === 'KXCPI') {
      p.at(start, { type: 'catalogUpsertMilestone', milestone: { ...base, category: 'Economics', type: 'economic_release', title: ev.title, start_ms: ev.closeMs + 30 * MIN, end_ms: null, notification_message: 'CPI released', details: { indicator: 'CPI YoY', consensus: 2.7, prior: 2.6 } } });
    } else milestoneN--;
  }
}

/** Every market: created, opened, traded at past times, closed, determined and settled as its event's fate says. Returns each traded market's last price. */
function seedMarkets(p: SeedPlan, events: readonly EventPlan[]): Map<string, number> {
  const lastPrice = new Map<string, number>();
  for (const ev of events) {
    for (const m of ev.markets) {
      createMarket(p, ev, m);
      if (ev.fate === 'unopened') continue;
      p.at(ev.openMs, { type: 'catalogMarketLifecycle', ticker: m.ticker, action: 'open' });
      lastPrice.set(m.ticker, tradeHistory(p, ev, m));
      if (ev.fate === 'settled' || ev.fate === 'closed') p.at(ev.closeMs, { type: 'catalogMarketLifecycle', ticker: m.ticker, action: 'close' });
      if (ev.fate === 'settled') {
        p.at(ev.closeMs + 30 * MIN, { type: 'catalogMarketLifecycle', ticker: m.ticker, action: 'determine', result: m.result });
        p.at(ev.closeMs + HOUR, { type: 'catalogMarketLifecycle', ticker: m.ticker, action: 'settle' });
      }
    }
  }
  return lastPrice;
}

/** The market, created a day before its event opens (within the history window). */
function createMarket(p: SeedPlan, ev: EventPlan, m: MarketPlan): void {
  const created = Math.max(p.start + HOUR, Math.min(ev.openMs, p.stop) - DAY);
  p.at(created, {
    type: 'catalogCreateMarket',
    market: {
      ticker: m.ticker,
      event_ticker: ev.ticker,
      title: m.title,
      yes_sub_title: m.yes_sub_title,
      no_sub_title: `Not ${m.yes_sub_title}`,
      subtitle: ev.sub_title,
      rules_primary: ev.rules(m),
      rules_secondary: 'If the source is unavailable, the exchange may delay settlement.',
      open_ms: ev.openMs,
      close_ms: ev.closeMs,
      expected_expiration_ms: ev.closeMs + HOUR,
      can_close_early: ev.series === 'KXNBAGAME',
      strike_type: m.strike_type,
      floor_strike: m.floor_strike,
      cap_strike: m.cap_strike,
      price_level_structure: PRICE_LEVELS_OF_SERIES[ev.series] ?? 'linear_cent',
    },
  });
}

/**
 * The seed accounts trade the market by crossing orders at random times while it is open: the
 * price wanders around its fair value and, late in a market that settles, towards its result.
 * Returns the last price.
 */
function tradeHistory(p: SeedPlan, ev: EventPlan, m: MarketPlan): number {
  const { maker, taker } = p;
  const tradeEnd = Math.min(ev.closeMs, p.stop) - MIN;
  const span = tradeEnd - (ev.openMs + MIN);
  const count = span <= 0 ? 0 : Math.min(60, 6 + Math.floor((span / DAY) * 3) + p.pick(0, 4));
  const times = Array.from({ length: count }, () => ev.openMs + MIN + Math.floor(p.rand() * span)).sort((a, b) => a - b);
  let fair = m.fair;
  times.forEach((t, i) => {
    const late = ev.fate === 'settled' && i > count * 0.7;
    const target = late ? (m.result === 'yes' ? 9300 : 700) : fair;
    fair = Math.round((fair + (target - fair) * 0.3 + (p.rand() - 0.5) * 600) / 100) * 100;
    fair = Math.max(100, Math.min(9900, fair));
    const size = p.pick(1, 25) * 100;
    const [mk, tk] = p.rand() < 0.5 ? [maker, taker] : [taker, maker];
    const takerSide = p.rand() < 0.5 ? 'bid' : 'ask';
    p.order(t, mk, m.ticker, takerSide === 'bid' ? 'ask' : 'bid', fair, size, 'good_till_canceled');
    p.order(t, tk, m.ticker, takerSide, fair, size, 'immediate_or_cancel');
  });
  return fair;
}

/** The (first) open event of a series. */
function openEvent(events: readonly EventPlan[], series: string): EventPlan {
  return events.find((e) => e.series === series && e.fate === 'open')!;
}

/** Fees: series schedules (two past, two scheduled) and event overrides (one set, one free, one set then cleared). */
function seedFees(p: SeedPlan, events: readonly EventPlan[]): void {
  const { D } = p;
  p.at(D - 40 * DAY, { type: 'catalogScheduleSeriesFeeChange', id: 'KXBTC-FEE-1', series_ticker: 'KXBTC', fee_type: 'quadratic', fee_multiplier: '1', effective_ms: D - 40 * DAY });
  p.at(D - 20 * DAY, { type: 'catalogScheduleSeriesFeeChange', id: 'KXHIGHNY-FEE-1', series_ticker: 'KXHIGHNY', fee_type: 'quadratic_with_maker_fees', fee_multiplier: '1.25', effective_ms: D - 20 * DAY });
  p.at(D - DAY, { type: 'catalogScheduleSeriesFeeChange', id: 'KXCPI-FEE-1', series_ticker: 'KXCPI', fee_type: 'quadratic_with_maker_fees', fee_multiplier: '1', effective_ms: D + 14 * DAY });
  p.at(D - DAY, { type: 'catalogScheduleSeriesFeeChange', id: 'KXNBAGAME-FEE-1', series_ticker: 'KXNBAGAME', fee_type: 'quadratic_with_maker_fees', fee_multiplier: '0.8', effective_ms: D + 7 * DAY });
  const btcOpen = openEvent(events, 'KXBTC');
  const games = events.filter((e) => e.series === 'KXNBAGAME');
  p.at(D - 5 * HOUR, { type: 'catalogSetEventFeeOverride', id: `${btcOpen.ticker}-FEE-1`, event_ticker: btcOpen.ticker, fee_type_override: 'quadratic', fee_multiplier_override: '0.5' });
  p.at(D - DAY, { type: 'catalogSetEventFeeOverride', id: `${games[3]!.ticker}-FEE-1`, event_ticker: games[3]!.ticker, fee_type_override: 'quadratic', fee_multiplier_override: '0' });
  p.at(D - 3 * HOUR, { type: 'catalogSetEventFeeOverride', id: `${games[2]!.ticker}-FEE-1`, event_ticker: games[2]!.ticker, fee_type_override: 'quadratic', fee_multiplier_override: '2' });
  p.at(D - 2 * HOUR, { type: 'catalogSetEventFeeOverride', id: `${games[2]!.ticker}-FEE-2`, event_ticker: games[2]!.ticker, fee_type_override: null, fee_multiplier_override: null });
}

/** Two multivariate collections (basketball parlays; macro, weather and crypto) and three combo markets in them. */
function seedCollections(p: SeedPlan, events: readonly EventPlan[]): void {
  const { D, start } = p;
  const games = events.filter((e) => e.series === 'KXNBAGAME');
  const cpi = openEvent(events, 'KXCPI');
  const wx = openEvent(events, 'KXHIGHNY');
  const btcOpen = openEvent(events, 'KXBTC');
  p.at(start, {
    type: 'catalogUpsertCollection',
    collection: {
      collection_ticker: 'KXMVENBA',
      series_ticker: 'KXMVENBA',
      title: 'Pro basketball parlays',
      description: 'Pick the winners of several games.',
      open_ms: D - 3 * DAY,
      close_ms: D + 3 * DAY + 3 * HOUR,
      associated_events: [games[2]!, games[3]!].map((g) => ({ ticker: g.ticker, is_yes_only: true, size_min: 1, size_max: 1 })),
      is_single_market_per_event: true,
      is_all_yes: true,
      size_min: 2,
      size_max: 2,
      functional_description: 'All legs must win.',
    },
  });
  p.at(start, {
    type: 'catalogUpsertCollection',
    collection: {
      collection_ticker: 'KXMVECROSS',
      series_ticker: 'KXMVECROSS',
      title: 'Macro, weather and crypto combos',
      description: 'Combine inflation, temperature and bitcoin outcomes.',
      open_ms: D - 5 * DAY,
      close_ms: D + 5 * DAY,
      associated_events: [cpi, wx, btcOpen].map((e) => ({ ticker: e.ticker, is_yes_only: false, size_min: 1, size_max: 1 })),
      is_single_market_per_event: true,
      is_all_yes: false,
      size_min: 2,
      size_max: 3,
      functional_description: 'Every leg must resolve as selected.',
    },
  });
  const leg = (e: EventPlan, i: number, side: 'yes' | 'no' = 'yes') => ({ event_ticker: e.ticker, market_ticker: e.markets[i]!.ticker, side });
  const combos: [string, ReturnType<typeof leg>[]][] = [
    ['KXMVENBA', [leg(games[2]!, 1), leg(games[3]!, 0)]],
    ['KXMVECROSS', [leg(cpi, 1), leg(btcOpen, 3)]],
    ['KXMVECROSS', [leg(cpi, 4), leg(wx, 2, 'no'), leg(btcOpen, 2)]],
  ];
  for (const [collection, legs] of combos) p.at(p.stop - 10 * MIN, { type: 'catalogCreateMarketInCollection', collection_ticker: collection, selected_markets: legs });
}

/** Resting quotes three levels deep on each side of every open market, then the pauses. */
function seedRestingQuotes(p: SeedPlan, events: readonly EventPlan[], lastPrice: ReadonlyMap<string, number>): void {
  const { maker, taker, stop } = p;
  for (const ev of events) {
    if (ev.fate !== 'open') continue;
    for (const m of ev.markets) {
      const price = lastPrice.get(m.ticker) ?? m.fair;
      for (let k = 1; k <= 3; k++) {
        if (price - k * 100 >= 100) p.order(stop + 3 * MIN, maker, m.ticker, 'bid', price - k * 100, p.pick(5, 50) * 100, 'good_till_canceled');
        if (price + k * 100 <= 9900) p.order(stop + 3 * MIN, taker, m.ticker, 'ask', price + k * 100, p.pick(5, 50) * 100, 'good_till_canceled');
      }
      if (m.paused) p.at(stop + 4 * MIN, { type: 'catalogMarketLifecycle', ticker: m.ticker, action: 'pause' });
    }
  }
}

/**
 * The seed accounts' own history, once it is made: their finished orders and their fills, dropped
 * with the simulation's own prune (engine/prune.ts). The accounts have no API key, so no one can
 * ever list those orders or fills; what they made stays (the public trade tape and so the candles,
 * the markets' volume and open interest, their positions, settlements and resting quotes). Kept,
 * they were 4.4 MB of a new exchange's 7.3 MB snapshot (5,154 executed orders, 5,154 fills), which
 * every start read, parsed and hydrated again: a test's, a bench's and a trader's.
 */
function pruneSeedHistory(seed: number, nowMs: number): CoreCommand {
  const { maker, taker } = seedAccountIds(seed);
  return { type: 'pruneOrders', nowMs, userIds: [maker, taker], olderThanMs: nowMs };
}

/**
 * Bootstrap step: submit the plan in order (group-committed), check every outcome, then drop the
 * seed accounts' unreadable history (pruneSeedHistory).
 */
export async function seedCatalog(ctx: BootstrapContext): Promise<void> {
  const { node } = ctx.svc;
  const plan = planCatalogSeed(ctx.svc.seed, node.now());
  const outcomes = plan.map((cmd) => node.submit(cmd).then((o) => ({ cmd, o })));
  for (const { cmd, o } of await Promise.all(outcomes)) {
    if (!o.ok) throw new Error(`catalog seed: ${cmd.type} was refused: ${JSON.stringify(o.result)} (${JSON.stringify(cmd).slice(0, 300)})`);
  }
  const prune = await node.submit(pruneSeedHistory(ctx.svc.seed, node.now()));
  if (!prune.ok) throw new Error(`catalog seed: pruning the seed accounts' history was refused: ${JSON.stringify(prune.result)}`);
}
