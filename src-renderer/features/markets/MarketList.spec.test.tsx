// @vitest-environment jsdom
// The Markets list as a trader uses it: what it asks the exchange for, its rows and their prices
// at each market's tick, search, sorting, the keyboard, live prices from the market stream, the
// first-start pick of a live market, and its honest empty and error states.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { installFakeTerminal, stubLayout, withQueries, type FakeTerminal } from '../../test/fake-terminal';
import { rangesOf } from '../../../src-shared/price-ranges';
import { applyMarketUpdate, marketStore } from '../../stores/market';
import { useTrading } from '../../stores/trading';
import { MarketList, type MarketFilters } from './MarketList';
import { MarketsPanel } from './MarketsPanel';

let fake: FakeTerminal;
const market = (ticker: string, o: { bid: string; ask: string; last?: string; volume?: string; title?: string; deci?: boolean }) => ({
  ticker,
  event_ticker: 'KXM',
  title: o.title ?? `Market ${ticker}`,
  status: 'open',
  yes_bid_dollars: o.bid,
  yes_ask_dollars: o.ask,
  no_bid_dollars: '0.0000',
  no_ask_dollars: '1.0000',
  last_price_dollars: o.last ?? o.bid,
  volume_fp: o.volume ?? '10.00',
  volume_24h_fp: '1.00',
  open_interest_fp: '5.00',
  price_level_structure: o.deci ? 'deci_cent' : 'linear_cent',
  price_ranges: rangesOf(o.deci ? 'deci_cent' : 'linear_cent'),
});
const MARKETS = [
  market('KXM-RAIN', { bid: '0.4500', ask: '0.4700', volume: '120.00', title: 'Rain in Paris' }),
  market('KXM-SNOW', { bid: '0.1230', ask: '0.1250', volume: '900.00', title: 'Snow in Oslo', deci: true }),
  market('KXM-WIND', { bid: '0.0000', ask: '1.0000', volume: '5000.00', title: 'Wind in Chicago' }),
];

const OPEN: MarketFilters = { status: 'open', series: '', event: '' };
const table = () => screen.getByRole('table', { name: 'Markets' });
const region = () => screen.getByRole('region', { name: /^Markets: arrows move/ });
/** The tickers of the table's rows, top to bottom. */
const tickers = () =>
  within(table())
    .getAllByRole('row')
    .slice(1)
    .map((r) => r.querySelector('td .mono')?.textContent ?? '')
    .filter(Boolean);
/** Waits for the list to load its markets. */
const loaded = async () => {
  await screen.findByRole('table', { name: 'Markets' }, { timeout: 5000 });
  await within(table()).findByText('KXM-SNOW', undefined, { timeout: 5000 });
};
/** The text of one cell: the market's row, the column's id. */
const cell = (ticker: string, column: string) => rowOf(ticker).querySelector(`td[data-col="${column}"]`)?.textContent ?? '';
const rowOf = (ticker: string) => within(table()).getByText(ticker).closest('tr')!;

beforeAll(() => {
  stubLayout();
  fake = installFakeTerminal();
});
beforeEach(() => {
  fake.api.request.mockClear();
  fake.reads.getMarkets = { markets: MARKETS, cursor: '' };
  marketStore.setState({ tickers: {}, trades: {}, lifecycle: [], lastTrades: [], version: 0 });
  useTrading.setState({ ticker: 'KXM-RAIN', watchlist: [] });
});
afterEach(cleanup);

