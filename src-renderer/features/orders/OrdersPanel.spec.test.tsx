// @vitest-environment jsdom
// The Orders blotter as a trader uses it: resting orders listed from main's private stream,
// Delete on the active row cancels it (with the blotter as origin), an order still being placed
// is shown as such, and an empty blotter says so.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { installFakeTerminal, stubLayout, withQueries, type FakeTerminal } from '../../test/fake-terminal';
import { applyPrivateUpdate } from '../../stores/private';
import { useSeed } from '../../stores/seed';
import { OrdersPanel } from './OrdersPanel';

let fake: FakeTerminal;
const T = 'KXTEST-26DEC31-T1';
const resting = { order_id: 'o-1', client_order_id: 'c-1', ticker: T, status: 'resting', book_side: 'bid', yes_price_dollars: '0.4500', remaining_count_fp: '5.00', fill_count_fp: '0.00', created_time: '2026-11-25T10:00:00Z' };

beforeAll(() => {
  stubLayout();
  fake = installFakeTerminal();
});
beforeEach(() => {
  fake.api.cancelOrder.mockClear();
  fake.api.cancelOrder.mockResolvedValue({ reduced_by: '5.00', ts_ms: 1 });
  fake.reads.getQueuePositions = { queue_positions: [] };
  fake.reads.getOrderGroups = { order_groups: [] };
  applyPrivateUpdate({ reset: true, pending: [] });
  useSeed.setState({ orders: { state: 'ok' } });
});
afterEach(cleanup);

const table = () => screen.getByRole('region', { name: /^Resting orders: arrows move/ });

describe('the Orders blotter', () => {
  it('lists a resting order from the private stream with its side, price and size', () => {
    applyPrivateUpdate({ orders: [resting] });
    render(withQueries(<OrdersPanel />));
    const row = within(table()).getByText('o-1').closest('tr')!;
    expect(row.textContent).toContain('▲ Buy');
    expect(row.textContent).toContain('0.45');
    expect(row.textContent).toContain(T);
  });

  it('Delete on the active row cancels that order, from the blotter', async () => {
    applyPrivateUpdate({ orders: [resting] });
    render(withQueries(<OrdersPanel />));
    const user = userEvent.setup();
    table().focus();
    await user.keyboard('{ArrowDown}');
    await user.keyboard('{Delete}');
    expect(fake.api.cancelOrder).toHaveBeenCalledTimes(1);
    expect(fake.api.cancelOrder).toHaveBeenCalledWith({ order_id: 'o-1', ticker: T, origin: 'blotter' });
  });

  it('the Cancel button of a row cancels only that order', async () => {
    applyPrivateUpdate({ orders: [resting, { ...resting, order_id: 'o-2', client_order_id: 'c-2', yes_price_dollars: '0.4400' }] });
    render(withQueries(<OrdersPanel />));
    const user = userEvent.setup();
    // the virtualised rows settle after their first measure: find the row once they have
    await act(async () => {
      await new Promise((r) => setTimeout(r, 50));
    });
    const row = within(table()).getByText('o-2').closest('tr')!;
    await user.click(within(row).getByRole('button', { name: 'Cancel' }));
    expect(fake.api.cancelOrder).toHaveBeenCalledWith({ order_id: 'o-2', ticker: T, origin: 'blotter' });
    expect(fake.api.cancelOrder).toHaveBeenCalledTimes(1);
  });

  it('shows an order still being placed, and why it waits, until main settles it', () => {
    render(withQueries(<OrdersPanel />));
    act(() => {
      applyPrivateUpdate({ pending: [{ clientOrderId: 'c-9', ticker: T, side: 'ask', price: '0.6100', count: '3', state: 'checking', sends: 1, lookups: 2, lastError: 'timeout', startedAt: 1 }] });
    });
    const list = screen.getByRole('list', { name: 'Orders being placed' });
    expect(list.textContent).toContain('▼ Sell');
    expect(list.textContent).toContain('checking whether it reached the exchange');
    expect(list.textContent).toContain('lookup 2');
    act(() => {
      applyPrivateUpdate({ pending: [] });
    });
    expect(screen.queryByRole('list', { name: 'Orders being placed' })).toBeNull();
  });

  it('an empty blotter says so', () => {
    render(withQueries(<OrdersPanel />));
    expect(screen.getByText('No resting orders.')).toBeTruthy();
  });

  it('the first order after none lands in the same scroll element (a new one is measured at once: a forced layout in the commit that paints it)', () => {
    const { container } = render(withQueries(<OrdersPanel />));
    const before = container.querySelector('.table-scroll');
    expect(screen.getByText('No resting orders.')).toBeTruthy();
    act(() => {
      applyPrivateUpdate({ orders: [resting] });
    });
    expect(container.querySelector('.table-scroll table')).not.toBeNull();
    expect(before).not.toBeNull();
    expect(container.querySelector('.table-scroll')).toBe(before);
    act(() => {
      applyPrivateUpdate({ orders: [{ ...resting, status: 'canceled', remaining_count_fp: '0.00' }] });
    });
    expect(screen.getByText('No resting orders.')).toBeTruthy();
    expect(container.querySelector('.table-scroll')).toBe(before);
  });
});
