// @vitest-environment jsdom
// Time and sales as a trader reads it: history on open, live trades on top, the aggressor's
// colour, block trades and my own fills marked, a minimum size, and a pause while hovered.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { installFakeTerminal, stubLayout, withQueries, type FakeTerminal } from '../../test/fake-terminal';
import { applyMarketUpdate, marketStore } from '../../stores/market';
import { applyPrivateUpdate } from '../../stores/private';
import { useTrading } from '../../stores/trading';
import { sameMomentOf, stableTapeRows, TapePanel, type TapeRow } from './TapePanel';

let fake: FakeTerminal;
const T = 'KXTEST-26DEC31-T1';
const trade = (id: string, price: string, count: string, side: 'yes' | 'no', ts: number, extra: Record<string, unknown> = {}) => ({ trade_id: id, ticker: T, yes_price_dollars: price, no_price_dollars: '0.5000', count_fp: count, taker_side: side, ts, ...extra });

beforeAll(() => {
  stubLayout();
  fake = installFakeTerminal();
});
beforeEach(() => {
  fake.reads.getTrades = { trades: [trade('h1', '0.4400', '2.00', 'no', 1_700_000_000), trade('h2', '0.4500', '50.00', 'yes', 1_700_000_010, { is_block_trade: true })], cursor: '' };
  marketStore.setState({ tickers: {}, trades: {}, lifecycle: [], lastTrades: [], version: 0 });
  applyPrivateUpdate({ reset: true });
  useTrading.getState().selectMarket(T);
});
afterEach(cleanup);

const table = () => screen.getByRole('region', { name: new RegExp(`^Time and sales for ${T}`) });
const rowOf = (price: string) => within(table()).getAllByText(price)[0]!.closest('tr')!;

describe('time and sales', () => {
  it('reads recent trades on open, aggressor coloured, block trades marked', async () => {
    render(withQueries(<TapePanel />));
    await screen.findByRole('region', { name: new RegExp(`^Time and sales for ${T}`) }, { timeout: 5000 });
    await within(table()).findByText('0.45');
    expect(rowOf('0.45').textContent).toContain('block');
    expect(rowOf('0.45').querySelector('.bid-text')).toBeTruthy();
    expect(rowOf('0.44').querySelector('.ask-text')).toBeTruthy();
    expect(rowOf('0.44').textContent).toContain('▼ sell');
  });

  it('widens its time column when a trade of another day prints its date (a dated time was cut at 104 px)', async () => {
    const today = Math.floor(Date.now() / 1000);
    fake.reads.getTrades = { trades: [trade('d1', '0.4400', '2.00', 'no', today)], cursor: '' };
    const view = render(withQueries(<TapePanel />));
    await within(await screen.findByRole('region', { name: new RegExp(`^Time and sales for ${T}`) }, { timeout: 5000 })).findByText('0.44');
    const timeCol = () => (table().querySelector('colgroup col') as HTMLElement | null)?.style.width;
    expect(timeCol()).toBe('104px');
    view.unmount();
    // yesterday's trade (the history in beforeEach is from 2023): its time carries the date
    fake.reads.getTrades = { trades: [trade('d2', '0.4300', '2.00', 'no', today - 86_400)], cursor: '' };
    render(withQueries(<TapePanel />));
    await within(await screen.findByRole('region', { name: new RegExp(`^Time and sales for ${T}`) }, { timeout: 5000 })).findByText('0.43');
    expect(rowOf('0.43').textContent).toMatch(/\d{4}/);
    expect(timeCol()).toBe('236px');
  });

  it('puts live trades on top and highlights my own fill', async () => {
    render(withQueries(<TapePanel />));
    await screen.findByRole('region', { name: new RegExp(`^Time and sales for ${T}`) }, { timeout: 5000 });
    await within(table()).findByText('0.45');
    act(() => {
      applyPrivateUpdate({ fills: [{ fill_id: 'f1', trade_id: 'live1', order_id: 'o1', ticker: T, yes_price_dollars: '0.4600', count_fp: '3.00', book_side: 'bid', is_taker: true, ts: 1_800_000_000 }] });
      applyMarketUpdate({ tickers: [], trades: [trade('live1', '0.4600', '3.00', 'yes', 1_800_000_000)], lifecycle: [], indices: [] });
    });
    const first = within(table()).getAllByRole('row')[1]!;
    expect(first.textContent).toContain('0.46');
    expect(first.textContent).toContain('mine');
    expect(first.className).toContain('own-fill');
  });

  it('hides trades under the minimum size, and says so when none is left', async () => {
    render(withQueries(<TapePanel />));
    await screen.findByRole('region', { name: new RegExp(`^Time and sales for ${T}`) }, { timeout: 5000 });
    await within(table()).findByText('0.45');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Minimum trade size'), '10');
    expect(within(table()).queryByText('0.44')).toBeNull();
    expect(within(table()).getByText('0.45')).toBeTruthy();
    await user.clear(screen.getByLabelText('Minimum trade size'));
    await user.type(screen.getByLabelText('Minimum trade size'), '1000');
    expect(screen.getByText('No trades of that size yet.')).toBeTruthy();
  });

  it('pauses while the pointer is over it and catches up after', async () => {
    render(withQueries(<TapePanel />));
    await screen.findByRole('region', { name: new RegExp(`^Time and sales for ${T}`) }, { timeout: 5000 });
    await within(table()).findByText('0.45');
    const panel = table().closest('.panel')!;
    fireEvent.pointerEnter(panel);
    act(() => applyMarketUpdate({ tickers: [], trades: [trade('live2', '0.4700', '1.00', 'yes', 1_800_000_100)], lifecycle: [], indices: [] }));
    expect(screen.getByText('paused')).toBeTruthy();
    expect(within(table()).queryByText('0.47')).toBeNull();
    fireEvent.pointerLeave(panel);
    expect(await within(table()).findByText('0.47')).toBeTruthy();
  });
});

