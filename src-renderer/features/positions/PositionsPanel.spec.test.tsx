// @vitest-environment jsdom
// The Positions panel as a trader reads it: each open position with its side, cost, mark (the
// book's mid, else the last trade), value and P&L, the totals, live re-marking as the market
// moves, Select/Enter and Flatten, fills, and the honest loading, empty and error states.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { installFakeTerminal, stubLayout, withQueries, type FakeTerminal } from '../../test/fake-terminal';
import { applyMarketUpdate, marketStore } from '../../stores/market';
import { applyPrivateUpdate } from '../../stores/private';
import { useSeed } from '../../stores/seed';
import { useTrading } from '../../stores/trading';
import { registerCommand } from '../../lib/commands';
import { PositionsPanel } from './PositionsPanel';

let fake: FakeTerminal;
const position = (ticker: string, fp: string, cost: string, realized = '0.0000', fees = '0.0000') => ({
  ticker,
  position_fp: fp,
  market_exposure_dollars: cost,
  realized_pnl_dollars: realized,
  fees_paid_dollars: fees,
});
const lastTrade = (ticker: string, price: string) => applyMarketUpdate({ tickers: [{ ticker, price_dollars: price }], trades: [], lifecycle: [] } as never);

const table = () => screen.getByRole('table', { name: 'Positions' });
const rowOf = (ticker: string) => within(table()).getByText(ticker).closest('tr')!;
const cell = (ticker: string, column: string) => rowOf(ticker).querySelector(`td[data-col="${column}"]`)?.textContent ?? '';

beforeAll(() => {
  stubLayout();
  fake = installFakeTerminal();
});
beforeEach(() => {
  applyPrivateUpdate({ reset: true, pending: [] });
  marketStore.setState({ tickers: {}, trades: {}, lifecycle: [], lastTrades: [], version: 0 });
  useSeed.setState({ positions: { state: 'ok' }, fills: { state: 'ok' } });
  useTrading.setState({ ticker: null });
  fake.reads.getPositions = { market_positions: [], event_positions: [], cursor: '' };
});
afterEach(cleanup);

