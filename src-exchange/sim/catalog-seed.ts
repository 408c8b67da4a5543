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
import type { CoreCommand } from '../core/core';
import type { BootstrapContext } from '../server-types';
import type { MarketResult } from '../engine/types';
import { GAMES, OTHER_TARGETS, RACES, SERIES, seedUuid, tickerDate } from './catalog-seed-data';
import { mulberry32 } from '../../src-shared/random';
import type { PriceLevelStructure } from '../../src-shared/price-ranges';

const MIN = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const SEED_CASH_MICRO = 10_000_000 * 1_000_000;

export const seedAccountIds = (seed: number) => ({ maker: seedUuid(seed, 1, 1), taker: seedUuid(seed, 1, 2) });

const rng = (seed: number): (() => number) => mulberry32(seed ^ 0x5eed_cafe);

/**
 * The price grids, as the real service mixes them: most markets in whole cents; bitcoin ranges
 * with tenths of a cent in the tails (tapered); temperature brackets in tenths of a cent
 * throughout. The markets the simulation trades most (by volume: inflation, the races) are in
 * cents, so the default screen trades in cents.
 */
export const PRICE_LEVELS_OF_SERIES: Readonly<Record<string, PriceLevelStructure>> = { KXBTC: 'tapered_deci_cent', KXHIGHNY: 'deci_cent' };

type Fate = 'settled' | 'closed' | 'open' | 'unopened';

interface MarketPlan {
  ticker: string;
  title: string;
  yes_sub_title: string;
  strike_type: string;
  floor_strike: number | null;
  cap_strike: number | null;
  /** opening fair value in ticks, and the result when it settles */
  fair: number;
  result: MarketResult;
  paused?: boolean;
}

interface EventPlan {
  ticker: string;
  series: string;
  title: string;
  sub_title: string;
  openMs: number;
  closeMs: number;
  fate: Fate;
  mutuallyExclusive: boolean;
  markets: MarketPlan[];
  extra: Record<string, unknown>;
  rules: (m: MarketPlan) => string;
}