describe('trades printed in the same moment', () => {
  it('are marked: the times seen more than once', () => {
    expect([...sameMomentOf([{ ts: 1 }, { ts: 2 }, { ts: 2 }, { ts: 3 }, { ts: 2 }])]).toEqual([2]);
    expect(sameMomentOf([{ ts: 1 }, { ts: 2 }]).size).toBe(0);
  });
});

describe('rows kept between updates (the table renders again only what changed)', () => {
  const row = (id: string, ts: number): TapeRow => ({ id, ts, price: '0.45', count: '1.00', aggressor: 'buy', block: false, mine: false });
  it('reuses the object of a trade already shown and makes new ones for new or changed trades', () => {
    const cache = new Map<string, TapeRow>();
    const first = stableTapeRows([row('a', 1), row('b', 2)], cache);
    const second = stableTapeRows([row('c', 3), row('a', 1), row('b', 2)], cache);
    expect(second[1]).toBe(first[0]);
    expect(second[2]).toBe(first[1]);
    const mine = stableTapeRows([{ ...row('c', 3), mine: true }, row('a', 1), row('b', 2)], cache);
    expect(mine[0]).not.toBe(second[0]);
    expect(mine[0]!.mine).toBe(true);
  });
  it('marks an older row when a later trade prints in its millisecond', () => {
    const cache = new Map<string, TapeRow>();
    const first = stableTapeRows([row('a', 5)], cache);
    expect(first[0]!.same).toBe(false);
    const next = stableTapeRows([row('b', 5), row('a', 5)], cache);
    expect(next[1]).not.toBe(first[0]);
    expect(next.map((r) => r.same)).toEqual([true, true]);
  });
  it('shows the mark on the older row in the panel', async () => {
    render(withQueries(<TapePanel />));
    await screen.findByRole('region', { name: new RegExp(`^Time and sales for ${T}`) }, { timeout: 5000 });
    await within(table()).findByText('0.45');
    act(() => applyMarketUpdate({ tickers: [], trades: [trade('m1', '0.4800', '1.00', 'yes', 1_800_000_200)], lifecycle: [], indices: [] }));
    expect(rowOf('0.48').textContent).not.toContain('≡');
    act(() => applyMarketUpdate({ tickers: [], trades: [trade('m2', '0.4900', '1.00', 'yes', 1_800_000_200)], lifecycle: [], indices: [] }));
    expect(rowOf('0.48').textContent).toContain('≡');
    expect(rowOf('0.49').textContent).toContain('≡');
  });

  it("shows the exchange's millisecond, and marks ≡ only trades of the same millisecond (live ts_ms, REST created_time)", async () => {
    const sec = 1_800_000_300;
    const hhmmss = (ms: number) => new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit', fractionalSecondDigits: 3, hour12: false }).format(new Date(ms));
    fake.reads.getTrades = {
      trades: [trade('r1', '0.4100', '1.00', 'yes', sec, { created_time: new Date(sec * 1000 + 251).toISOString() }), trade('r2', '0.4200', '1.00', 'yes', sec, { created_time: new Date(sec * 1000 + 480).toISOString() })],
      cursor: '',
    };
    render(withQueries(<TapePanel />));
    await screen.findByRole('region', { name: new RegExp(`^Time and sales for ${T}`) }, { timeout: 5000 });
    await within(table()).findByText('0.41');
    act(() => applyMarketUpdate({ tickers: [], trades: [trade('l1', '0.4300', '1.00', 'yes', sec, { ts_ms: sec * 1000 + 594 }), trade('l2', '0.4400', '1.00', 'yes', sec, { ts_ms: sec * 1000 + 937 })], lifecycle: [], indices: [] }));
    const time = (price: string) => rowOf(price).querySelector('td[data-col="time"]')?.textContent ?? '';
    expect(time('0.41')).toContain(hhmmss(sec * 1000 + 251));
    expect(time('0.42')).toContain(hhmmss(sec * 1000 + 480));
    expect(time('0.43')).toContain(hhmmss(sec * 1000 + 594));
    expect(time('0.44')).toContain(hhmmss(sec * 1000 + 937));
    // four trades in one second, each in its own millisecond: no same-moment mark
    for (const p of ['0.41', '0.42', '0.43', '0.44']) expect(rowOf(p).textContent).not.toContain('≡');
  });
});
