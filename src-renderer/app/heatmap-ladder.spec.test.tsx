// @vitest-environment jsdom
// The depth heatmap linked to the ladder: a price chosen on the heatmap (keyboard: Up/Down, then
// Enter) centres the ladder of the same market there, as a click on a price does.
import { beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { fakeMarket, installFakeTerminal, stubLayout, withQueries } from '../test/fake-terminal';
import { applyBooks, booksStore } from '../stores/books';
import { applyPrivateUpdate } from '../stores/private';
import { useTrading } from '../stores/trading';
import { LadderPanel } from '../features/ladder/LadderPanel';
import { HeatmapPanel } from '../features/heatmap/HeatmapPanel';

const T = 'KXHEAT-26DEC31-T1';

beforeAll(() => {
  stubLayout();
  fakeMarket(installFakeTerminal(), T, 'Heat test market');
});
beforeEach(() => {
  booksStore.setState({ byTicker: new Map(), version: 0 });
  applyPrivateUpdate({ reset: true });
  useTrading.getState().setLadderView('yes');
});
afterEach(cleanup);

describe('heatmap -> ladder', () => {
  it('Up/Down then Enter on a price centres the linked ladder there', async () => {
    act(() => useTrading.getState().selectMarket(T));
    render(
      withQueries(
        <>
          <LadderPanel />
          <HeatmapPanel />
        </>,
      ),
    );
    act(() => applyBooks([{ ticker: T, stale: false, yesBids: [4500, 1000], yesAsks: [4700, 800], version: 1 }]));
    const rowOf = (label: string) => [...document.querySelectorAll<HTMLElement>('[data-cell="price"]')].find((c) => c.textContent?.trim() === label)?.closest<HTMLElement>('[data-row]')?.dataset.row;
    // the ladder follows the inside: 0.46 in its middle row
    const middle = () => String(Math.floor(document.querySelectorAll('.ladder-row').length / 2));
    await waitFor(() => expect(rowOf('0.46')).toBe(middle()));
    await waitFor(() => expect(screen.queryByText(/Waiting for the book/)).toBeNull());
    const heat = screen.getByRole('application', { name: /Depth heatmap of/ });
    heat.focus();
    // the keyboard cursor starts at the price in the heatmap's middle; Up moves it a row each
    fireEvent.keyDown(heat, { key: 'ArrowUp' });
    const start = Number(screen.getByTestId('heatmap-cursor').querySelector('strong')!.textContent);
    for (let i = 0; i < 3; i++) fireEvent.keyDown(heat, { key: 'ArrowUp' });
    const chosen = screen.getByTestId('heatmap-cursor').querySelector('strong')!.textContent!;
    expect(Number(chosen)).toBeCloseTo(start + 0.03, 6);
    expect(chosen).not.toBe('0.46');
    fireEvent.keyDown(heat, { key: 'Enter' });
    await waitFor(() => expect(rowOf(chosen)).toBe(middle()));
    expect(rowOf('0.46')).not.toBe(middle());
  });
});
