// @vitest-environment jsdom
// The price ladder as a trader uses it: it waits honestly for a book, paints the book main
// pushes, a click on a bid cell places a buy there with the ticket's size (from the ladder), and
// a stale book is marked as such.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { installFakeTerminal, stubLayout, withQueries, type FakeTerminal } from '../../test/fake-terminal';
import { applyBooks, booksStore } from '../../stores/books';
import { applyPrivateUpdate } from '../../stores/private';
import { useTrading } from '../../stores/trading';
import { setLocalView } from '../../stores/tools';
import { LadderPanel } from './LadderPanel';

let fake: FakeTerminal;
const T = 'KXTEST-26DEC31-T1';
/** The ladder paints in animation frames: wait until the row of this price is painted. */
const painted = (label: string) => waitFor(() => rowAt(label), { timeout: 5000 });

beforeAll(() => {
  stubLayout();
  fake = installFakeTerminal();
});
beforeEach(() => {
  fake.api.placeOrder.mockReset();
  fake.api.placeOrder.mockResolvedValue({ client_order_id: 'c', order_id: 'o-1', fill_count: '0.00', remaining_count: '5.00' });
  fake.reads.getMarket = { market: { ticker: T, event_ticker: 'KXTEST-26DEC31', title: 'Test market' } };
  fake.reads.getEvent = { event: { event_ticker: 'KXTEST-26DEC31', series_ticker: 'KXTEST' } };
  fake.reads.getSeries = { series: { ticker: 'KXTEST', fee_type: 'quadratic', fee_multiplier: '1' } };
  booksStore.setState({ byTicker: new Map(), version: 0 });
  applyPrivateUpdate({ reset: true });
  useTrading.getState().selectMarket(T);
  useTrading.getState().setDraft({ side: 'bid', count: '5', tif: 'good_till_canceled' });
});
afterEach(cleanup);

/** The ladder row showing this price label, once painted. */
function rowAt(label: string): HTMLElement {
  const cell = [...document.querySelectorAll<HTMLElement>('[data-cell="price"]')].find((c) => c.textContent?.trim() === label);
  if (!cell) throw new Error(`no ladder row at ${label}; painted: ${[...document.querySelectorAll('[data-cell="price"]')].map((c) => c.textContent).join(' ')}`);
  return cell.closest('[data-row]') as HTMLElement;
}

describe('the price ladder', () => {
  it('waits for the book and says so', () => {
    render(withQueries(<LadderPanel />));
    expect(screen.getByText(`Waiting for the book of ${T}…`)).toBeTruthy();
  });

  it('paints the book main pushes: sizes at their prices, bids and offers apart', async () => {
    render(withQueries(<LadderPanel />));
    act(() => applyBooks([{ ticker: T, stale: false, yesBids: [4500, 1000, 4400, 250], yesAsks: [4700, 800], version: 1 }]));
    await painted('0.45');
    expect(screen.queryByText(`Waiting for the book of ${T}…`)).toBeNull();
    expect(rowAt('0.45').querySelector('[data-cell="bid"]')!.textContent).toContain('10');
    expect(rowAt('0.44').querySelector('[data-cell="bid"]')!.textContent).toContain('2.5');
    expect(rowAt('0.47').querySelector('[data-cell="ask"]')!.textContent).toContain('8');
    expect(rowAt('0.46').querySelector('[data-cell="bid"]')!.textContent?.trim()).toBe('');
  });

  it("a click on a bid cell places a buy there with the ticket's size, from the ladder", async () => {
    render(withQueries(<LadderPanel />));
    act(() => applyBooks([{ ticker: T, stale: false, yesBids: [4500, 1000], yesAsks: [4700, 800], version: 1 }]));
    await painted('0.43');
    const user = userEvent.setup();
    await user.click(rowAt('0.43').querySelector('[data-cell="bid"]')!);
    expect(fake.api.placeOrder).toHaveBeenCalledTimes(1);
    expect(fake.api.placeOrder).toHaveBeenCalledWith({ ticker: T, side: 'bid', price: '0.4300', count: '5.00', origin: 'ladder' });
  });

  it('marks a stale book', async () => {
    render(withQueries(<LadderPanel />));
    act(() => applyBooks([{ ticker: T, stale: true, yesBids: [4500, 1000], yesAsks: [], version: 2 }]));
    expect(await screen.findByText(/STALE/, {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText(/STALE/).getAttribute('role')).toBe('status');
  });
});

describe('the ladder follows the market', () => {
  it('re-centres by itself when the inside market leaves the rows, and stays put once made static', async () => {
    render(withQueries(<LadderPanel />));
    act(() => applyBooks([{ ticker: T, stale: false, yesBids: [4500, 1000], yesAsks: [4700, 800], version: 1 }]));
    await painted('0.45');
    // the market moves 35 cents: far outside 30 rows around 0.46
    act(() => applyBooks([{ ticker: T, stale: false, yesBids: [8000, 500], yesAsks: [8200, 400], version: 2 }]));
    await painted('0.80');
    expect(rowAt('0.80').querySelector('[data-cell="bid"]')!.textContent).toContain('5');

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Follow' }));
    expect(screen.getByRole('button', { name: 'Static' }).getAttribute('aria-pressed')).toBe('false');
    act(() => applyBooks([{ ticker: T, stale: false, yesBids: [2000, 500], yesAsks: [2200, 400], version: 3 }]));
    await new Promise((r) => setTimeout(r, 100));
    expect(() => rowAt('0.20')).toThrow();
    expect(rowAt('0.80')).toBeTruthy();
  });
});

describe('local orders on the ladder', () => {
  const local = (state: string, trigger: string) => ({
    orders: [{ id: 'L1', kind: 'stop' as const, ticker: T, side: 'ask' as const, count: '5', source: 'last' as const, trigger, trailTicks: null, limit: { kind: 'through' as const, ticks: 1 }, tick: '0.01', state: state as 'armed', ocoGroup: null, entryOrderId: null, sentOrderId: null, detail: '', createdAt: 1, updatedAt: 1 }],
    awaitingChoice: false,
    live: true,
  });

  it('draws an armed stop as a dashed mark at its trigger, apart from my resting orders, and drops it once it is done', async () => {
    render(withQueries(<LadderPanel />));
    act(() => applyBooks([{ ticker: T, stale: false, yesBids: [4500, 1000], yesAsks: [4700, 800], version: 1 }]));
    await painted('0.42');
    act(() => setLocalView(local('armed', '0.4200')));
    await waitFor(() => expect(rowAt('0.42').querySelector('[data-cell="myask"] .ladder-local')?.textContent).toBe('STP 5'));
    expect(rowAt('0.42').querySelector('[data-cell="myask"] .mine')).toBeNull();
    // a click on the mark never places or cancels anything
    const user = userEvent.setup();
    await user.click(rowAt('0.42').querySelector('.ladder-local')!);
    expect(fake.api.placeOrder).not.toHaveBeenCalled();
    act(() => setLocalView(local('canceled', '0.4200')));
    await waitFor(() => expect(document.querySelector('.ladder-local')).toBeNull());
  });
});
