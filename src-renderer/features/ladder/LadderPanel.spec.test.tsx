// @vitest-environment jsdom
// The price ladder as a trader uses it: it waits honestly for a book, paints the book main
// pushes, a click on a bid cell places a buy there with the ticket's size (from the ladder), and
// a stale book is marked as such.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { runCommand } from '../../lib/commands';
import userEvent from '@testing-library/user-event';
import { fakeMarket, installFakeTerminal, stubLayout, withQueries, type FakeTerminal } from '../../test/fake-terminal';
import { applyBooks, booksStore } from '../../stores/books';
import { applyPrivateUpdate } from '../../stores/private';
import { applyMarketUpdate, marketStore } from '../../stores/market';
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
  fakeMarket(fake, T, 'Test market');
  booksStore.setState({ byTicker: new Map(), version: 0 });
  applyPrivateUpdate({ reset: true });
  useTrading.getState().selectMarket(T);
  useTrading.getState().setLadderView('yes');
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

/** Every painted row as shown: price label -> bid and offer size text. */
function shownRows(): Map<string, { bid: string; ask: string }> {
  const out = new Map<string, { bid: string; ask: string }>();
  for (const row of document.querySelectorAll<HTMLElement>('.ladder-row')) {
    if (row.style.visibility === 'hidden') continue;
    const t = (sel: string) => row.querySelector(sel)?.textContent?.trim() ?? '';
    if (!t('[data-cell="price"]')) continue; // not painted yet
    out.set(t('[data-cell="price"]'), { bid: t('[data-cell="bid"] .qty'), ask: t('[data-cell="ask"] .qty') });
  }
  return out;
}

/** Expects every painted row to show exactly the book's size at its price (whole cents, YES or NO view). */
async function expectRowsAreTheBook(yesBids: number[], yesAsks: number[], view: 'yes' | 'no') {
  const at = (flat: number[]) => {
    const m = new Map<number, string>();
    for (let i = 0; i < flat.length; i += 2) m.set(flat[i]!, flat[i + 1]! % 100 ? (flat[i + 1]! / 100).toFixed(2) : String(flat[i + 1]! / 100));
    return m;
  };
  const bids = at(view === 'yes' ? yesBids : yesAsks.flatMap((v, i) => (i % 2 ? [v] : [10_000 - v])));
  const asks = at(view === 'yes' ? yesAsks : yesBids.flatMap((v, i) => (i % 2 ? [v] : [10_000 - v])));
  await waitFor(
    () => {
      const rows = shownRows();
      expect(rows.size).toBeGreaterThan(0);
      const wrong: string[] = [];
      for (const [label, cells] of rows) {
        const ticks = Math.round(Number(label) * 10_000);
        if (cells.bid !== (bids.get(ticks) ?? '')) wrong.push(`${label} bid shows "${cells.bid}", book "${bids.get(ticks) ?? ''}"`);
        if (cells.ask !== (asks.get(ticks) ?? '')) wrong.push(`${label} ask shows "${cells.ask}", book "${asks.get(ticks) ?? ''}"`);
      }
      expect(wrong).toEqual([]);
    },
    { timeout: 2000 },
  );
}

describe('the ladder never shows a level that is gone', () => {
  it('clears a level that empties after the panel re-rendered (a click moved the cursor)', async () => {
    render(withQueries(<LadderPanel />));
    act(() => applyBooks([{ ticker: T, stale: false, yesBids: [4500, 1000, 4400, 250], yesAsks: [4700, 800, 4800, 300], version: 1 }]));
    await expectRowsAreTheBook([4500, 1000, 4400, 250], [4700, 800, 4800, 300], 'yes');
    // any re-render of the panel (here the cursor moves to a row) while levels empty, before the next frame
    act(() => {
      fireEvent.click(rowAt('0.46').querySelector('[data-cell="price"]')!);
      applyBooks([{ ticker: T, stale: false, yesBids: [4500, 1000], yesAsks: [4700, 800], version: 2 }]);
    });
    await waitFor(() => expect(rowAt('0.46').className).toContain('cursor'));
    await expectRowsAreTheBook([4500, 1000], [4700, 800], 'yes');
  });

  it('stays true through re-renders, view switches and levels coming and going', async () => {
    render(withQueries(<LadderPanel />));
    const user = userEvent.setup();
    const books: [number[], number[]][] = [
      [[4500, 1000, 4400, 250, 4300, 100], [4700, 800, 4800, 300]],
      [[4500, 900], [4600, 100, 4800, 300]],
      [[4400, 250], [4600, 100]],
      [[4500, 1000, 4200, 700], [4700, 800, 4900, 50]],
      [[4500, 1000], [4700, 800]],
    ];
    let version = 0;
    for (const [round, [bids, asks]] of books.entries()) {
      act(() => applyBooks([{ ticker: T, stale: false, yesBids: bids, yesAsks: asks, version: ++version }]));
      const view = round % 2 === 0 ? 'yes' : 'no';
      await expectRowsAreTheBook(bids, asks, view);
      // re-render: switch the view (and the cursor moves) before the next book
      await user.click(screen.getByRole('button', { name: view === 'yes' ? 'NO' : 'YES' }));
      await user.click(document.querySelector<HTMLElement>('[data-row="3"] [data-cell="price"]')!);
    }
  });
});

