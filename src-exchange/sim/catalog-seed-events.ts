// The seeded events and their markets, one family per function: inflation releases, NYC high
// temperatures, bitcoin ranges, mayoral races and basketball games, each placed relative to the
// start day with its fate (settled, closed, open, unopened). The families draw from the plan's
// random source in this order (planEvents), which is part of the seeded catalog.
import type { MarketResult } from '../engine/types';
import { GAMES, RACES, tickerDate } from './catalog-seed-data';
import { DAY, HOUR, MIN, type EventPlan, type Fate, type SeedPlan } from './catalog-seed-plan';

/** Every seeded event; `teamTarget` maps a team code to its structured target id. */
export function planEvents(p: SeedPlan, teamTarget: ReadonlyMap<string, string>): EventPlan[] {
  return [...cpiEvents(p), ...weatherEvents(p), ...bitcoinEvents(p), ...raceEvents(p), ...gameEvents(p, teamTarget)];
}

/** CPI: release day at 12:30 UTC; "above X%" strikes (not exclusive). */
function cpiEvents(p: SeedPlan): EventPlan[] {
  const { D } = p;
  const cpiDays: [number, Fate][] = [[-55, 'settled'], [-25, 'settled'], [5, 'open'], [35, 'unopened']];
  return cpiDays.map(([offset, fate]): EventPlan => {
    const release = D + offset * DAY + 12 * HOUR + 30 * MIN;
    const actual = 2.3 + p.pick(0, 7) / 10;
    const strikes = [2.4, 2.5, 2.6, 2.7, 2.8, 2.9];
    return {
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
    };
  });
}

/** NYC high temperature: two-degree brackets, exclusive. */
function weatherEvents(p: SeedPlan): EventPlan[] {
  const weatherDays: [number, Fate][] = [[-50, 'settled'], [-40, 'settled'], [-3, 'settled'], [-1, 'closed'], [1, 'open']];
  return weatherDays.map(([offset, fate]): EventPlan => {
    const day = p.D + offset * DAY;
    const c = p.pick(40, 80);
    const winner = p.pick(1, 4);
    const edges = [c - 4, c - 2, c, c + 2, c + 4];
    const brackets: [number | null, number | null][] = [[null, edges[0]!], [edges[0]!, edges[1]!], [edges[1]!, edges[2]!], [edges[2]!, edges[3]!], [edges[3]!, edges[4]!], [edges[4]!, null]];
    return {
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
    };
  });
}

/** Bitcoin: thousand-dollar ranges at 17:00 UTC (noon ET), exclusive. */
function bitcoinEvents(p: SeedPlan): EventPlan[] {
  const { D } = p;
  const btcDays: [number, Fate][] = [[-45, 'settled'], [-5, 'settled'], [1, 'open'], [2, 'unopened']];
  return btcDays.map(([offset, fate]): EventPlan => {
    const day = D + offset * DAY;
    const c = p.pick(60, 100) * 1000;
    const winner = p.pick(2, 4);
    return {
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
    };
  });
}

/** Mayoral races: long-running, exclusive. */
function raceEvents(p: SeedPlan): EventPlan[] {
  const { D } = p;
  const raceTimes: [number, number, Fate][] = [[-60, -20, 'settled'], [-60, 30, 'open'], [-15, 60, 'open']];
  return RACES.map((race, r): EventPlan => {
    const [open, close, fate] = raceTimes[r]!;
    const winner = p.pick(0, 3);
    return {
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
    };
  });
}

/** Basketball: one market per team, exclusive; the third game is under way now. */
function gameEvents(p: SeedPlan, teamTarget: ReadonlyMap<string, string>): EventPlan[] {
  const { D } = p;
  const gameTimes: [number, Fate][] = [[-38 * DAY + 23 * HOUR, 'settled'], [-2 * DAY + 23 * HOUR, 'settled'], [p.nowMs - D - HOUR, 'open'], [2 * DAY + 23 * HOUR, 'open']];
  return GAMES.map(([away, home], g): EventPlan => {
    const [offset, fate] = gameTimes[g]!;
    const tip = D + offset;
    const homeWins = p.rand() < 0.55;
    const ticker = `KXNBAGAME-${tickerDate(tip)}${away.code}${home.code}`;
    return {
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
    };
  });
}