describe('the Markets list', () => {
  it('asks for open markets and lists each with its title, prices at its tick, volume and status', async () => {
    render(withQueries(<MarketList filters={OPEN} setFilters={() => undefined} />));
    await loaded();
    const call = fake.api.request.mock.calls.find(([i]) => (i as { id: string }).id === 'getMarkets')![0] as { query?: Record<string, unknown> };
    expect(call.query).toMatchObject({ status: 'open' });
    expect(tickers()).toEqual(['KXM-RAIN', 'KXM-SNOW', 'KXM-WIND']);
    const rain = within(rowOf('KXM-RAIN'));
    expect(rain.getByText('Rain in Paris')).toBeTruthy();
    expect([cell('KXM-RAIN', 'bid'), cell('KXM-RAIN', 'ask'), cell('KXM-RAIN', 'last')]).toEqual(['0.45', '0.47', '0.45']);
    // a deci-cent market keeps its third decimal
    expect([cell('KXM-SNOW', 'bid'), cell('KXM-SNOW', 'ask')]).toEqual(['0.123', '0.125']);
    expect(cell('KXM-SNOW', 'volume')).toBe('900');
    expect(cell('KXM-SNOW', 'status')).toBe('open');
  });

  it('filters the loaded markets by ticker or title as you type, and says when nothing matches', async () => {
    render(withQueries(<MarketList filters={OPEN} setFilters={() => undefined} />));
    await loaded();
    const user = userEvent.setup();
    const search = screen.getByRole('searchbox', { name: 'Search markets by ticker or title' });
    await user.type(search, 'oslo');
    await waitFor(() => expect(tickers()).toEqual(['KXM-SNOW']));
    await user.clear(search);
    await user.type(search, 'KXM-W');
    await waitFor(() => expect(tickers()).toEqual(['KXM-WIND']));
    await user.clear(search);
    await user.type(search, 'no such market');
    expect(await screen.findByText('No markets match these filters.')).toBeTruthy();
  });

  it('Enter in the search selects the first match for the linked panels', async () => {
    render(withQueries(<MarketList filters={OPEN} setFilters={() => undefined} />));
    await loaded();
    const user = userEvent.setup();
    await user.type(screen.getByRole('searchbox', { name: 'Search markets by ticker or title' }), 'snow{Enter}');
    expect(useTrading.getState().ticker).toBe('KXM-SNOW');
    await waitFor(() => expect(rowOf('KXM-SNOW').className).toContain('selected-row'));
  });

  it('sorts a numeric column by value (900 before 5000), and the other way on a second press', async () => {
    render(withQueries(<MarketList filters={OPEN} setFilters={() => undefined} />));
    await loaded();
    const user = userEvent.setup();
    const volume = within(table()).getByRole('button', { name: 'Volume' });
    await user.click(volume);
    const header = volume.closest('th')!;
    const first = header.getAttribute('aria-sort');
    expect(first === 'ascending' || first === 'descending').toBe(true);
    const ascending = ['KXM-RAIN', 'KXM-SNOW', 'KXM-WIND'];
    expect(tickers()).toEqual(first === 'ascending' ? ascending : [...ascending].reverse());
    await user.click(volume);
    expect(header.getAttribute('aria-sort')).toBe(first === 'ascending' ? 'descending' : 'ascending');
    expect(tickers()).toEqual(first === 'ascending' ? [...ascending].reverse() : ascending);
  });

  it('the keyboard walks the rows and Enter opens the market under the cursor', async () => {
    render(withQueries(<MarketList filters={OPEN} setFilters={() => undefined} />));
    await loaded();
    const user = userEvent.setup();
    region().focus();
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(['KXM-SNOW', 'KXM-WIND']).toContain(useTrading.getState().ticker);
    await user.keyboard('{End}{Enter}');
    expect(useTrading.getState().ticker).toBe('KXM-WIND');
    await user.keyboard('{Home}{Enter}');
    expect(useTrading.getState().ticker).toBe('KXM-RAIN');
  });

  it('Left and Right never scroll the list sideways (they hid Ticker and Market); the row stays where it was', async () => {
    render(withQueries(<MarketList filters={OPEN} setFilters={() => undefined} />));
    await loaded();
    region().focus();
    fireEvent.keyDown(region(), { key: 'ArrowDown' });
    const active = () => region().querySelector('tr.active-row')?.getAttribute('data-row-id');
    const before = active();
    expect(before).toBeTruthy();
    for (const key of ['ArrowRight', 'ArrowLeft']) {
      // fireEvent answers false when the list took the key (the browser's sideways scroll is prevented)
      expect(fireEvent.keyDown(region(), { key }), `${key} is taken by the list`).toBe(false);
      expect(active()).toBe(before);
    }
    // with a modifier the key is not the list's (the app's own chords)
    expect(fireEvent.keyDown(region(), { key: 'ArrowRight', altKey: true })).toBe(true);
  });

  it('shows prices from the market stream over the snapshot it loaded', async () => {
    render(withQueries(<MarketList filters={OPEN} setFilters={() => undefined} />));
    await loaded();
    act(() => applyMarketUpdate({ tickers: [{ ticker: 'KXM-RAIN', yes_bid_dollars: '0.5100', yes_ask_dollars: '0.5300' }], trades: [], lifecycle: [] } as never));
    await waitFor(() => expect(cell('KXM-RAIN', 'bid')).toBe('0.51'));
    expect(cell('KXM-RAIN', 'ask')).toBe('0.53');
    // the other market keeps its snapshot
    expect(cell('KXM-SNOW', 'bid')).toBe('0.123');
  });

  it('on a first start picks the busiest market quoted on both sides, not a one-sided one', async () => {
    useTrading.setState({ ticker: null });
    render(withQueries(<MarketList filters={OPEN} setFilters={() => undefined} />));
    await loaded();
    // KXM-WIND trades most but has no bid: SNOW is the busiest live market
    await waitFor(() => expect(useTrading.getState().ticker).toBe('KXM-SNOW'));
  });

  it('the star adds a market to the watchlist and takes it off again', async () => {
    render(withQueries(<MarketList filters={OPEN} setFilters={() => undefined} />));
    await loaded();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Add KXM-RAIN to the watchlist' }));
    expect(useTrading.getState().watchlist).toContain('KXM-RAIN');
    expect(useTrading.getState().ticker).toBe('KXM-RAIN');
    await user.click(screen.getByRole('button', { name: 'Remove KXM-RAIN from the watchlist' }));
    expect(useTrading.getState().watchlist).not.toContain('KXM-RAIN');
  });

  it('says there are no open markets when the exchange lists none', async () => {
    fake.reads.getMarkets = { markets: [], cursor: '' };
    render(withQueries(<MarketList filters={OPEN} setFilters={() => undefined} />));
    expect(await screen.findByText('No open markets.', undefined, { timeout: 5000 })).toBeTruthy();
  });

  it("shows the exchange's error with its code, and Try again asks once more", async () => {
    let calls = 0;
    fake.reads.getMarkets = () => {
      calls += 1;
      throw Object.assign(new Error('the exchange is down for maintenance'), { kind: 'api', status: 503, code: 'service_unavailable' });
    };
    render(withQueries(<MarketList filters={OPEN} setFilters={() => undefined} />));
    const alert = await screen.findByRole('alert', undefined, { timeout: 10_000 });
    expect(alert.textContent).toContain('service_unavailable');
    expect(alert.textContent).toContain('503');
    const before = calls;
    fake.reads.getMarkets = { markets: MARKETS, cursor: '' };
    await userEvent.setup().click(within(alert).getByRole('button', { name: 'Try again' }));
    await loaded();
    expect(calls).toBeGreaterThanOrEqual(before);
  });

  it('a status filter is asked of the exchange, not applied to what was loaded', async () => {
    function WithFilters() {
      const [f, setF] = useStateFilters();
      return <MarketList filters={f} setFilters={setF} />;
    }
    render(withQueries(<WithFilters />));
    await loaded();
    fake.api.request.mockClear();
    fake.reads.getMarkets = { markets: [{ ...MARKETS[0]!, status: 'settled' }], cursor: '' };
    await userEvent.setup().selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'settled');
    await waitFor(() => {
      const q = fake.api.request.mock.calls.map(([i]) => i as { id: string; query?: Record<string, unknown> }).find((i) => i.id === 'getMarkets');
      expect(q?.query).toMatchObject({ status: 'settled' });
    });
    await waitFor(() => expect(tickers()).toEqual(['KXM-RAIN']));
  });
});

describe('the Markets panel', () => {
  it('opens on the Markets tab and switches to the Watchlist', async () => {
    useTrading.setState({ watchlist: ['KXM-SNOW'] });
    fake.reads.getMarket = ({ params }: { params?: { ticker?: string } }) => ({ market: MARKETS.find((m) => m.ticker === params?.ticker) ?? MARKETS[0] });
    render(withQueries(<MarketsPanel />));
    expect(screen.getByRole('tab', { name: 'Markets', selected: true })).toBeTruthy();
    await loaded();
    await userEvent.setup().click(screen.getByRole('tab', { name: 'Watchlist' }));
    expect(screen.getByRole('tab', { name: 'Watchlist', selected: true })).toBeTruthy();
    expect(screen.queryByRole('table', { name: 'Markets' })).toBeNull();
  });
});

import { useState } from 'react';
function useStateFilters() {
  return useState<MarketFilters>(OPEN);
}