describe('Follow and Center', () => {
  it('re-centres when the best bid leaves the rows though the best offer is still on them', async () => {
    render(withQueries(<LadderPanel />));
    act(() => applyBooks([{ ticker: T, stale: false, yesBids: [4500, 1000], yesAsks: [4700, 800], version: 1 }]));
    await painted('0.45');
    // 30 rows around 0.46 end at 0.32: the bid falls to 0.25, the offer stays at 0.47
    act(() => applyBooks([{ ticker: T, stale: false, yesBids: [2500, 1000], yesAsks: [4700, 800], version: 2 }]));
    await waitFor(() => expect(rowAt('0.25').querySelector('[data-cell="bid"]')!.textContent).toContain('10'), { timeout: 2000 });
    expect(rowAt('0.47').querySelector('[data-cell="ask"]')!.textContent).toContain('8');
  });
});

describe('Center and the view switch go to the ladder the trader is on', () => {
  it('C centres the focused ladder after a wheel scroll made it static, though another ladder was opened after it', async () => {
    render(
      withQueries(
        <>
          <div data-testid="first"><LadderPanel /></div>
          <div data-testid="second"><LadderPanel /></div>
        </>,
      ),
    );
    act(() => applyBooks([{ ticker: T, stale: false, yesBids: [4500, 1000], yesAsks: [4700, 800], version: 1 }]));
    const first = within(screen.getByTestId('first'));
    await waitFor(() => expect(first.getByText('0.45')).toBeTruthy(), { timeout: 5000 });
    const rows = first.getByRole('grid');
    for (let i = 0; i < 8; i++) fireEvent.wheel(rows, { deltaY: -100 });
    await waitFor(() => expect(first.getByRole('button', { name: 'Static' })).toBeTruthy());
    await waitFor(() => expect(first.queryByText('0.45')).toBeNull(), { timeout: 5000 });
    act(() => rows.focus());
    act(() => {
      expect(runCommand('ladder.center')).toBe(true);
    });
    await waitFor(() => expect(first.getByText('0.45')).toBeTruthy(), { timeout: 5000 });
    expect(first.getByRole('button', { name: 'Follow' })).toBeTruthy();
  });
});

describe('a market switch and the row spacing', () => {
  it("a linked market switch never shows the previous market's levels, and then shows the new book", async () => {
    const U = 'KXTEST-26DEC31-T2';
    render(withQueries(<LadderPanel />));
    act(() => applyBooks([{ ticker: T, stale: false, yesBids: [4500, 1000, 4400, 250], yesAsks: [4700, 800], version: 1 }]));
    await expectRowsAreTheBook([4500, 1000, 4400, 250], [4700, 800], 'yes');
    act(() => useTrading.getState().selectMarket(U));
    await waitFor(() => expect(shownRows().size).toBe(0), { timeout: 2000 });
    act(() => applyBooks([{ ticker: U, stale: false, yesBids: [3000, 700], yesAsks: [3200, 100], version: 2 }]));
    await expectRowsAreTheBook([3000, 700], [3200, 100], 'yes');
  });

  it('rows at 0.001 show each level at its row, and stay true when levels empty', async () => {
    render(withQueries(<LadderPanel />));
    act(() => applyBooks([{ ticker: T, stale: false, yesBids: [4510, 300, 4500, 1000], yesAsks: [4530, 800, 4550, 200], version: 1 }]));
    // 'auto' spacing takes the book's finest step: 0.001
    await painted('0.450');
    await expectRowsAreTheBook([4510, 300, 4500, 1000], [4530, 800, 4550, 200], 'yes');
    act(() => {
      fireEvent.click(rowAt('0.452').querySelector('[data-cell="price"]')!);
      applyBooks([{ ticker: T, stale: false, yesBids: [4500, 1000], yesAsks: [4530, 800], version: 2 }]);
    });
    await expectRowsAreTheBook([4500, 1000], [4530, 800], 'yes');
    // whole-cent rows sum the levels each holds: bids down to their row, offers up
    fireEvent.change(screen.getByRole('combobox', { name: 'Row spacing' }), { target: { value: '100' } });
    act(() => applyBooks([{ ticker: T, stale: false, yesBids: [4510, 300, 4500, 1000], yesAsks: [4530, 800, 4550, 200], version: 3 }]));
    await waitFor(() => expect(rowAt('0.45').querySelector('[data-cell="bid"] .qty')!.textContent).toBe('13'), { timeout: 2000 });
    expect(rowAt('0.46').querySelector('[data-cell="ask"] .qty')!.textContent).toBe('10');
  });
});

