// @vitest-environment jsdom
// The Markets panel's other views: the watchlist (add by ticker, missing markets named and
// removable, Enter selects), series (filter by category, open one), and events (pick an event,
// then a market in it).
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { installFakeTerminal, stubLayout, withQueries, type FakeTerminal } from '../../test/fake-terminal';
import { marketStore } from '../../stores/market';
import { useTrading } from '../../stores/trading';
import { EventList } from './EventList';
import { SeriesList } from './SeriesList';
import { Watchlist } from './Watchlist';

let fake: FakeTerminal;
const market = (ticker: string, bid = '0.4500', ask = '0.4700') => ({ ticker, event_ticker: 'KXV-EV1', title: `Market ${ticker}`, status: 'open', yes_bid_dollars: bid, yes_ask_dollars: ask, last_price_dollars: bid, volume_fp: '1.00', open_interest_fp: '1.00' });
const asked = (id: string) => fake.api.request.mock.calls.map(([i]) => i as { id: string; query?: Record<string, unknown> }).filter((i) => i.id === id);

beforeAll(() => {
  stubLayout();
  fake = installFakeTerminal();
});
beforeEach(() => {
  fake.api.request.mockClear();
  marketStore.setState({ tickers: {}, trades: {}, lifecycle: [], lastTrades: [], version: 0 });
  useTrading.setState({ ticker: null, watchlist: [] });
});
afterEach(cleanup);

describe('the watchlist', () => {
  it('says how to fill it when empty, and adds a typed ticker upper-cased', async () => {
    fake.reads.getMarkets = { markets: [market('KXV-A')], cursor: '' };
    render(withQueries(<Watchlist />));
    expect(screen.getByText(/^The watchlist is empty\./)).toBeTruthy();
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Add a ticker to the watchlist' }), 'kxv-a{Enter}');
    expect(useTrading.getState().watchlist).toEqual(['KXV-A']);
    const table = await screen.findByRole('table', { name: 'Watchlist' }, { timeout: 5000 });
    expect(await within(table).findByText('KXV-A')).toBeTruthy();
    expect(asked('getMarkets').at(-1)?.query).toMatchObject({ tickers: 'KXV-A' });
  });

  it('names the watched markets the exchange does not list, and removes them on request', async () => {
    useTrading.setState({ watchlist: ['KXV-A', 'KXV-GONE'] });
    fake.reads.getMarkets = { markets: [market('KXV-A')], cursor: '' };
    render(withQueries(<Watchlist />));
    const note = await screen.findByText(/1 not found/, undefined, { timeout: 5000 });
    expect(note.getAttribute('title')).toBe('KXV-GONE');
    await userEvent.setup().click(within(note).getByRole('button', { name: 'remove them' }));
    expect(useTrading.getState().watchlist).toEqual(['KXV-A']);
  });

  it('Enter on a row selects that market', async () => {
    useTrading.setState({ watchlist: ['KXV-A', 'KXV-B'] });
    fake.reads.getMarkets = { markets: [market('KXV-A'), market('KXV-B')], cursor: '' };
    render(withQueries(<Watchlist />));
    await screen.findByRole('table', { name: 'Watchlist' }, { timeout: 5000 });
    const user = userEvent.setup();
    screen.getByRole('region', { name: /^Watchlist: arrows move/ }).focus();
    await user.keyboard('{End}{Enter}');
    expect(useTrading.getState().ticker).toBe('KXV-B');
  });
});

describe('series', () => {
  it('lists series with their fee terms, filters by category, and opens one', async () => {
    fake.reads.getSeriesList = ({ query }: { query?: { category?: string } }) => ({
      series: [
        { ticker: 'KXV-RAIN', title: 'Rain', category: 'Climate', frequency: 'daily', fee_type: 'quadratic', fee_multiplier: '1' },
        { ticker: 'KXV-CPI', title: 'Inflation', category: 'Economics', frequency: 'monthly', fee_type: 'quadratic_with_maker_fees', fee_multiplier: '0.5' },
      ].filter((s) => !query?.category || s.category === query.category),
    });
    const onOpen = vi.fn();
    render(withQueries(<SeriesList onOpen={onOpen} />));
    const table = await screen.findByRole('table', { name: 'Series' }, { timeout: 5000 });
    expect(within(table).getByText('quadratic_with_maker_fees')).toBeTruthy();
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Filter series by category' }), 'Climate');
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Series' })).queryByText('KXV-CPI')).toBeNull(), { timeout: 5000 });
    expect(asked('getSeriesList').at(-1)?.query).toEqual({ category: 'Climate' });
    screen.getByRole('region', { name: /^Series: arrows move/ }).focus();
    await user.keyboard('{Home}{Enter}');
    expect(onOpen).toHaveBeenCalledWith(expect.objectContaining({ ticker: 'KXV-RAIN' }));
  });
});

describe('events', () => {
  it('asks for events with their markets, and shows the markets of the event picked', async () => {
    fake.reads.getEvents = { events: [{ event_ticker: 'KXV-EV1', series_ticker: 'KXV', title: 'Rain this week', category: 'Climate', status: 'open', markets: [market('KXV-EV1-MON'), market('KXV-EV1-TUE', '0.1000', '0.1200')] }], cursor: '' };
    render(withQueries(<EventList series="KXV" />));
    const events = await screen.findByRole('table', { name: 'Events' }, { timeout: 5000 });
    expect(asked('getEvents')[0]?.query).toMatchObject({ with_nested_markets: true, series_ticker: 'KXV' });
    expect(screen.getByText('Choose an event (Enter or double-click) to see its markets.')).toBeTruthy();
    const row = within(events).getByText('KXV-EV1').closest('tr')!;
    expect(row.querySelector('td[data-col="markets"]')?.textContent).toBe('2');
    const user = userEvent.setup();
    await user.dblClick(row);
    const markets = await screen.findByRole('table', { name: 'Markets in KXV-EV1' });
    expect(within(markets).getByText('KXV-EV1-TUE')).toBeTruthy();
    screen.getByRole('region', { name: /^Markets in KXV-EV1: arrows move/ }).focus();
    await user.keyboard('{End}{Enter}');
    expect(useTrading.getState().ticker).toBe('KXV-EV1-TUE');
  });
});
