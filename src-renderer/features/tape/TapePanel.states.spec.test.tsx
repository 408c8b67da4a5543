// @vitest-environment jsdom
// Time and sales' other states: no market linked, a market with no trades yet, the exchange's
// error with Try again, and prices at a deci-cent market's tick.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { rangesOf } from '../../../src-shared/price-ranges';
import { installFakeTerminal, stubLayout, withQueries, type FakeTerminal } from '../../test/fake-terminal';
import { noteMarkets } from '../../lib/ticks';
import { marketStore } from '../../stores/market';
import { applyPrivateUpdate } from '../../stores/private';
import { useTrading } from '../../stores/trading';
import { TapePanel } from './TapePanel';

let fake: FakeTerminal;
const T = 'KXTAPE-DECI';
const trade = (id: string, price: string, count: string, ts: number) => ({ trade_id: id, ticker: T, yes_price_dollars: price, no_price_dollars: '0.5000', count_fp: count, taker_side: 'yes', ts });

beforeAll(() => {
  stubLayout();
  fake = installFakeTerminal();
});
beforeEach(() => {
  marketStore.setState({ tickers: {}, trades: {}, lifecycle: [], lastTrades: [], version: 0 });
  applyPrivateUpdate({ reset: true });
  useTrading.getState().selectMarket(T);
});
afterEach(cleanup);

describe('time and sales: states', () => {
  it('asks for a market when none is linked', () => {
    useTrading.setState({ ticker: null });
    render(withQueries(<TapePanel />));
    expect(screen.getByText('No market selected. Pick one in Markets; its trades stream here.')).toBeTruthy();
  });

  it('says when the market has not traded yet', async () => {
    fake.reads.getTrades = { trades: [], cursor: '' };
    render(withQueries(<TapePanel />));
    expect(await screen.findByText('No trades in this market yet.', undefined, { timeout: 5000 })).toBeTruthy();
  });

  it("shows the exchange's error, and Try again reads the trades once more", async () => {
    let reads = 0;
    fake.reads.getTrades = () => {
      reads += 1;
      throw Object.assign(new Error('too many requests'), { kind: 'api', status: 429, code: 'rate_limited' });
    };
    render(withQueries(<TapePanel />));
    const alert = await screen.findByRole('alert', undefined, { timeout: 10_000 });
    expect(alert.textContent).toContain('rate_limited');
    const before = reads;
    await userEvent.setup().click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(reads).toBeGreaterThan(before), { timeout: 5000 });
  });

  it("writes each price at a deci-cent market's tick", async () => {
    noteMarkets([{ ticker: T, price_ranges: rangesOf('deci_cent') }]);
    fake.reads.getTrades = { trades: [trade('t1', '0.4500', '1.00', 1_700_000_000), trade('t2', '0.4510', '2.00', 1_700_000_001)], cursor: '' };
    render(withQueries(<TapePanel />));
    expect(await screen.findByText('0.451', undefined, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText('0.450')).toBeTruthy();
    expect(screen.queryByText('0.45')).toBeNull();
  });
});
