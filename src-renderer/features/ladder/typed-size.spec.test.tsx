// @vitest-environment jsdom
// A size typed on the ladder (digits, not yet set with Enter) belongs to the market it was typed
// for: a market switch (a linked Markets row, Enter in the list) abandons it and says so in the
// foot, so digits typed for one market never become the size of an order in another. Focus
// moving to another panel keeps it (the design: while it waits, B / S, flatten and reverse send
// nothing from any panel, stores/typed-size), and a switch back does not bring it back.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { installFakeTerminal, stubLayout, withQueries, type FakeTerminal } from '../../test/fake-terminal';
import { applyBooks, booksStore } from '../../stores/books';
import { applyPrivateUpdate } from '../../stores/private';
import { useTrading } from '../../stores/trading';
import { pendingTypedSize } from '../../stores/typed-size';
import { useRisk } from '../../stores/risk';
import { DEFAULT_RISK_LIMITS, type RiskView } from '../../../src-shared/ipc/risk';
import { LadderPanel } from './LadderPanel';

let fake: FakeTerminal;
const T = 'KXTEST-26DEC31-T1';
const U = 'KXTEST-26DEC31-T2';

beforeAll(() => {
  stubLayout();
  fake = installFakeTerminal();
});
beforeEach(() => {
  fake.api.placeOrder.mockReset();
  fake.api.placeOrder.mockResolvedValue({ client_order_id: 'c', order_id: 'o-1', fill_count: '0.00', remaining_count: '5.00' });
  fake.reads.getMarket = { market: { ticker: T, event_ticker: 'KXTEST-26DEC31', title: 'Test market' } };
  booksStore.setState({ byTicker: new Map(), version: 0 });
  applyPrivateUpdate({ reset: true });
  useTrading.getState().selectMarket(T);
  useTrading.getState().setLadderView('yes');
  useTrading.getState().setDraft({ side: 'bid', count: '5', tif: 'good_till_canceled' });
  act(() =>
    applyBooks([
      { ticker: T, stale: false, yesBids: [4500, 1000], yesAsks: [4700, 800], version: 1 },
      { ticker: U, stale: false, yesBids: [3000, 700], yesAsks: [3200, 100], version: 1 },
    ]),
  );
});
afterEach(cleanup);

const grid = () => screen.getByRole('grid');
const press = (key: string) => fireEvent.keyDown(grid(), { key });
const typedShown = () => screen.queryByTestId('ladder-typed')?.textContent ?? null;
const note = () => screen.queryByTestId('ladder-typed-note')?.textContent ?? null;
/** The ladder takes keys once it has painted a book: wait until a row shows this price. */
const painted = (label: string) =>
  waitFor(() => expect([...document.querySelectorAll('[data-cell="price"]')].some((c) => c.textContent?.trim() === label)).toBe(true), { timeout: 5000 });

describe('a typed size and a market switch', () => {
  it('a linked market switch abandons the digits typed for the old market and says so; Enter then sets nothing', async () => {
    render(withQueries(<LadderPanel />));
    await painted('0.45');
    act(() => grid().focus());
    press('2');
    press('5');
    expect(typedShown()).toContain('Typing size 25');
    expect(pendingTypedSize()).toBe('25');

    // the Markets list (linked) chooses another market
    act(() => useTrading.getState().selectMarket(U));
    await waitFor(() => expect(screen.getByRole('grid').getAttribute('aria-label')).toContain(U));
    await painted('0.30');
    expect(typedShown()).toBeNull();
    expect(note()).toMatch(/Typed size 25 abandoned: the ladder changed market to KXTEST-26DEC31-T2/);
    expect(pendingTypedSize(), 'no typed size waits anywhere: B / S are not refused for it').toBeNull();

    // Enter on the new market's ladder sets nothing; the size is the one set before
    press('Enter');
    expect(useTrading.getState().draft.count).toBe('5');
    // and digits typed now belong to the new market
    press('7');
    press('Enter');
    expect(useTrading.getState().draft.count).toBe('7');
    expect(note()).toContain('Size set to 7');
  });

  it('an order key after the switch goes out at the size set before, not the abandoned digits', async () => {
    render(withQueries(<LadderPanel />));
    await painted('0.45');
    act(() => grid().focus());
    press('9');
    press('9');
    act(() => useTrading.getState().selectMarket(U));
    await waitFor(() => expect(screen.getByRole('grid').getAttribute('aria-label')).toContain(U));
    await painted('0.30');
    press('Enter');
    expect(useTrading.getState().draft.count).toBe('5');
    expect(fake.api.placeOrder).not.toHaveBeenCalled();
  });

  it('no switch, no abandon: a re-render for the same market keeps the digits', async () => {
    render(withQueries(<LadderPanel />));
    await painted('0.45');
    act(() => grid().focus());
    press('4');
    act(() => useTrading.getState().selectMarket(T));
    act(() => useTrading.getState().setLadderView('no'));
    expect(typedShown()).toContain('Typing size 4');
    expect(pendingTypedSize()).toBe('4');
  });

  it('focus moving to another panel keeps the digits (and B / S stay refused while they wait)', async () => {
    render(
      withQueries(
        <>
          <LadderPanel />
          <button type="button">another panel</button>
        </>,
      ),
    );
    await painted('0.45');
    act(() => grid().focus());
    press('3');
    act(() => screen.getByRole('button', { name: 'another panel' }).focus());
    expect(typedShown()).toContain('Typing size 3');
    expect(pendingTypedSize()).toBe('3');
  });
});

describe('a size refused by the risk limit (issue 34)', () => {
  const risk = (maxOrderContracts: string): RiskView => ({ profileId: 'p', limits: { ...DEFAULT_RISK_LIMITS, maxOrderContracts }, killSwitch: { engaged: false, since: null, detail: '' }, dailyPnl: null });

  it('"Size 20 is over the limit" goes when the limit is raised; another error stays', async () => {
    act(() => useRisk.setState({ view: risk('10') }));
    render(withQueries(<LadderPanel />));
    await painted('0.45');
    act(() => grid().focus());
    press('2');
    press('0');
    press('Enter');
    expect(note()).toMatch(/Size 20 is over the largest order the risk limits allow \(10 contracts\)/);
    act(() => useRisk.setState({ view: risk('100') }));
    await waitFor(() => expect(note()).toBeNull());
    // the raised limit takes the same size now
    press('2');
    press('0');
    press('Enter');
    expect(useTrading.getState().draft.count).toBe('20');
    // a refusal that is not the limit's (size 0) is not cleared by a limits change
    press('0');
    press('Enter');
    expect(note()).toMatch(/Size 0 is not a size/);
    act(() => useRisk.setState({ view: risk('200') }));
    expect(note()).toMatch(/Size 0 is not a size/);
  });
});
