// @vitest-environment jsdom
// Event ladders as a trader uses them: the linked market's event, one compact ladder per open
// outcome (each pinned to its market so its book streams, and unpinned when it goes), a column's
// title choosing that market, at most eight columns, and the honest empty, loading and error
// states.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { installFakeTerminal, stubLayout, withQueries, type FakeTerminal } from '../../test/fake-terminal';
import { applyBooks, booksStore } from '../../stores/books';
import { applyPrivateUpdate } from '../../stores/private';
import { useTrading } from '../../stores/trading';
import { EventLadders } from './EventLadders';

let fake: FakeTerminal;
const EVENT = 'KXELECT-26';
const outcome = (n: number, status = 'active') => ({ ticker: `${EVENT}-C${n}`, event_ticker: EVENT, status, title: `Candidate ${n}`, yes_sub_title: `Candidate ${n}` });
const OUTCOMES = [outcome(1), outcome(2), outcome(3, 'settled'), outcome(4)];

const columns = () => within(screen.getByTestId('event-ladders')).queryAllByRole('button', { name: /^Candidate \d+$/ });

beforeAll(() => {
  stubLayout();
  fake = installFakeTerminal();
});
beforeEach(() => {
  fake.api.request.mockClear();
  fake.reads.getMarket = ({ params }: { params?: { ticker?: string } }) => ({ market: { ...(OUTCOMES.find((m) => m.ticker === params?.ticker) ?? outcome(1)), ticker: params?.ticker ?? `${EVENT}-C1` } });
  fake.reads.getEvent = { event: { event_ticker: EVENT, series_ticker: 'KXELECT', title: 'Who wins the election?' } };
  fake.reads.getSeries = { series: { ticker: 'KXELECT', fee_type: 'quadratic', fee_multiplier: '1' } };
  fake.reads.getMarkets = { markets: OUTCOMES, cursor: '' };
  booksStore.setState({ byTicker: new Map(), version: 0 });
  applyPrivateUpdate({ reset: true });
  useTrading.setState({ pins: {} });
  useTrading.getState().selectMarket(`${EVENT}-C1`);
});
afterEach(cleanup);

describe('event ladders', () => {
  it("asks for the linked market's event and shows a column per open outcome, with the event's title", async () => {
    render(withQueries(<EventLadders />));
    await waitFor(() => expect(columns()).toHaveLength(3), { timeout: 5000 });
    expect(columns().map((b) => b.textContent)).toEqual(['Candidate 1', 'Candidate 2', 'Candidate 4']);
    const asked = fake.api.request.mock.calls.map(([i]) => i as { id: string; query?: Record<string, unknown> }).find((i) => i.id === 'getMarkets');
    expect(asked?.query).toMatchObject({ event_ticker: EVENT });
    expect(screen.getByText(EVENT)).toBeTruthy();
    expect(await screen.findByText('Who wins the election?')).toBeTruthy();
    expect(screen.getByText('3 of 3 outcomes')).toBeTruthy();
    // the linked market's column is marked
    expect(columns()[0]!.className).toContain('btn-on');
    expect(columns()[1]!.className).not.toContain('btn-on');
  });

  it('keeps the linked market even when it is no longer open', async () => {
    useTrading.getState().selectMarket(`${EVENT}-C3`);
    render(withQueries(<EventLadders />));
    await waitFor(() => expect(columns()).toHaveLength(4), { timeout: 5000 });
    expect(columns().map((b) => b.textContent)).toContain('Candidate 3');
  });

  it('pins each column to its market while shown, and unpins them when the panel goes', async () => {
    const { unmount } = render(withQueries(<EventLadders />));
    await waitFor(() => expect(columns()).toHaveLength(3), { timeout: 5000 });
    await waitFor(() => expect(Object.values(useTrading.getState().pins).sort()).toEqual([`${EVENT}-C1`, `${EVENT}-C2`, `${EVENT}-C4`]));
    unmount();
    expect(useTrading.getState().pins).toEqual({});
  });

  it("each column waits for and then paints its own market's book", async () => {
    render(withQueries(<EventLadders />));
    await waitFor(() => expect(columns()).toHaveLength(3), { timeout: 5000 });
    expect(screen.getByText(`Waiting for the book of ${EVENT}-C2…`)).toBeTruthy();
    act(() => applyBooks([{ ticker: `${EVENT}-C2`, stale: false, yesBids: [3000, 700], yesAsks: [3200, 400], version: 1 }]));
    await waitFor(() => expect(screen.queryByText(`Waiting for the book of ${EVENT}-C2…`)).toBeNull(), { timeout: 5000 });
    // the other columns still wait for theirs
    expect(screen.getByText(`Waiting for the book of ${EVENT}-C4…`)).toBeTruthy();
  });

  it("a column's title chooses that market for the link group", async () => {
    render(withQueries(<EventLadders />));
    await waitFor(() => expect(columns()).toHaveLength(3), { timeout: 5000 });
    await userEvent.setup().click(columns()[2]!);
    expect(useTrading.getState().ticker).toBe(`${EVENT}-C4`);
  });

  it('shows at most eight outcomes and says how many there are', async () => {
    fake.reads.getMarkets = { markets: Array.from({ length: 11 }, (_, i) => outcome(i + 1)), cursor: '' };
    render(withQueries(<EventLadders />));
    await waitFor(() => expect(columns()).toHaveLength(8), { timeout: 5000 });
    expect(screen.getByText('8 of 11 outcomes')).toBeTruthy();
  });

  it('says when no market is linked', () => {
    useTrading.setState({ ticker: null });
    render(withQueries(<EventLadders />));
    expect(screen.getByText(/^No market selected\. Pick one in Markets/)).toBeTruthy();
  });

  it("says it is loading the event's markets, then that none is open", async () => {
    fake.reads.getMarkets = { markets: [outcome(3, 'settled')], cursor: '' };
    useTrading.getState().selectMarket(`${EVENT}-C1`);
    render(withQueries(<EventLadders />));
    expect(screen.getByText("Loading the event's markets…")).toBeTruthy();
    expect(await screen.findByText(`No open outcomes in ${EVENT}.`, undefined, { timeout: 5000 })).toBeTruthy();
  });

  it("shows the exchange's error when the event's markets cannot be read", async () => {
    fake.reads.getMarkets = () => {
      throw Object.assign(new Error('event not found'), { kind: 'api', status: 404, code: 'not_found' });
    };
    render(withQueries(<EventLadders />));
    const alert = await screen.findByRole('alert', undefined, { timeout: 10_000 });
    expect(alert.textContent).toContain('not_found');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
