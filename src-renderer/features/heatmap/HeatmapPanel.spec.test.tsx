// @vitest-environment jsdom
// The depth heatmap as a trader meets it: honest empty and loading states, the history it keeps
// stated (and sized by Settings), its newest column equal to the book main pushed (through the
// real stores and the app's recorder), trades recorded in their bucket. (A price chosen on it
// centring the linked ladder: app/heatmap-ladder.spec.test.tsx, which may hold both panels.)
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { fakeMarket, installFakeTerminal, stubLayout, withQueries } from '../../test/fake-terminal';
import { applyBooks, booksStore } from '../../stores/books';
import { applyMarketUpdate } from '../../stores/market';
import { applyPrivateUpdate } from '../../stores/private';
import { useSession } from '../../stores/session';
import { useTrading } from '../../stores/trading';
import { HeatmapPanel } from './HeatmapPanel';
import { seriesOf } from './heat-history';

const T = 'KXHEAT-26DEC31-T1';

beforeAll(() => {
  stubLayout();
  fakeMarket(installFakeTerminal(), T, 'Heat test market');
});
beforeEach(() => {
  booksStore.setState({ byTicker: new Map(), version: 0 });
  applyPrivateUpdate({ reset: true });
  useSession.setState((s) => ({ settings: { ...s.settings, heatmapMinutes: undefined } }));
  useTrading.getState().selectMarket(null);
  useTrading.getState().setLadderView('yes');
});
afterEach(cleanup);

describe('the depth heatmap', () => {
  it('says when no market is selected', () => {
    render(withQueries(<HeatmapPanel />));
    expect(screen.getByText(/No market selected/)).toBeTruthy();
  });

  it('waits for the book and says so, and states the history it keeps (from Settings)', async () => {
    act(() => useTrading.getState().selectMarket(T));
    render(withQueries(<HeatmapPanel />));
    expect(screen.getByRole('status').textContent).toContain(`Waiting for the book of ${T}`);
    const held = () => screen.getByTestId('heatmap-held');
    expect(held().textContent).toContain('History 10 min');
    expect(held().title).toContain('2,400 buckets of 250 ms');
    act(() => useSession.setState((s) => ({ settings: { ...s.settings, heatmapMinutes: 2 } })));
    await waitFor(() => expect(held().textContent).toContain('History 2 min'));
    expect(held().title).toContain('480 buckets of 250 ms');
    expect(seriesOf(T)!.ring.capacity).toBe(480);
  });

  it("its newest column is the book main pushed, and the market's trades land in it", async () => {
    act(() => useTrading.getState().selectMarket(T));
    render(withQueries(<HeatmapPanel />));
    const book = { ticker: T, stale: false, yesBids: [4500, 1000, 4400, 250], yesAsks: [4700, 800, 4900, 60], version: 1 };
    act(() => applyBooks([book]));
    await waitFor(() => expect(screen.queryByRole('status')).toBeNull());
    const latest = seriesOf(T)!.latest()!;
    expect(latest.bids).toEqual(book.yesBids);
    expect(latest.asks).toEqual(book.yesAsks);
    const next = { ...book, yesBids: [4600, 300], yesAsks: [4700, 500], version: 2 };
    act(() => applyBooks([next]));
    expect(seriesOf(T)!.latest()!.bids).toEqual([4600, 300]);
    expect(seriesOf(T)!.latest()!.asks).toEqual([4700, 500]);
    act(() => applyMarketUpdate({ tickers: [], lifecycle: [], indices: [], trades: [{ trade_id: 'x1', ticker: T, yes_price_dollars: '0.4700', no_price_dollars: '0.5300', count_fp: '3.00', taker_side: 'yes', ts: 1 }] }));
    const trades = seriesOf(T)!.column(seriesOf(T)!.lastSeq)!.trades;
    expect(trades).toEqual([4700, 1, 300]);
  });
});
