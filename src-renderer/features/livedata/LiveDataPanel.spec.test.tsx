// @vitest-environment jsdom
// The Reference index tab shows the Pyth prices main streams (pyth_value) beside the
// cfbenchmarks values: the latest per underlying, the exact string as sent.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { installFakeTerminal, stubLayout, withQueries, type FakeTerminal } from '../../test/fake-terminal';
import { LiveDataPanel } from './LiveDataPanel';

let fake: FakeTerminal;

beforeAll(() => {
  stubLayout();
  fake = installFakeTerminal();
});
afterEach(cleanup);

const avg = { value: '95000.12345678', window_size: 300, window_start_ts_ms: 1_710_000_000_000, window_end_ts_exclusive: 1_710_000_060_000 };

describe('live data: reference index', () => {
  it('shows Pyth prices beside the cfbenchmarks values, the latest per underlying', async () => {
    render(withQueries(<LiveDataPanel />));
    await userEvent.click(screen.getByRole('tab', { name: 'Reference index' }));
    act(() =>
      fake.push('market', {
        tickers: [],
        trades: [],
        lifecycle: [],
        indices: [{ index_id: 'BRTI', data: '{}', avg_60s_data: avg }],
        pyth: [
          { underlying_ticker: 'Metal.XAU/USD', value_usd: '2650.10000000', source_ts_ms: 1_710_000_000_100, received_at: 1_710_000_000_123 },
          { underlying_ticker: 'Commodities.Index.PYTHOIL/USD', value_usd: '82.12345000', source_ts_ms: 1_710_000_000_100, received_at: 1_710_000_000_123 },
        ],
      }),
    );
    act(() =>
      fake.push('market', {
        tickers: [],
        trades: [],
        lifecycle: [],
        indices: [],
        pyth: [{ underlying_ticker: 'Metal.XAU/USD', value_usd: '2651.00000001', source_ts_ms: 1_710_000_001_100, received_at: 1_710_000_001_123 }],
      }),
    );
    const pyth = await screen.findByRole('table', { name: 'Pyth prices' });
    expect(within(pyth).getByText('2651.00000001')).toBeTruthy();
    expect(within(pyth).queryByText('2650.10000000')).toBeNull();
    expect(within(pyth).getByText('82.12345000')).toBeTruthy();
    expect(within(screen.getByRole('table', { name: 'CF Benchmarks indices' })).getByText('BRTI')).toBeTruthy();
  });
});
