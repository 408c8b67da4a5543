// @vitest-environment jsdom
// A click or a key can never send a price the market does not take: on a tapered market (tenths
// of a cent only below 0.10 and above 0.90) an order or a move at 0.115 is refused in the page
// with the nearest prices it takes, and nothing reaches main; 0.11 and 0.095 go.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { installFakeTerminal, type FakeTerminal } from '../test/fake-terminal';
import { noteMarkets } from '../lib/ticks';
import { rangesOf } from '../../src-shared/price-ranges';
import { useNotices } from '../stores/notices';
import { amendPrice, placeAt } from './trade';
import type { OrderRow } from '../stores/normalize';

let fake: FakeTerminal;
const T = 'KXBTC-TEST-B78000';

beforeAll(() => {
  fake = installFakeTerminal();
  noteMarkets([{ ticker: T, price_ranges: rangesOf('tapered_deci_cent') }]);
});
beforeEach(() => {
  fake.api.placeOrder.mockReset();
  fake.api.amendOrder.mockReset();
  fake.api.placeOrder.mockResolvedValue({ order_id: 'o-1', fill_count: '0', remaining_count: '1' });
  fake.api.amendOrder.mockResolvedValue({});
  useNotices.setState({ toasts: [] });
});

describe('orders at prices the market does not take', () => {
  it('refuses 0.115 on a tapered market before sending, naming 0.11 and 0.12', async () => {
    expect(await placeAt(T, 'bid', 1150, '1')).toBeNull();
    expect(fake.api.placeOrder).not.toHaveBeenCalled();
    const toast = useNotices.getState().toasts.at(-1);
    expect(toast?.level).toBe('error');
    expect(toast?.title).toBe(`Buy 1 ${T} @ 0.115 not sent`);
    expect(toast?.body).toContain('0.11 or 0.12');
  });

  it('sends 0.11 and 0.095', async () => {
    await placeAt(T, 'bid', 1100, '1');
    await placeAt(T, 'bid', 950, '1');
    expect(fake.api.placeOrder.mock.calls.map((c) => (c[0] as { price: string }).price)).toEqual(['0.1100', '0.0950']);
  });

  it('refuses to move an order to 0.115', async () => {
    const o = { order_id: 'o-9', ticker: T, side: 'bid', filled: '0', remaining: '1' } as unknown as OrderRow;
    await amendPrice(o, 1150);
    expect(fake.api.amendOrder).not.toHaveBeenCalled();
    expect(useNotices.getState().toasts.at(-1)?.body).toContain('0.11 or 0.12');
    await amendPrice(o, 1200);
    expect(fake.api.amendOrder).toHaveBeenCalledTimes(1);
  });
});
