// @vitest-environment jsdom
// Every price the panels show is written at its market's tick: a cent market's 0.45 is "0.45",
// a deci-cent market's "0.450", a tapered market's tail price "0.095" and its middle "0.45".
// The Markets list and the Orders blotter are rendered with markets of each price level
// structure, and every price-shaped cell is checked with isPriceTextAtTick (what the
// display-truth harness checks on the real screen).
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { installFakeTerminal, stubLayout, withQueries, type FakeTerminal } from '../test/fake-terminal';
import { applyPrivateUpdate } from '../stores/private';
import { useSeed } from '../stores/seed';
import { MarketList } from '../features/markets/MarketList';
import { OrdersPanel } from '../features/orders/OrdersPanel';
import { isPriceTextAtTick, rangesOf, type PriceLevelStructure } from '../../src-shared/price-ranges';

let fake: FakeTerminal;
const STRUCTURES: Record<string, PriceLevelStructure> = { 'KXT-CENT': 'linear_cent', 'KXT-DECI': 'deci_cent', 'KXT-TAPER': 'tapered_deci_cent' };
const market = (ticker: string, bid: string, ask: string, last: string) => ({
  ticker,
  event_ticker: 'KXT',
  title: `Market ${ticker}`,
  status: 'open',
  yes_bid_dollars: bid,
  yes_ask_dollars: ask,
  no_bid_dollars: '0.0000',
  no_ask_dollars: '1.0000',
  last_price_dollars: last,
  volume_fp: '10.00',
  volume_24h_fp: '1.00',
  open_interest_fp: '5.00',
  price_level_structure: STRUCTURES[ticker],
  price_ranges: rangesOf(STRUCTURES[ticker]!),
});
const order = (id: string, ticker: string, price: string) => ({ order_id: id, client_order_id: `c-${id}`, ticker, status: 'resting', book_side: 'bid', yes_price_dollars: price, remaining_count_fp: '5.00', fill_count_fp: '0.00', created_time: '2026-11-25T10:00:00Z' });

beforeAll(() => {
  stubLayout();
  fake = installFakeTerminal();
});
beforeEach(() => {
  fake.reads.getMarkets = {
    markets: [market('KXT-CENT', '0.4500', '0.4700', '0.4600'), market('KXT-DECI', '0.4500', '0.4510', '0.4510'), market('KXT-TAPER', '0.0950', '0.1000', '0.4500')],
    cursor: '',
  };
  fake.reads.getQueuePositions = { queue_positions: [] };
  fake.reads.getOrderGroups = { order_groups: [] };
  applyPrivateUpdate({ reset: true, pending: [] });
  useSeed.setState({ orders: { state: 'ok' } });
});
afterEach(cleanup);

/** Every price-shaped text in the rows of a table, with the row's market. */
function pricesIn(region: HTMLElement): { ticker: string; text: string }[] {
  const out: { ticker: string; text: string }[] = [];
  for (const row of within(region).getAllByRole('row').slice(1)) {
    const ticker = Object.keys(STRUCTURES).find((t) => row.textContent?.includes(t));
    if (!ticker) continue;
    for (const cell of row.querySelectorAll('td')) {
      const text = cell.textContent?.trim() ?? '';
      if (/^\d\.\d+$/.test(text)) out.push({ ticker, text });
    }
  }
  return out;
}

describe("prices at each market's tick", () => {
  it('the Markets list shows bid, ask and last at the tick of each market', async () => {
    render(withQueries(<MarketList filters={{ status: 'open', series: '', event: '' }} setFilters={() => undefined} />));
    await screen.findAllByText('KXT-TAPER', undefined, { timeout: 5000 });
    const region = screen.getAllByRole('region').find((r) => within(r).queryAllByText('KXT-CENT').length > 0)!;
    const shown = pricesIn(region);
    expect(shown.map((p) => `${p.ticker} ${p.text}`)).toEqual(
      expect.arrayContaining(['KXT-CENT 0.45', 'KXT-CENT 0.47', 'KXT-CENT 0.46', 'KXT-DECI 0.450', 'KXT-DECI 0.451', 'KXT-TAPER 0.095', 'KXT-TAPER 0.10', 'KXT-TAPER 0.45']),
    );
    for (const p of shown) expect(isPriceTextAtTick(p.text, rangesOf(STRUCTURES[p.ticker]!)), `${p.ticker} shows ${p.text}`).toBe(true);
  });

  it('the Orders blotter shows each order price at its market tick, once the markets were read', async () => {
    render(withQueries(<MarketList filters={{ status: 'open', series: '', event: '' }} setFilters={() => undefined} />));
    await screen.findAllByText('KXT-TAPER', undefined, { timeout: 5000 });
    cleanup();
    applyPrivateUpdate({ orders: [order('o-1', 'KXT-CENT', '0.4500'), order('o-2', 'KXT-DECI', '0.4510'), order('o-3', 'KXT-TAPER', '0.9050'), order('o-4', 'KXT-TAPER', '0.5000')] });
    render(withQueries(<OrdersPanel />));
    const region = screen.getByRole('region', { name: /^Resting orders: arrows move/ });
    const shown = pricesIn(region);
    expect(shown.map((p) => `${p.ticker} ${p.text}`)).toEqual(expect.arrayContaining(['KXT-CENT 0.45', 'KXT-DECI 0.451', 'KXT-TAPER 0.905', 'KXT-TAPER 0.50']));
    for (const p of shown) expect(isPriceTextAtTick(p.text, rangesOf(STRUCTURES[p.ticker]!)), `${p.ticker} shows ${p.text}`).toBe(true);
  });
});
