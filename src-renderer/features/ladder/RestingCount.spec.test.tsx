// @vitest-environment jsdom
// The ladder foot's resting count follows the private store as updates land (painted without a
// React render), counts only its own market's resting orders, and starts over on a market switch.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render } from '@testing-library/react';
import { applyPrivateUpdate } from '../../stores/private';
import { RestingCount } from './RestingCount';

const A = 'KXTEST-26DEC31-A';
const B = 'KXTEST-26DEC31-B';
const order = (id: string, ticker: string, status: string) => ({ order_id: id, client_order_id: `c-${id}`, ticker, status, book_side: 'bid', yes_price_dollars: '0.4500', remaining_count_fp: '1.00', fill_count_fp: '0.00', created_time: '2026-11-25T10:00:00Z' });

beforeEach(() => applyPrivateUpdate({ reset: true, pending: [] }));
afterEach(cleanup);

describe('RestingCount', () => {
  it('shows the count at once, and each update as it lands (no render needed)', () => {
    applyPrivateUpdate({ orders: [order('1', A, 'resting')] });
    const { container } = render(<RestingCount ticker={A} />);
    const el = () => container.querySelector('[data-resting]')!.textContent;
    expect(el()).toBe('1');
    applyPrivateUpdate({ orders: [order('2', A, 'resting'), order('3', B, 'resting')] });
    expect(el()).toBe('2');
    applyPrivateUpdate({ orders: [order('1', A, 'canceled'), order('2', A, 'executed')] });
    expect(el()).toBe('0');
  });

  it('counts the new market after a switch, and stops following the old one', () => {
    applyPrivateUpdate({ orders: [order('1', A, 'resting'), order('2', B, 'resting'), order('3', B, 'resting')] });
    const { container, rerender } = render(<RestingCount ticker={A} />);
    const el = () => container.querySelector('[data-resting]')!.textContent;
    expect(el()).toBe('1');
    rerender(<RestingCount ticker={B} />);
    expect(el()).toBe('2');
    applyPrivateUpdate({ orders: [order('4', A, 'resting')] });
    expect(el()).toBe('2');
  });
});