describe('the ladder columns: cumulative depth, volume at price, last trade', () => {
  const trade = (id: string, price: string, count: string) => ({ trade_id: id, ticker: T, yes_price_dollars: price, no_price_dollars: '0', count_fp: count, taker_side: 'yes', ts: 1 });
  beforeEach(() => marketStore.setState({ tickers: {}, trades: {}, lifecycle: [], lastTrades: [], version: 0 }));

  it('sums depth from the inside outward on each side', async () => {
    render(withQueries(<LadderPanel />));
    act(() => applyBooks([{ ticker: T, stale: false, yesBids: [4500, 1000, 4400, 250], yesAsks: [4700, 800, 4900, 100], version: 1 }]));
    await painted('0.44');
    const cell = (label: string, c: string) => rowAt(label).querySelector(`[data-cell="${c}"]`)!.textContent?.trim();
    await waitFor(() => expect(cell('0.44', 'cumbid')).toBe('12.50'));
    expect(cell('0.45', 'cumbid')).toBe('10');
    // rows without a level stay calm (no repeated total)
    expect(cell('0.43', 'cumbid')).toBe('');
    expect(cell('0.47', 'cumask')).toBe('8');
    expect(cell('0.48', 'cumask')).toBe('');
    expect(cell('0.49', 'cumask')).toBe('9');
    expect(cell('0.46', 'cumbid')).toBe('');
    expect(cell('0.46', 'cumask')).toBe('');
    expect(cell('0.45', 'cumask')).toBe('');
  });

  it('adds up the session volume per price and marks the last trade with its size', async () => {
    act(() => applyMarketUpdate({ tickers: [], trades: [trade('t1', '0.4500', '3.00')], lifecycle: [], indices: [] }));
    render(withQueries(<LadderPanel />));
    act(() => applyBooks([{ ticker: T, stale: false, yesBids: [4500, 1000], yesAsks: [4700, 800], version: 1 }]));
    await painted('0.45');
    const vol = (label: string) => rowAt(label).querySelector('[data-cell="vol"]')!.textContent?.trim();
    await waitFor(() => expect(vol('0.45')).toBe('3 · 3'));
    act(() => applyMarketUpdate({ tickers: [], trades: [trade('t2', '0.4500', '2.00'), trade('t3', '0.4700', '1.50')], lifecycle: [], indices: [] }));
    // the tape is newest first: t3 is the last trade
    await waitFor(() => expect(vol('0.47')).toBe('1.50 · 1.50'));
    expect(vol('0.45')).toBe('5');
    expect(rowAt('0.47').className).toContain('last-trade');
    expect(rowAt('0.45').className).not.toContain('last-trade');
    // the same trade arriving again (a resend) is not counted twice
    act(() => applyMarketUpdate({ tickers: [], trades: [trade('t2', '0.4500', '2.00')], lifecycle: [], indices: [] }));
    await waitFor(() => expect(rowAt('0.45').className).toContain('last-trade'));
    expect(vol('0.45')).toBe('2 · 5');
  });

  it('hides and shows the columns from the header, both on by default', async () => {
    render(withQueries(<LadderPanel />));
    act(() => applyBooks([{ ticker: T, stale: false, yesBids: [4500, 1000], yesAsks: [4700, 800], version: 1 }]));
    await painted('0.45');
    const panel = document.querySelector('.ladder')!;
    const user = userEvent.setup();
    const cum = screen.getByRole('button', { name: 'Σ' });
    const vol = screen.getByRole('button', { name: 'Vol' });
    expect(cum.getAttribute('aria-pressed')).toBe('true');
    expect(vol.getAttribute('aria-pressed')).toBe('true');
    expect(panel.className).not.toMatch(/no-cum|no-vol/);
    await user.click(cum);
    expect(panel.className).toContain('no-cum');
    await user.click(vol);
    expect(panel.className).toContain('no-vol');
    await user.click(cum);
    expect(panel.className).not.toContain('no-cum');
  });
});

