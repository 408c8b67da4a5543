// @vitest-environment jsdom
// The dock layout through the keys (issue 34): Alt+Shift+L makes a ladder in the next link colour
// whose empty state says "Pick one in Markets (Alt+1, then Enter on a row)", and that is what
// feeds it: Alt+1 focuses the Markets list, Enter on a row shows that market in the new ladder
// (the white ladder keeps its own). Alt+Shift+R asks before resetting the layout; Keep, the
// focused button, keeps it.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { installDockTestbed, loadedApp, withQueries, type FakeTerminal } from '../test/fake-terminal';
import { resolveKeymap } from '../lib/keymap';
import { useSession } from '../stores/session';
import { useTrading } from '../stores/trading';
import { useLinkPick } from '../stores/link-pick';
import { useGlobalHotkeys } from '../features/keyboard/useGlobalHotkeys';
import { ConfirmHost } from '../ui/confirm';
import { DockLayout } from './Layout';
import { key } from '../test/keys';

let fake: FakeTerminal;
const A = 'KXLINK-26DEC31-A';
const B = 'KXLINK-26DEC31-B';

function Keys() {
  useGlobalHotkeys();
  return null;
}

const market = (ticker: string, bid: string, ask: string) => ({ ticker, event_ticker: 'KXLINK-26DEC31', title: `Market ${ticker}`, status: 'active', yes_bid_dollars: bid, yes_ask_dollars: ask, volume_fp: '10.00', price_ranges: [{ start: '0.0000', end: '1.0000', step: '0.0100' }] });

beforeAll(() => {
  fake = installDockTestbed();
});
beforeEach(() => {
  fake.reads.getMarkets = { markets: [market(A, '0.4000', '0.4200'), market(B, '0.6000', '0.6200')], cursor: '' };
  fake.reads.getMarket = (i: { params: { ticker: string } }) => ({ market: market(i.params.ticker, '0.4000', '0.4200') });
  fake.api.getLayout.mockResolvedValue(null);
  useSession.setState({ keymap: resolveKeymap(), app: loadedApp('p1') });
  useTrading.setState({ ticker: A, groups: { red: null, green: null, blue: null, yellow: null } });
  useLinkPick.setState({ waiting: [] });
});
afterEach(cleanup);


const ladders = () => [...document.querySelectorAll<HTMLElement>('[data-panel="ladder"]')];

describe('a new linked ladder is fed from Markets', () => {
  it('Alt+Shift+L, then Alt+1 and Enter on a row: the new ladder shows that market; the white one keeps its own', async () => {
    render(withQueries(<><Keys /><ConfirmHost /><DockLayout /></>));
    await waitFor(() => expect(ladders()).toHaveLength(1));
    key({ key: 'L', code: 'KeyL', altKey: true, shiftKey: true });
    await waitFor(() => expect(ladders()).toHaveLength(2));
    const red = ladders().find((l) => l.getAttribute('data-link') === 'red')!;
    expect(red.textContent).toContain('Pick one in Markets (Alt+1, then Enter on a row)');

    key({ key: '1', code: 'Digit1', altKey: true });
    await waitFor(() => expect(document.activeElement?.closest('[data-panel="markets"]')).toBeTruthy());
    expect(within(document.querySelector<HTMLElement>('[data-panel="markets"]')!).getByTestId('markets-feeds').textContent).toContain('red');
    // into the list (Tab from the panel's tabs), down to a row, Enter
    const list = await screen.findByRole('region', { name: /^Markets: arrows move/ });
    await within(list).findByText(B);
    act(() => list.focus());
    key({ key: 'End', code: 'End' });
    key({ key: 'Enter', code: 'Enter' });
    await waitFor(() => expect(useTrading.getState().groups.red).not.toBeNull());
    const fedWith = useTrading.getState().groups.red!;
    await waitFor(() => expect(red.querySelector('[data-ticker]')?.getAttribute('data-ticker')).toBe(fedWith));
    expect(useTrading.getState().ticker, 'the white group keeps its market').toBe(A);
    expect(useLinkPick.getState().waiting).toEqual([]);
    // fed once: the next pick drives the white group again
    key({ key: 'Home', code: 'Home' });
    key({ key: 'Enter', code: 'Enter' });
    expect(useTrading.getState().groups.red).toBe(fedWith);
    expect(useTrading.getState().ticker).not.toBeNull();
  });
});

describe('reset layout', () => {
  it('Alt+Shift+R asks first with Keep focused; Keep keeps the panels, Reset layout rebuilds the default', async () => {
    render(withQueries(<><Keys /><ConfirmHost /><DockLayout /></>));
    await waitFor(() => expect(ladders()).toHaveLength(1));
    key({ key: 'L', code: 'KeyL', altKey: true, shiftKey: true });
    await waitFor(() => expect(ladders()).toHaveLength(2));
    act(() => document.body.focus());
    key({ key: 'R', code: 'KeyR', altKey: true, shiftKey: true });
    const keep = await screen.findByRole('button', { name: 'Keep' });
    expect(screen.getByText(/Every panel goes back to the default place/)).toBeTruthy();
    expect(document.activeElement).toBe(keep);
    act(() => keep.click());
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Keep' })).toBeNull());
    expect(ladders()).toHaveLength(2);
    key({ key: 'R', code: 'KeyR', altKey: true, shiftKey: true });
    act(() => screen.getByRole('button', { name: 'Reset layout' }).click());
    await waitFor(() => expect(ladders()).toHaveLength(1));
  });
});
