// The static part of the seeded world: series, teams, candidates, structured targets. The
// plan (catalog-seed.ts) turns these into events, markets and history relative to "now".
import type { FeeType } from '../engine/types';

export interface SeriesDef {
  ticker: string;
  title: string;
  category: string;
  categories: string[];
  tags: string[];
  frequency: string;
  fee_type: FeeType;
  fee_multiplier: string;
  source: { name: string; url: string };
}

export const SERIES: SeriesDef[] = [
  {
    ticker: 'KXCPI',
    title: 'CPI year-over-year inflation',
    category: 'Economics',
    categories: ['Economics', 'Financials'],
    tags: ['Inflation', 'CPI'],
    frequency: 'monthly',
    fee_type: 'quadratic',
    fee_multiplier: '1',
    source: { name: 'Bureau of Labor Statistics', url: 'https://www.bls.gov/cpi/' },
  },
  {
    ticker: 'KXHIGHNY',
    title: 'Highest temperature in New York City',
    category: 'Climate and Weather',
    categories: ['Climate and Weather'],
    tags: ['Weather', 'Temperature'],
    frequency: 'daily',
    fee_type: 'quadratic_with_maker_fees',
    fee_multiplier: '1',
    source: { name: 'National Weather Service', url: 'https://www.weather.gov/okx/' },
  },
  {
    ticker: 'KXBTC',
    title: 'Bitcoin price range',
    category: 'Crypto',
    categories: ['Crypto', 'Financials'],
    tags: ['BTC', 'Crypto'],
    frequency: 'daily',
    fee_type: 'quadratic',
    fee_multiplier: '1.5',
    source: { name: 'CF Benchmarks', url: 'https://www.cfbenchmarks.com/' },
  },
  {
    ticker: 'KXMAYOR',
    title: 'Mayoral race winner',
    category: 'Politics',
    categories: ['Politics', 'Elections'],
    tags: ['Elections', 'Local'],
    frequency: 'custom',
    fee_type: 'quadratic',
    fee_multiplier: '1',
    source: { name: 'Associated Press', url: 'https://apnews.com/' },
  },
  {
    ticker: 'KXNBAGAME',
    title: 'Pro basketball game winner',
    category: 'Sports',
    categories: ['Sports', 'Basketball'],
    tags: ['Basketball', 'NBA'],
    frequency: 'daily',
    fee_type: 'quadratic_with_maker_fees',
    fee_multiplier: '1',
    source: { name: 'NBA', url: 'https://www.nba.com/' },
  },
  {
    ticker: 'KXMVENBA',
    title: 'Pro basketball multi-game combos',
    category: 'Sports',
    categories: ['Sports'],
    tags: ['Combos', 'NBA'],
    frequency: 'custom',
    fee_type: 'quadratic',
    fee_multiplier: '1',
    source: { name: 'NBA', url: 'https://www.nba.com/' },
  },
  {
    ticker: 'KXMVECROSS',
    title: 'Cross-category combos',
    category: 'Economics',
    categories: ['Economics', 'Crypto', 'Climate and Weather'],
    tags: ['Combos'],
    frequency: 'custom',
    fee_type: 'quadratic',
    fee_multiplier: '1',
    source: { name: 'Exchange', url: 'https://example.invalid/combos' },
  },
];

export interface TeamDef {
  code: string;
  name: string;
  conference: 'Eastern' | 'Western';
  division: string;
}

/** Game pairs (away, home), one per seeded game, oldest first. */
export const GAMES: [TeamDef, TeamDef][] = [
  [
    { code: 'BOS', name: 'Boston', conference: 'Eastern', division: 'Atlantic' },
    { code: 'NYK', name: 'New York', conference: 'Eastern', division: 'Atlantic' },
  ],
  [
    { code: 'LAL', name: 'Los Angeles', conference: 'Western', division: 'Pacific' },
    { code: 'GSW', name: 'Golden State', conference: 'Western', division: 'Pacific' },
  ],
  [
    { code: 'MIA', name: 'Miami', conference: 'Eastern', division: 'Southeast' },
    { code: 'CHI', name: 'Chicago', conference: 'Eastern', division: 'Central' },
  ],
  [
    { code: 'DEN', name: 'Denver', conference: 'Western', division: 'Northwest' },
    { code: 'PHX', name: 'Phoenix', conference: 'Western', division: 'Pacific' },
  ],
];

export const RACES: { code: string; city: string; candidates: string[] }[] = [
  { code: 'SEA', city: 'Seattle', candidates: ['Alvarez', 'Brooks', 'Chen', 'Dawson'] },
  { code: 'BOS', city: 'Boston', candidates: ['Ellis', 'Fischer', 'Garcia', 'Hughes'] },
  { code: 'DEN', city: 'Denver', candidates: ['Ito', 'Johnson', 'Kowalski', 'Lopez'] },
];

export const OTHER_TARGETS: { name: string; type: string; competition: string; details: Record<string, unknown> }[] = [
  { name: 'Arsenal', type: 'soccer_team', competition: 'EPL', details: { league: 'Premier League', leagues: ['EPL', 'UCL'], country: 'England' } },
  { name: 'Liverpool', type: 'soccer_team', competition: 'EPL', details: { league: 'Premier League', leagues: ['EPL', 'UCL'], country: 'England' } },
  { name: 'Manchester City', type: 'soccer_team', competition: 'EPL', details: { league: 'Premier League', leagues: ['EPL', 'UCL'], country: 'England' } },
  { name: 'Scottie Scheffler', type: 'golfer', competition: 'PGA Tour', details: { tour: 'PGA Tour', country: 'USA' } },
  { name: 'Rory McIlroy', type: 'golfer', competition: 'PGA Tour', details: { tour: 'PGA Tour', country: 'Northern Ireland' } },
];

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

/** 26NOV21 for 2026-11-21 (UTC): the date part of tickers. */
export function tickerDate(ms: number): string {
  const d = new Date(ms);
  return `${String(d.getUTCFullYear() % 100).padStart(2, '0')}${MONTHS[d.getUTCMonth()]}${String(d.getUTCDate()).padStart(2, '0')}`;
}

/** A deterministic UUID-shaped id. */
export function seedUuid(seed: number, kind: number, n: number): string {
  const h = (x: number) => (x >>> 0).toString(16).padStart(8, '0');
  return `5eed${h(seed).slice(4)}-${h(kind).slice(4)}-4000-8000-${h(n).slice(0, 4)}${h(n * 2654435761)}`;
}