export function planCatalogSeed(seed: number, nowMs: number): CoreCommand[] {
  const rand = rng(seed);
  const pick = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const D = Math.floor(nowMs / DAY) * DAY;
  const start = D - 90 * DAY;
  const stop = nowMs - 5 * MIN;
  const cmds: { at: number; n: number; cmd: CoreCommand }[] = [];
  let n = 0;
  const at = (ms: number, cmd: Omit<CoreCommand, 'nowMs'>) => cmds.push({ at: ms, n: n++, cmd: { ...cmd, nowMs: ms } as CoreCommand });
  const { maker, taker } = seedAccountIds(seed);

  at(start, { type: 'createUser', user_id: maker, name: 'seed-maker', is_fcm_member: false });
  at(start, { type: 'createUser', user_id: taker, name: 'seed-taker', is_fcm_member: false });
  at(start, { type: 'deposit', userId: maker, amountMicro: SEED_CASH_MICRO });
  at(start, { type: 'deposit', userId: taker, amountMicro: SEED_CASH_MICRO });

  for (const s of SERIES) {
    at(start, {
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

  // structured targets: the NBA teams of the games, and a few others
  const teamTarget = new Map<string, string>();
  let targetN = 0;
  for (const team of GAMES.flat()) {
    const id = seedUuid(seed, 2, ++targetN);
    teamTarget.set(team.code, id);
    at(start, {
      type: 'catalogUpsertStructuredTarget',
      target: { id, name: team.name, type: 'basketball_team', competition: 'NBA', details: { league: 'NBA', conference: team.conference, division: team.division, abbreviation: team.code }, source_id: `nba-${team.code.toLowerCase()}`, source_ids: { nba: team.code } },
    });
  }
  for (const t of OTHER_TARGETS) {
    at(start, { type: 'catalogUpsertStructuredTarget', target: { id: seedUuid(seed, 2, ++targetN), name: t.name, type: t.type, competition: t.competition, details: t.details, source_id: null, source_ids: {} } });
  }

  // ---- events ----------------------------------------------------------------------------------
  const events: EventPlan[] = [];

  // CPI: release day at 12:30 UTC; "above X%" strikes (not exclusive)
  const cpiDays: [number, Fate][] = [[-55, 'settled'], [-25, 'settled'], [5, 'open'], [35, 'unopened']];
  for (const [offset, fate] of cpiDays) {
    const release = D + offset * DAY + 12 * HOUR + 30 * MIN;
    const actual = 2.3 + pick(0, 7) / 10;
    const strikes = [2.4, 2.5, 2.6, 2.7, 2.8, 2.9];
    events.push({
      ticker: `KXCPI-${tickerDate(release)}`,
      series: 'KXCPI',
      title: `CPI year-over-year in the release of ${new Date(release).toISOString().slice(0, 10)}`,
      sub_title: `Release ${tickerDate(release)}`,
      openMs: fate === 'unopened' ? D + 10 * DAY : release - 30 * DAY,
      closeMs: release - 30 * MIN,
      fate,
      mutuallyExclusive: false,
      markets: strikes.map((x, i) => ({
        ticker: `KXCPI-${tickerDate(release)}-T${x.toFixed(1)}`,
        title: `CPI above ${x.toFixed(1)}%?`,
        yes_sub_title: `Above ${x.toFixed(1)}%`,
        strike_type: 'greater',
        floor_strike: x,
        cap_strike: null,
        fair: Math.max(500, Math.min(9500, 9000 - i * 1500)),
        result: actual > x ? 'yes' : 'no',
        paused: fate === 'open' && i === 5,
      })),
      extra: { forecast: { center: 2.7, spread: 0.15, drift: 0.03, decimals: 2, unit: '%' }, market_details: null, tags: ['Inflation'], categories: ['Economics'] },
      rules: (m) => `Resolves Yes if the year-over-year CPI published by the BLS is above ${m.floor_strike}%.`,
    });
  }

  // NYC high temperature: two-degree brackets, exclusive
  const weatherDays: [number, Fate][] = [[-50, 'settled'], [-40, 'settled'], [-3, 'settled'], [-1, 'closed'], [1, 'open']];
  for (const [offset, fate] of weatherDays) {
    const day = D + offset * DAY;
    const c = pick(40, 80);
    const winner = pick(1, 4);
    const edges = [c - 4, c - 2, c, c + 2, c + 4];
    const brackets: [number | null, number | null][] = [[null, edges[0]!], [edges[0]!, edges[1]!], [edges[1]!, edges[2]!], [edges[2]!, edges[3]!], [edges[3]!, edges[4]!], [edges[4]!, null]];
    events.push({
      ticker: `KXHIGHNY-${tickerDate(day)}`,
      series: 'KXHIGHNY',
      title: `Highest temperature in NYC on ${new Date(day).toISOString().slice(0, 10)}`,
      sub_title: `On ${tickerDate(day)}`,
      openMs: day - 34 * HOUR,
      closeMs: day + 23 * HOUR,
      fate,
      mutuallyExclusive: true,
      markets: brackets.map(([lo, hi], i) => ({
        ticker: `KXHIGHNY-${tickerDate(day)}-B${lo ?? 'LO'}${hi === null ? 'HI' : ''}`,
        title: lo === null ? `${hi}°F or below` : hi === null ? `Above ${lo}°F` : `${lo}° to ${hi - 1}°F`,
        yes_sub_title: lo === null ? `${hi}° or below` : hi === null ? `Above ${lo}°` : `${lo}° to ${hi - 1}°`,
        strike_type: lo === null ? 'less' : hi === null ? 'greater' : 'between',
        floor_strike: lo,
        cap_strike: hi,
        fair: i === winner ? 3500 : 1300,
        result: i === winner ? 'yes' : 'no',
      })),
      extra: { product_metadata: { city: 'nyc' }, forecast: { center: c, spread: 2.5, drift: 0.02, decimals: 1, unit: '°F' }, market_details: [], tags: ['Weather'] },
      rules: (m) => `Resolves Yes if the NWS Central Park high is in the bracket ${m.yes_sub_title}.`,
    });
  }

  // Bitcoin: thousand-dollar ranges at 17:00 UTC (noon ET), exclusive
  const btcDays: [number, Fate][] = [[-45, 'settled'], [-5, 'settled'], [1, 'open'], [2, 'unopened']];
  for (const [offset, fate] of btcDays) {
    const day = D + offset * DAY;
    const c = pick(60, 100) * 1000;
    const winner = pick(2, 4);
    events.push({
      ticker: `KXBTC-${tickerDate(day)}17`,
      series: 'KXBTC',
      title: `Bitcoin price at 5pm UTC on ${new Date(day).toISOString().slice(0, 10)}`,
      sub_title: `At 17:00 UTC ${tickerDate(day)}`,
      openMs: fate === 'unopened' ? D + DAY : day - 34 * HOUR,
      closeMs: day + 17 * HOUR,
      fate,
      mutuallyExclusive: true,
      markets: Array.from({ length: 7 }, (_, i) => {
        const lo = c - 3500 + i * 1000;
        return {
          ticker: `KXBTC-${tickerDate(day)}17-B${lo + 500}`,
          title: `Bitcoin between $${lo} and $${lo + 999.99}`,
          yes_sub_title: `$${lo} to $${lo + 999.99}`,
          strike_type: 'between',
          floor_strike: lo,
          cap_strike: lo + 999.99,
          fair: i === winner ? 3000 : 1100,
          result: (i === winner ? 'yes' : 'no') as MarketResult,
        };
      }),
      extra: { product_metadata: { index_id: 'BRTI', index_base: c }, forecast: { center: c, spread: 800, drift: 0.03, decimals: 0, unit: ' USD' }, tags: ['BTC'] },
      rules: (m) => `Resolves Yes if the CF Benchmarks BRTI at 17:00 UTC is between ${m.floor_strike} and ${m.cap_strike}.`,
    });
  }

  // Mayoral races: long-running, exclusive
  const raceTimes: [number, number, Fate][] = [[-60, -20, 'settled'], [-60, 30, 'open'], [-15, 60, 'open']];
  RACES.forEach((race, r) => {
    const [open, close, fate] = raceTimes[r]!;
    const winner = pick(0, 3);
    events.push({
      ticker: `KXMAYOR-${tickerDate(D + close * DAY).slice(0, 2)}${race.code}`,
      series: 'KXMAYOR',
      title: `Who will win the ${race.city} mayoral race?`,
      sub_title: `${race.city} mayor`,
      openMs: D + open * DAY,
      closeMs: D + close * DAY,
      fate,
      mutuallyExclusive: true,
      markets: race.candidates.map((name, i) => ({
        ticker: `KXMAYOR-${tickerDate(D + close * DAY).slice(0, 2)}${race.code}-${name.slice(0, 3).toUpperCase()}`,
        title: `Will ${name} win the ${race.city} mayoral race?`,
        yes_sub_title: name,
        strike_type: 'custom',
        floor_strike: null,
        cap_strike: null,
        fair: i === winner ? 4000 : 2000,
        result: (i === winner ? 'yes' : 'no') as MarketResult,
        paused: r === 2 && i === 3,
      })),
      extra: { tags: ['Elections'], categories: ['Politics'], competition: null, race },
      rules: (m) => `Resolves Yes if ${m.yes_sub_title} is certified as the winner.`,
    });
  });

  // Basketball: one market per team, exclusive
  const gameTimes: [number, Fate][] = [[-38 * DAY + 23 * HOUR, 'settled'], [-2 * DAY + 23 * HOUR, 'settled'], [nowMs - D - HOUR, 'open'], [2 * DAY + 23 * HOUR, 'open']];
  GAMES.forEach(([away, home], g) => {
    const [offset, fate] = gameTimes[g]!;
    const tip = D + offset;
    const homeWins = rand() < 0.55;
    const ticker = `KXNBAGAME-${tickerDate(tip)}${away.code}${home.code}`;
    events.push({
      ticker,
      series: 'KXNBAGAME',
      title: `${away.name} at ${home.name}`,
      sub_title: `${away.code} at ${home.code} (${tickerDate(tip)})`,
      openMs: tip - 3 * DAY,
      closeMs: tip + 3 * HOUR,
      fate,
      mutuallyExclusive: true,
      markets: [away, home].map((team, i) => ({
        ticker: `${ticker}-${team.code}`,
        title: `Will ${team.name} win ${away.code} at ${home.code}?`,
        yes_sub_title: team.name,
        strike_type: 'structured',
        floor_strike: null,
        cap_strike: null,
        fair: i === 1 ? 5500 : 4500,
        result: (homeWins === (i === 1) ? 'yes' : 'no') as MarketResult,
      })),
      extra: {
        product_metadata: { competitors: [teamTarget.get(away.code), teamTarget.get(home.code)] },
        competition: 'NBA',
        competition_scope: 'game',
        tags: ['NBA'],
        game: { tip, away, home },
      },
      rules: (m) => `Resolves Yes if ${m.yes_sub_title} wins the game, including overtime.`,
    });
  });

  for (const ev of events) {
    const { game: _game, race: _race, ...extra } = ev.extra;
    at(start, {
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

  // milestones: games, races, releases
  let milestoneN = 0;
  for (const ev of events) {
    const game = ev.extra.game as { tip: number; away: { name: string; code: string }; home: { name: string; code: string } } | undefined;
    const race = ev.extra.race as { city: string; candidates: string[] } | undefined;
    const base = { id: seedUuid(seed, 3, ++milestoneN), related_event_tickers: [ev.ticker], primary_event_tickers: [ev.ticker], source_id: null };
    if (game) {
      at(start, { type: 'catalogUpsertMilestone', milestone: { ...base, category: 'Sports', type: 'basketball_game', title: ev.title, start_ms: game.tip, end_ms: game.tip + 150 * MIN, notification_message: `${ev.title} tips off`, details: { home_team: game.home.name, away_team: game.away.name, players: [`${game.home.code} Guard`, `${game.home.code} Center`, `${game.away.code} Forward`], competition: 'NBA' } } });
    } else if (race) {
      at(start, { type: 'catalogUpsertMilestone', milestone: { ...base, category: 'Elections', type: 'political_race', title: ev.title, start_ms: ev.closeMs, end_ms: ev.closeMs + 6 * HOUR, notification_message: `Polls close in ${race.city}`, details: { candidates: race.candidates, expected_votes: 250_000 } } });
    } else if (ev.series === 'KXCPI') {
      at(start, { type: 'catalogUpsertMilestone', milestone: { ...base, category: 'Economics', type: 'economic_release', title: ev.title, start_ms: ev.closeMs + 30 * MIN, end_ms: null, notification_message: 'CPI released', details: { indicator: 'CPI YoY', consensus: 2.7, prior: 2.6 } } });
    } else milestoneN--;
  }

  // ---- markets and their history ---------------------------------------------------------------
  const lastPrice = new Map<string, number>();
  let orderN = 0;
  const order = (ms: number, userId: string, ticker: string, side: 'bid' | 'ask', priceTicks: number, countCenti: number, tif: 'good_till_canceled' | 'immediate_or_cancel') =>
    at(ms, { type: 'createOrder', userId, ticker, side, priceTicks, countCenti, timeInForce: tif, clientOrderId: `seed-${++orderN}` });

  for (const ev of events) {
    for (const m of ev.markets) {
      const created = Math.max(start + HOUR, Math.min(ev.openMs, stop) - DAY);
      at(created, {
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
      if (ev.fate === 'unopened') continue;
      at(ev.openMs, { type: 'catalogMarketLifecycle', ticker: m.ticker, action: 'open' });

      const tradeEnd = Math.min(ev.closeMs, stop) - MIN;
      const span = tradeEnd - (ev.openMs + MIN);
      const count = span <= 0 ? 0 : Math.min(60, 6 + Math.floor((span / DAY) * 3) + pick(0, 4));
      const times = Array.from({ length: count }, () => ev.openMs + MIN + Math.floor(rand() * span)).sort((a, b) => a - b);
      let fair = m.fair;
      times.forEach((t, i) => {
        const late = ev.fate === 'settled' && i > count * 0.7;
        const target = late ? (m.result === 'yes' ? 9300 : 700) : fair;
        fair = Math.round((fair + (target - fair) * 0.3 + (rand() - 0.5) * 600) / 100) * 100;
        fair = Math.max(100, Math.min(9900, fair));
        const size = pick(1, 25) * 100;
        const [mk, tk] = rand() < 0.5 ? [maker, taker] : [taker, maker];
        const takerSide = rand() < 0.5 ? 'bid' : 'ask';
        order(t, mk, m.ticker, takerSide === 'bid' ? 'ask' : 'bid', fair, size, 'good_till_canceled');
        order(t, tk, m.ticker, takerSide, fair, size, 'immediate_or_cancel');
      });
      lastPrice.set(m.ticker, fair);

      if (ev.fate === 'settled' || ev.fate === 'closed') at(ev.closeMs, { type: 'catalogMarketLifecycle', ticker: m.ticker, action: 'close' });
      if (ev.fate === 'settled') {
        at(ev.closeMs + 30 * MIN, { type: 'catalogMarketLifecycle', ticker: m.ticker, action: 'determine', result: m.result });
        at(ev.closeMs + HOUR, { type: 'catalogMarketLifecycle', ticker: m.ticker, action: 'settle' });
      }
    }
  }

  // ---- fees: series schedules and event overrides -------------------------------------------------
  at(D - 40 * DAY, { type: 'catalogScheduleSeriesFeeChange', id: 'KXBTC-FEE-1', series_ticker: 'KXBTC', fee_type: 'quadratic', fee_multiplier: '1', effective_ms: D - 40 * DAY });
  at(D - 20 * DAY, { type: 'catalogScheduleSeriesFeeChange', id: 'KXHIGHNY-FEE-1', series_ticker: 'KXHIGHNY', fee_type: 'quadratic_with_maker_fees', fee_multiplier: '1.25', effective_ms: D - 20 * DAY });
  at(D - DAY, { type: 'catalogScheduleSeriesFeeChange', id: 'KXCPI-FEE-1', series_ticker: 'KXCPI', fee_type: 'quadratic_with_maker_fees', fee_multiplier: '1', effective_ms: D + 14 * DAY });
  at(D - DAY, { type: 'catalogScheduleSeriesFeeChange', id: 'KXNBAGAME-FEE-1', series_ticker: 'KXNBAGAME', fee_type: 'quadratic_with_maker_fees', fee_multiplier: '0.8', effective_ms: D + 7 * DAY });
  const btcOpen = events.find((e) => e.series === 'KXBTC' && e.fate === 'open')!;
  const games = events.filter((e) => e.series === 'KXNBAGAME');
  at(D - 5 * HOUR, { type: 'catalogSetEventFeeOverride', id: `${btcOpen.ticker}-FEE-1`, event_ticker: btcOpen.ticker, fee_type_override: 'quadratic', fee_multiplier_override: '0.5' });
  at(D - DAY, { type: 'catalogSetEventFeeOverride', id: `${games[3]!.ticker}-FEE-1`, event_ticker: games[3]!.ticker, fee_type_override: 'quadratic', fee_multiplier_override: '0' });
  at(D - 3 * HOUR, { type: 'catalogSetEventFeeOverride', id: `${games[2]!.ticker}-FEE-1`, event_ticker: games[2]!.ticker, fee_type_override: 'quadratic', fee_multiplier_override: '2' });
  at(D - 2 * HOUR, { type: 'catalogSetEventFeeOverride', id: `${games[2]!.ticker}-FEE-2`, event_ticker: games[2]!.ticker, fee_type_override: null, fee_multiplier_override: null });

  // ---- multivariate collections and a few combos ------------------------------------------------
  const openOf = (series: string) => events.find((e) => e.series === series && e.fate === 'open')!;
  const cpi = openOf('KXCPI');
  const wx = openOf('KXHIGHNY');
  at(start, {
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
  at(start, {
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
  for (const [collection, legs] of combos) at(stop - 10 * MIN, { type: 'catalogCreateMarketInCollection', collection_ticker: collection, selected_markets: legs });

  // ---- resting quotes on every open market, then pauses ------------------------------------------
  for (const ev of events) {
    if (ev.fate !== 'open') continue;
    for (const m of ev.markets) {
      const p = lastPrice.get(m.ticker) ?? m.fair;
      for (let k = 1; k <= 3; k++) {
        if (p - k * 100 >= 100) order(stop + 3 * MIN, maker, m.ticker, 'bid', p - k * 100, pick(5, 50) * 100, 'good_till_canceled');
        if (p + k * 100 <= 9900) order(stop + 3 * MIN, taker, m.ticker, 'ask', p + k * 100, pick(5, 50) * 100, 'good_till_canceled');
      }
      if (m.paused) at(stop + 4 * MIN, { type: 'catalogMarketLifecycle', ticker: m.ticker, action: 'pause' });
    }
  }

  cmds.sort((a, b) => a.at - b.at || a.n - b.n);
  return cmds.map((c) => c.cmd);
}

/** Bootstrap step: submit the plan in order (group-committed), then check every outcome. */
export async function seedCatalog(ctx: BootstrapContext): Promise<void> {
  const { node } = ctx.svc;
  const plan = planCatalogSeed(ctx.svc.seed, node.now());
  const outcomes = plan.map((cmd) => node.submit(cmd).then((o) => ({ cmd, o })));
  for (const { cmd, o } of await Promise.all(outcomes)) {
    if (!o.ok) throw new Error(`catalog seed: ${cmd.type} was refused: ${JSON.stringify(o.result)} (${JSON.stringify(cmd).slice(0, 300)})`);
  }
}