describe('the Positions panel', () => {
  it('shows a long YES and a short (NO) position with cost, mark from the last trade, value and P&L', async () => {
    lastTrade('KXP-A', '0.6000');
    lastTrade('KXP-B', '0.3000');
    applyPrivateUpdate({ positions: [position('KXP-A', '10.00', '4.5000', '1.2500', '0.1400'), position('KXP-B', '-5.00', '2.0000')] });
    render(withQueries(<PositionsPanel />));
    await within(table()).findByText('KXP-A');
    // 10 YES bought for $4.50, marked at 0.60: worth $6.00, +$1.50 unrealized, +$2.75 in all
    expect(cell('KXP-A', 'position')).toBe('10 YES');
    expect(cell('KXP-A', 'cost')).toBe('$4.50');
    expect(cell('KXP-A', 'mark')).toBe('0.60 last');
    expect(cell('KXP-A', 'value')).toBe('$6.00');
    expect(cell('KXP-A', 'unrealized')).toBe('+$1.50');
    expect(cell('KXP-A', 'realized')).toBe('+$1.25');
    // net of the $0.14 fees: +1.50 + 1.25 - 0.14
    expect(cell('KXP-A', 'total')).toBe('+$2.61');
    expect(cell('KXP-A', 'fees')).toBe('$0.14');
    // 5 NO for $2.00 with YES at 0.30: each NO is worth 0.70, $3.50 in all, +$1.50
    expect(cell('KXP-B', 'position')).toBe('5 NO');
    expect(cell('KXP-B', 'value')).toBe('$3.50');
    expect(cell('KXP-B', 'unrealized')).toBe('+$1.50');
  });

  it('adds up unrealized and realized P&L and fees over every position in the tools', async () => {
    lastTrade('KXP-A', '0.4000');
    lastTrade('KXP-B', '0.3000');
    applyPrivateUpdate({ positions: [position('KXP-A', '10.00', '4.5000', '-0.5000', '0.1000'), position('KXP-B', '-5.00', '2.0000', '0.2500', '0.0500')] });
    render(withQueries(<PositionsPanel />));
    await within(table()).findByText('KXP-A');
    // A: 10 × 0.40 − 4.50 = −0.50; B: 5 × 0.70 − 2.00 = +1.50; together +1.00
    const tools = table().closest('.panel, section, div')!.parentElement!;
    const text = tools.textContent ?? '';
    expect(text).toMatch(/Unrealized\s*\+\$1\.00/);
    expect(text).toMatch(/Realized\s*-\$0\.25/);
    expect(text).toContain('Fees $0.15');
    expect(cell('KXP-A', 'unrealized')).toBe('-$0.50');
    expect(rowOf('KXP-A').querySelector('td[data-col="unrealized"] .neg')).toBeTruthy();
    expect(rowOf('KXP-B').querySelector('td[data-col="unrealized"] .pos')).toBeTruthy();
  });

  it('re-marks a position as the market trades, and says when there is no mark', async () => {
    applyPrivateUpdate({ positions: [position('KXP-A', '10.00', '4.5000')] });
    render(withQueries(<PositionsPanel />));
    await within(table()).findByText('KXP-A');
    expect(cell('KXP-A', 'mark')).toBe('no mark');
    expect(cell('KXP-A', 'unrealized')).toBe('—');
    act(() => lastTrade('KXP-A', '0.5000'));
    await waitFor(() => expect(cell('KXP-A', 'mark')).toBe('0.50 last'));
    expect(cell('KXP-A', 'unrealized')).toBe('+$0.50');
    act(() => lastTrade('KXP-A', '0.4000'));
    await waitFor(() => expect(cell('KXP-A', 'unrealized')).toBe('-$0.50'));
  });

  it('keeps the realized P&L and fees of a position that went flat in the totals, and lists it under Flat', async () => {
    // bought 5 at 0.52, flattened at 0.50: -$0.10 realized, $0.09 fees; the balance dropped $0.19
    applyPrivateUpdate({ positions: [position('KXP-FLAT', '0.00', '0.0000', '-0.1000', '0.0900')] });
    render(withQueries(<PositionsPanel />));
    expect(await screen.findByText('No open positions (1 flat: their P&L is in the totals).')).toBeTruthy();
    expect(screen.queryByText('KXP-FLAT')).toBeNull();
    const text = () => document.body.textContent ?? '';
    expect(text()).toMatch(/Realized\s*-\$0\.10/);
    expect(text()).toContain('Fees $0.09');
    expect(text()).toMatch(/Net\s*-\$0\.19/);
    await userEvent.setup().click(screen.getByRole('button', { name: /Flat 1/ }));
    await within(table()).findByText('KXP-FLAT');
    expect(cell('KXP-FLAT', 'position')).toBe('flat');
    expect(cell('KXP-FLAT', 'realized')).toBe('-$0.10');
    expect(cell('KXP-FLAT', 'fees')).toBe('$0.09');
    expect(cell('KXP-FLAT', 'total')).toBe('-$0.19');
  });

  it('totals open and flat positions together (a settled market included)', async () => {
    lastTrade('KXP-A', '0.4000');
    applyPrivateUpdate({ positions: [position('KXP-A', '10.00', '4.5000', '0.0000', '0.1000'), position('KXP-SETTLED', '0.00', '0.0000', '2.0000', '0.0500')] });
    render(withQueries(<PositionsPanel />));
    await within(table()).findByText('KXP-A');
    const text = table().closest('.panel, section, div')!.parentElement!.textContent ?? '';
    // A: -0.50 unrealized; the settled market: +2.00 realized; fees 0.15: net +1.35
    expect(text).toMatch(/Unrealized\s*-\$0\.50/);
    expect(text).toMatch(/Realized\s*\+\$2\.00/);
    expect(text).toContain('Fees $0.15');
    expect(text).toMatch(/Net\s*\+\$1\.35/);
  });

  it('says it is loading while the positions are seeded, and shows a failed seed with Try again', async () => {
    useSeed.setState({ positions: { state: 'loading' } });
    render(withQueries(<PositionsPanel />));
    expect(screen.getByRole('status').textContent).toContain('Loading positions…');
    cleanup();
    useSeed.setState({ positions: { state: 'error', error: Object.assign(new Error('portfolio unavailable'), { kind: 'api', status: 500, code: 'internal' }), at: 0 } });
    render(withQueries(<PositionsPanel />));
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('internal');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('Select and Enter pick the market for the linked panels; Flatten selects it and runs the flatten command', async () => {
    lastTrade('KXP-A', '0.6000');
    applyPrivateUpdate({ positions: [position('KXP-A', '10.00', '4.5000'), position('KXP-B', '-5.00', '2.0000')] });
    const flattened: (string | null)[] = [];
    const off = registerCommand('trade.flatten', () => flattened.push(useTrading.getState().ticker));
    try {
      render(withQueries(<PositionsPanel />));
      await within(table()).findByText('KXP-A');
      const user = userEvent.setup();
      await user.click(within(rowOf('KXP-B')).getByRole('button', { name: 'Select' }));
      expect(useTrading.getState().ticker).toBe('KXP-B');
      screen.getByRole('region', { name: /^Positions: arrows move/ }).focus();
      await user.keyboard('{Home}{Enter}');
      expect(useTrading.getState().ticker).toBe(within(table()).getAllByRole('row')[1]!.querySelector('td .mono')?.textContent);
      await user.click(within(rowOf('KXP-A')).getByRole('button', { name: 'Flatten' }));
      expect(flattened).toEqual(['KXP-A']);
    } finally {
      off();
    }
  });

  it('lists fills with side, price at tick, count, liquidity and fee', async () => {
    applyPrivateUpdate({
      fills: [
        { fill_id: 'f-1', order_id: 'o-1', ticker: 'KXP-A', side: 'yes', action: 'buy', yes_price_dollars: '0.4500', count_fp: '3.00', is_taker: true, fee_cost: '0.0500', ts: 1_760_000_000 },
        { fill_id: 'f-2', order_id: 'o-2', ticker: 'KXP-A', side: 'yes', action: 'sell', yes_price_dollars: '0.5200', count_fp: '1.00', is_taker: false, fee_cost: '0.0000', ts: 1_760_000_100 },
      ],
    });
    render(withQueries(<PositionsPanel />));
    await userEvent.setup().click(screen.getByRole('tab', { name: 'Fills' }));
    const fills = await screen.findByRole('table', { name: 'Fills' });
    const rows = within(fills).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    const byId = (id: string) => rows.find((r) => r.textContent?.includes(id))!;
    const col = (r: HTMLElement, c: string) => r.querySelector(`td[data-col="${c}"]`)?.textContent;
    expect(col(byId('o-1'), 'side')).toBe('▲ Buy');
    expect(col(byId('o-1'), 'price')).toBe('0.45');
    expect(col(byId('o-1'), 'count')).toBe('3');
    expect(col(byId('o-1'), 'liquidity')).toBe('taker');
    expect(col(byId('o-1'), 'fee')).toBe('$0.05');
    expect(col(byId('o-2'), 'side')).toBe('▼ Sell');
    expect(col(byId('o-2'), 'liquidity')).toBe('maker');
  });

  it('says there are no fills yet when the account has none', async () => {
    render(withQueries(<PositionsPanel />));
    await userEvent.setup().click(screen.getByRole('tab', { name: 'Fills' }));
    expect(await screen.findByText('No fills yet.')).toBeTruthy();
  });
});
