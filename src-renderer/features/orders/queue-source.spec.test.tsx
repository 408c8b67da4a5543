// @vitest-environment jsdom
// The Orders panel's Queue column and the ladder's Mine cells read one source
// (hooks/useQueuePositions): the same order shows the same queue position in both, on any tab of
// the blotter (it stayed blank for 20 s while the ladder showed q41: the blotter asked only on
// its Resting tab, with its own key and poll), and every panel together costs one request.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider } from '@tanstack/react-query';
import { installFakeTerminal, stubLayout, withQueries, type FakeTerminal } from '../../test/fake-terminal';
import { createQueryClient } from '../../lib/query';
import { applyPrivateUpdate } from '../../stores/private';
import { useSeed } from '../../stores/seed';
import { useQueuePositions } from '../../hooks/useQueuePositions';
import { OrdersPanel } from './OrdersPanel';

let fake: FakeTerminal;
const T = 'KXTEST-26DEC31-T1';
const U = 'KXTEST-26DEC31-T2';
const order = (id: string, ticker: string) => ({ order_id: id, client_order_id: `c-${id}`, ticker, status: 'resting', book_side: 'bid', yes_price_dollars: '0.4500', remaining_count_fp: '5.00', fill_count_fp: '0.00', created_time: '2026-11-25T10:00:00Z' });
const asked: string[] = [];

beforeAll(() => {
  stubLayout();
  fake = installFakeTerminal();
});
beforeEach(() => {
  asked.length = 0;
  fake.reads.getQueuePositions = (input: { query?: { market_tickers?: string } }) => {
    const tickers = input.query?.market_tickers ?? '';
    asked.push(tickers);
    const all = [
      { order_id: 'o-1', market_ticker: T, queue_position: '41.00', queue_position_fp: '41.00' },
      { order_id: 'o-2', market_ticker: U, queue_position: '7.00', queue_position_fp: '7.00' },
    ];
    return { queue_positions: all.filter((q) => tickers.split(',').includes(q.market_ticker)) };
  };
  fake.reads.getOrderGroups = { order_groups: [] };
  applyPrivateUpdate({ reset: true, pending: [] });
  useSeed.setState({ orders: { state: 'ok' } });
});
afterEach(cleanup);

describe('queue position, one source', () => {
  it('the Queue column shows the exchange position on the All tab too, for an order placed while it is shown', async () => {
    applyPrivateUpdate({ orders: [order('o-1', T)] });
    render(withQueries(<OrdersPanel />));
    await userEvent.click(screen.getByRole('tab', { name: 'All' }));
    const region = screen.getByRole('region', { name: /^All orders/ });
    await waitFor(() => expect(within(region).getByText('o-1').closest('tr')!.textContent).toContain('41'));
    // a new order in another market, while the All tab is shown
    applyPrivateUpdate({ orders: [order('o-2', U)] });
    await waitFor(() => expect(within(region).getByText('o-2').closest('tr')!.textContent).toContain('7'));
  });

  it('a ladder (its one market) and the blotter (every resting market) share one query and read the same value', async () => {
    applyPrivateUpdate({ orders: [order('o-1', T), order('o-2', U)] });
    function LadderLike() {
      const q = useQueuePositions([T]);
      return <output aria-label="ladder queue">{q.get('o-1') ?? ''}</output>;
    }
    render(
      <QueryClientProvider client={createQueryClient()}>
        <LadderLike />
        <OrdersPanel />
      </QueryClientProvider>,
    );
    await waitFor(() => expect(screen.getByLabelText('ladder queue').textContent).toBe('41.00'));
    const region = screen.getByRole('region', { name: /^Resting orders/ });
    await waitFor(() => expect(within(region).getByText('o-1').closest('tr')!.textContent).toContain('41'));
    expect(within(region).getByText('o-2').closest('tr')!.textContent).toContain('7');
    // once both registered, both read the union's one query
    expect(asked.at(-1)).toBe([T, U].sort().join(','));
  });
});