describe('the open position on the ladder', () => {
  it('marks the average open price row and shows open P&L at the mid in the header', async () => {
    act(() => applyPrivateUpdate({ positions: [{ ticker: T, position_fp: '10.00', market_exposure_dollars: '4.5000' }] }));
    render(withQueries(<LadderPanel />));
    act(() => applyBooks([{ ticker: T, stale: false, yesBids: [4900, 1000], yesAsks: [5100, 800], version: 1 }]));
    await painted('0.45');
    await waitFor(() => expect(rowAt('0.45').className).toContain('avg-open'));
    expect(rowAt('0.46').className).not.toContain('avg-open');
    const head = await screen.findByTestId('ladder-open');
    expect(head.textContent).toContain('0.45');
    expect(head.textContent).toContain('+$0.50');
    // the mid moves: the P&L follows
    act(() => applyBooks([{ ticker: T, stale: false, yesBids: [4000, 1000], yesAsks: [4200, 800], version: 2 }]));
    await waitFor(() => expect(screen.getByTestId('ladder-open').textContent).toContain('-$0.40'));
  });
});

describe('the ladder keys: improve the inside, cancel one side', () => {
  it('Alt+[ / Alt+] bid and offer one row better than the painted inside, never crossing', async () => {
    render(withQueries(<LadderPanel />));
    act(() => applyBooks([{ ticker: T, stale: false, yesBids: [4500, 1000], yesAsks: [4800, 800], version: 1 }]));
    await painted('0.45');
    act(() => {
      void runCommand('ladder.improveBid', 'key');
    });
    act(() => {
      void runCommand('ladder.improveAsk', 'key');
    });
    await waitFor(() => expect(fake.api.placeOrder).toHaveBeenCalledTimes(2));
    expect(fake.api.placeOrder).toHaveBeenCalledWith({ ticker: T, side: 'bid', price: '0.4600', count: '5.00', origin: 'hotkey' });
    expect(fake.api.placeOrder).toHaveBeenCalledWith({ ticker: T, side: 'ask', price: '0.4700', count: '5.00', origin: 'hotkey' });
    // a one-tick spread: improving joins, it never crosses
    fake.api.placeOrder.mockClear();
    act(() => applyBooks([{ ticker: T, stale: false, yesBids: [4500, 1000], yesAsks: [4600, 800], version: 2 }]));
    await waitFor(() => expect(rowAt('0.46').querySelector('[data-cell="ask"]')!.textContent).toContain('8'));
    act(() => {
      void runCommand('ladder.improveBid', 'key');
    });
    await waitFor(() => expect(fake.api.placeOrder).toHaveBeenCalledWith({ ticker: T, side: 'bid', price: '0.4500', count: '5.00', origin: 'hotkey' }));
  });

  it('cancel bids cancels only my bids in this market', async () => {
    fake.api.cancelOrder.mockReset();
    fake.api.cancelOrder.mockResolvedValue({ reduced_by: '5.00', ts_ms: 1 });
    const order = (id: string, side: string, ticker = T) => ({ order_id: id, client_order_id: `c-${id}`, ticker, status: 'resting', book_side: side, yes_price_dollars: '0.4500', remaining_count_fp: '5.00', fill_count_fp: '0.00', created_time: '2026-11-25T10:00:00Z' });
    act(() => applyPrivateUpdate({ orders: [order('b1', 'bid'), order('a1', 'ask'), order('b2', 'bid', 'OTHER-T')] }));
    render(withQueries(<LadderPanel />));
    act(() => applyBooks([{ ticker: T, stale: false, yesBids: [4400, 1000], yesAsks: [4800, 800], version: 1 }]));
    await painted('0.45');
    act(() => {
      void runCommand('ladder.cancelBids', 'key');
    });
    await waitFor(() => expect(fake.api.cancelOrder).toHaveBeenCalledTimes(1));
    expect(fake.api.cancelOrder).toHaveBeenCalledWith({ order_id: 'b1', ticker: T, origin: 'hotkey' });
  });
});

describe('what survives the terminal closing', () => {
  it('the foot says which protections are held at the exchange and which only while the terminal runs', () => {
    render(withQueries(<LadderPanel />));
    const line = screen.getByTestId('ladder-held');
    expect(line.textContent).toMatch(/Exchange-held: groups, limits/);
    expect(line.getAttribute('title')).toMatch(/local stops, take-profits and trailing stops .* do not fire/);
  });
});
