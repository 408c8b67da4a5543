// @vitest-environment jsdom
// The intent contract (issue 33): an order leaves only on a deliberate trading gesture. With the
// real key dispatcher, the real trading, ladder, reverse and kill-switch commands, the real command
// palette, the real ticket, ladder and confirmation dialogs over a stand-in for main whose every
// call is recorded at the process boundary, in a world where every trading command WOULD trade
// (a book on both sides, a position, my resting orders), every entry point is driven along its
// default path and must send, cancel or amend nothing:
// - the palette: freshly opened + Enter; a query typed + Enter on the palette's own selection;
// - each bound key, in each focus context, followed by the default (Enter) of whatever dialog it opens;
// - the app menu's commands, followed by Enter on their dialog;
// - every confirmation dialog: its focused control is the safe one (the console code's: its field);
// - the blotter's amend and decrease dialogs: Enter as they open changes nothing;
// - the Positions panel's buttons: Flatten asks and Enter keeps; TP/SL (a local trigger) arms
//   nothing on Enter as it opens.
// Positive controls prove the world trades when the trader does choose: a palette entry typed to
// and moved to with the arrows, a trading key on a panel, and each says where it came from.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { clearFakeCalls, fakeMarket, installFakeTerminal, stubLayout, withQueries, type FakeTerminal } from '../test/fake-terminal';
import { ACTIONS, ACTION_BY_ID, resolveKeymap } from '../lib/keymap';
import { runCommand, useCommand } from '../lib/commands';
import { useSession } from '../stores/session';
import { useTrading } from '../stores/trading';
import { useOverlay } from '../stores/ui';
import { applyBooks, booksStore } from '../stores/books';
import { applyPrivateUpdate } from '../stores/private';
import { CommandPalette } from '../features/keyboard/CommandPalette';
import { useGlobalHotkeys } from '../features/keyboard/useGlobalHotkeys';
import { useTradingCommands } from '../features/ticket/useTradingCommands';
import { useReverseCommand } from '../features/ticket/reverse';
import { useRiskCommands } from '../features/risk/useRiskCommands';
import { TicketPanel } from '../features/ticket/TicketPanel';
import { LadderPanel } from '../features/ladder/LadderPanel';
import { OrdersPanel } from '../features/orders/OrdersPanel';
import { PositionsPanel } from '../features/positions/PositionsPanel';
import { useSeed } from '../stores/seed';
import { askText, chooseAction, confirmAction, ConfirmHost } from '../ui/confirm';
import { MENU_COMMANDS } from './live';
import { pressBinding as press } from '../test/keys';

let fake: FakeTerminal;
const T = 'KXTEST-26DEC31-T1';

/** Every call that sends, cancels or amends an order (or arms one main will send), and the kill switch's two. */
const TRADING = ['placeOrder', 'placeOrders', 'amendOrder', 'decreaseOrder', 'cancelOrder', 'batchCancel', 'cancelAll', 'placeLocalOrders', 'placeBracket', 'engageKillSwitch', 'releaseKillSwitch'] as const;

/** What reached main that trades, in order: method and argument. */
function trades(): { method: string; arg: Record<string, unknown> | undefined }[] {
  const out: { method: string; arg: Record<string, unknown> | undefined; order: number }[] = [];
  for (const m of TRADING) {
    const mock = fake.api[m];
    mock.mock.calls.forEach((args, i) => out.push({ method: m, arg: args[0] as Record<string, unknown> | undefined, order: mock.mock.invocationCallOrder[i]! }));
  }
  // the passthrough's writes (any non-read endpoint) trade too
  fake.api.request.mock.calls.forEach((args, i) => {
    const id = String((args[0] as { id?: string }).id ?? '');
    if (!/^get|^list/i.test(id)) out.push({ method: `request:${id}`, arg: args[0] as Record<string, unknown>, order: fake.api.request.mock.invocationCallOrder[i]! });
  });
  return out.sort((a, b) => a.order - b.order).map(({ method, arg }) => ({ method, arg }));
}

function clearCalls() {
  clearFakeCalls(fake);
}

/** Lets every timer of 0 ms and every promise chain started so far run out. */
async function settle() {
  for (let i = 0; i < 3; i++) {
    await act(async () => {
      await new Promise((r) => setTimeout(r, 0));
    });
  }
}

function Keys() {
  useGlobalHotkeys();
  useTradingCommands();
  useReverseCommand();
  useRiskCommands();
  const show = useOverlay((s) => s.show);
  const open = useOverlay((s) => s.open);
  useCommand('app.palette', () => show(open === 'palette' ? null : 'palette'));
  return null;
}

function Stage() {
  return withQueries(
    <>
      <Keys />
      <div data-panel="ladder">
        <LadderPanel />
      </div>
      <div data-panel="ticket">
        <TicketPanel />
      </div>
      <div data-panel="markets">
        <div role="region" aria-label="Markets" tabIndex={0} />
      </div>
      <CommandPalette />
      <ConfirmHost />
    </>,
  );
}


/**
 * Enter on whatever has focus, as a browser does it: the keydown first (handlers see it), then,
 * unless a handler took it, a button is clicked and a field submits its form (implicit submission).
 */
function enterLikeABrowser() {
  const el = (document.activeElement ?? document.body) as HTMLElement;
  let taken = false;
  act(() => {
    taken = !fireEvent.keyDown(el, { key: 'Enter', code: 'Enter', bubbles: true });
    fireEvent.keyUp(el, { key: 'Enter', code: 'Enter', bubbles: true });
  });
  if (taken || !el.isConnected) return;
  act(() => {
    if (el instanceof HTMLButtonElement && !el.disabled) el.click();
    else if (el instanceof HTMLInputElement && el.form) {
      const submit = el.form.querySelector<HTMLButtonElement>('button[type="submit"], button:not([type])');
      if (submit && !submit.disabled) el.form.requestSubmit();
    }
  });
}

const openDialog = () => document.querySelector<HTMLDialogElement>('dialog[open]');

/** Answers every dialog left open with its default (Enter on what it focused), as many as open in turn. */
async function enterThroughDialogs() {
  for (let i = 0; i < 5 && openDialog(); i++) {
    enterLikeABrowser();
    await settle();
  }
  // anything still open (a dialog whose default does nothing) is closed without an answer
  for (let i = 0; i < 5 && openDialog(); i++) {
    act(() => {
      openDialog()!.dispatchEvent(new Event('cancel', { cancelable: true }));
    });
    await settle();
  }
}

const paletteInput = () => {
  const el = document.querySelector<HTMLInputElement>('dialog[open] input[aria-label="Search actions"]');
  if (!el) throw new Error('the command palette is not open');
  return el;
};

async function openPalette() {
  document.body.focus();
  (document.activeElement as HTMLElement | null)?.blur?.();
  press('mod+k');
  await waitFor(() => expect(document.activeElement).toBe(paletteInput()));
  await settle();
}

async function typeInPalette(q: string) {
  act(() => {
    fireEvent.change(paletteInput(), { target: { value: q } });
  });
  await settle();
}

const selectedItem = () => document.querySelector<HTMLElement>('[cmdk-item][aria-selected="true"]');
const idOfItem = (el: HTMLElement | null) => {
  const v = el?.getAttribute('data-value') ?? '';
  return v.slice(v.lastIndexOf(' ') + 1);
};
const isTrading = (id: string) => ACTION_BY_ID.get(id)?.danger === true;

beforeAll(() => {
  stubLayout();
  Object.defineProperty(HTMLElement.prototype, 'offsetParent', { configurable: true, get: () => document.body });
  HTMLElement.prototype.getClientRects = function () {
    return [this.getBoundingClientRect()] as unknown as DOMRectList;
  };
  if (!HTMLElement.prototype.scrollIntoView) HTMLElement.prototype.scrollIntoView = function () {};
  fake = installFakeTerminal();
});

beforeEach(() => {
  clearCalls();
  fake.api.placeOrder.mockResolvedValue({ client_order_id: 'c', order_id: 'o-new', fill_count: '0.00', remaining_count: '1.00' });
  fake.api.cancelAll.mockResolvedValue({ canceled: 1 });
  fake.api.placeLocalOrders.mockResolvedValue({ orders: [], awaitingChoice: false });
  fakeMarket(fake, T, 'Test market');
  fake.reads.getOrderGroups = { order_groups: [] };
  fake.reads.getSubaccountBalances = { subaccount_balances: [] };
  useSession.setState({ keymap: resolveKeymap() });
  useSession.setState((s) => ({ settings: { ...s.settings, confirmCancelAll: true } }));
  useOverlay.setState({ open: null });
  booksStore.setState({ byTicker: new Map(), version: 0 });
  // a world where every trading command would trade: a book, a position, my orders on both sides
  applyBooks([{ ticker: T, stale: false, yesBids: [4500, 1000], yesAsks: [4700, 800], version: 1 }]);
  applyPrivateUpdate({ reset: true });
  applyPrivateUpdate({
    orders: [
      { order_id: 'o-bid', ticker: T, side: 'yes', action: 'buy', yes_price_dollars: '0.4000', remaining_count_fp: '2.00', fill_count_fp: '0.00', status: 'resting' },
      { order_id: 'o-ask', ticker: T, side: 'yes', action: 'sell', yes_price_dollars: '0.5200', remaining_count_fp: '3.00', fill_count_fp: '0.00', status: 'resting' },
    ],
    positions: [{ ticker: T, position_fp: '10.00' }],
  });
  useTrading.getState().selectMarket(T);
  useTrading.getState().setLadderView('yes');
  useTrading.getState().setDraft({ side: 'bid', price: '0.45', count: '1', tif: 'good_till_canceled', stp: '', orderGroupId: '', subaccount: '', postOnly: false, expiration: '' });
});
afterEach(async () => {
  await enterThroughDialogs();
  cleanup();
});

describe('the command palette never trades by default', () => {
  it('opens with no trading entry selected, and Enter on the freshly opened palette sends nothing', async () => {
    render(Stage());
    await openPalette();
    const sel = idOfItem(selectedItem());
    enterLikeABrowser();
    await settle();
    await enterThroughDialogs();
    expect(trades(), `Enter with ${sel || 'nothing'} selected`).toEqual([]);
    expect(isTrading(sel), `opened with ${sel} selected`).toBe(false);
  });

  // one test per trading entry (each with its own time: the 60-odd queries in one test took 250 s
  // of a 240-s timeout with the cores shared five ways)
  it.each(ACTIONS.filter((a) => a.danger).map((a) => [a.id, a] as const))('typed to %s (its label, its id, its first word, 3 letters), Enter on the selection the palette made sends nothing', async (_id, a) => {
    const words = a.label.toLowerCase().split(/\s+/);
    const queries = [...new Set([a.label, a.id, words[0]!, words[0]!.slice(0, 3)])];
    render(Stage());
    for (const q of queries) {
      await openPalette();
      await typeInPalette(q);
      const sel = idOfItem(selectedItem());
      enterLikeABrowser();
      await settle();
      await enterThroughDialogs();
      expect(trades(), `"${q}" then Enter, with ${sel || 'nothing'} selected`).toEqual([]);
      expect(isTrading(sel), `"${q}" preselected ${sel}`).toBe(false);
    }
  }, 120_000);

  it('a trading entry runs when the trader typed to it and moved to it, and the order says it came from the palette', async () => {
    render(Stage());
    await openPalette();
    await typeInPalette('buy at the bid');
    for (let i = 0; i < 20 && idOfItem(selectedItem()) !== 'trade.buyBid'; i++) {
      act(() => {
        fireEvent.keyDown(paletteInput(), { key: 'ArrowDown', code: 'ArrowDown', bubbles: true });
      });
      await settle();
    }
    expect(idOfItem(selectedItem())).toBe('trade.buyBid');
    enterLikeABrowser();
    await waitFor(() => expect(fake.api.placeOrder).toHaveBeenCalledTimes(1));
    expect(fake.api.placeOrder).toHaveBeenCalledWith(expect.objectContaining({ ticker: T, side: 'bid', price: '0.4500', origin: 'palette' }));
  });
  // a fast trader (or Playwright without its trace) presses the arrow before the next frame, when
  // the palette makes its own pick for the new search: the pick must not take the trader's back
  it('an arrow key pressed in the same frame as the search keeps what it chose once the frame comes', async () => {
    render(Stage());
    await openPalette();
    // two events, each rendered as a browser renders a discrete event, with no frame between them
    act(() => {
      fireEvent.change(paletteInput(), { target: { value: 'buy at the bid' } });
    });
    act(() => {
      fireEvent.keyDown(paletteInput(), { key: 'ArrowDown', code: 'ArrowDown', bubbles: true });
    });
    const chosen = idOfItem(selectedItem());
    expect(chosen, 'the arrow chose an item').not.toBe('');
    await settle();
    await settle();
    expect(idOfItem(selectedItem()), 'after the frame').toBe(chosen);
  });
});

type Context = 'ladder' | 'ticket' | 'ticket field' | 'markets list' | 'dialog' | 'palette';
const CONTEXTS: Context[] = ['ladder', 'ticket', 'ticket field', 'markets list', 'dialog', 'palette'];

async function enter(ctx: Context) {
  if (ctx === 'palette') return openPalette();
  if (ctx === 'dialog') {
    void confirmAction({ title: 'Some question', body: 'Keep or go?', confirmLabel: 'Go' });
    await waitFor(() => expect(openDialog()).not.toBeNull());
    return;
  }
  const el =
    ctx === 'ladder'
      ? await waitFor(() => screen.getByRole('grid', { name: /ladder/i }))
      : ctx === 'ticket'
        ? screen.getByRole('form', { name: 'Order ticket' })
        : ctx === 'ticket field'
          ? within(screen.getByRole('form', { name: 'Order ticket' })).getByLabelText(/^Count/)
          : screen.getByRole('region', { name: 'Markets' });
  act(() => el.focus());
  expect(document.activeElement).toBe(el);
}

describe('each key, in each focus context, then Enter on any dialog it opens', () => {
  const keymap = resolveKeymap();
  const bound = ACTIONS.filter((a) => keymap[a.id] && a.id !== 'app.palette');

  it.each(CONTEXTS)('%s: a key trades only if it is a trading key, on a trading surface (or global), and says it was a key', async (ctx) => {
    render(Stage());
    await settle();
    for (const a of bound) {
      useOverlay.setState({ open: null });
      await settle();
      await enter(ctx);
      clearCalls();
      press(keymap[a.id]!);
      await settle();
      await enterThroughDialogs();
      const sent = trades();
      if (!sent.length) continue;
      expect(isTrading(a.id), `${a.id} is not a trading key but sent ${sent.map((x) => x.method).join(', ')}`).toBe(true);
      expect(a.global === true || ctx === 'ladder' || ctx === 'ticket' || ctx === 'markets list', `${a.id} traded from ${ctx}`).toBe(true);
      for (const x of sent) if (x.arg && !x.method.endsWith('KillSwitch')) expect(x.arg.origin, `${a.id} ${x.method}`).toBe('hotkey');
    }
  }, 240_000);

  it('a trading key on a focused trading surface does trade (the world is live)', async () => {
    render(Stage());
    await settle();
    await enter('ladder');
    press('b');
    await waitFor(() => expect(fake.api.placeOrder).toHaveBeenCalledWith(expect.objectContaining({ side: 'bid', price: '0.4500', origin: 'hotkey' })));
  });
});

describe('menus', () => {
  it.each(Object.entries(MENU_COMMANDS))('menu %s (%s), then Enter on its dialog, sends nothing', async (_menu, id) => {
    render(Stage());
    await settle();
    act(() => {
      runCommand(id, 'menu');
    });
    await settle();
    await enterThroughDialogs();
    expect(trades()).toEqual([]);
  });
});

describe('dialogs: the focused control is the safe one', () => {
  beforeEach(() => {
    render(withQueries(<ConfirmHost />));
  });
  const focusedLabel = () => (document.activeElement as HTMLElement | null)?.textContent?.trim() ?? '';

  it.each([
    ['a dangerous confirmation', () => confirmAction({ title: 'Flatten?', body: 'Sell 10', confirmLabel: 'Flatten', danger: true })],
    ['a plain confirmation', () => confirmAction({ title: 'Rotate?', body: 'Mint a new key', confirmLabel: 'Rotate' })],
    ['a choice among several', () => chooseAction({ title: 'Which?', body: 'Pick', choices: [{ label: 'One', value: '1' }, { label: 'Two', value: '2' }] })],
  ] as const)('%s focuses Keep, and Enter keeps', async (_what, ask) => {
    let answer: unknown = 'pending';
    void ask().then((a) => (answer = a));
    await waitFor(() => expect(openDialog()).not.toBeNull());
    expect(focusedLabel()).toBe('Keep');
    enterLikeABrowser();
    await waitFor(() => expect(answer).not.toBe('pending'));
    expect(answer === null || answer === false).toBe(true);
  });

  it('the console-code dialog focuses its code field; Enter with no code typed confirms nothing', async () => {
    let answer: unknown = 'pending';
    void askText({ title: 'Code from the console', body: 'Type the code', label: 'Code from the console', confirmLabel: 'Confirm' }).then((a) => (answer = a));
    await waitFor(() => expect(openDialog()).not.toBeNull());
    expect(document.activeElement).toBe(screen.getByLabelText('Code from the console'));
    enterLikeABrowser();
    await settle();
    expect(answer).toBe('pending');
    act(() => {
      fireEvent.change(screen.getByLabelText('Code from the console'), { target: { value: '123456' } });
    });
    enterLikeABrowser();
    await waitFor(() => expect(answer).toBe('123456'));
  });
});

describe("the blotter's dialogs", () => {
  it.each([['Amend'], ['Decrease']])('%s, then Enter as it opens, changes nothing', async (button) => {
    render(withQueries(<><OrdersPanel /><ConfirmHost /></>));
    const row = await screen.findAllByRole('button', { name: button });
    act(() => row[0]!.click());
    await waitFor(() => expect(openDialog()).not.toBeNull());
    clearCalls();
    enterLikeABrowser();
    await settle();
    await enterThroughDialogs();
    expect(trades()).toEqual([]);
  });
});

describe('the Positions panel: its Flatten button and its local TP/SL', () => {
  const positions = () => render(withQueries(<><Keys /><PositionsPanel /><ConfirmHost /></>));
  const row = async () => (await screen.findByRole('table', { name: 'Positions' })).querySelector('tr:has(td)') as HTMLElement;
  beforeEach(() => {
    useSeed.setState({ positions: { state: 'ok' }, fills: { state: 'ok' } });
    fake.reads.getPositions = { market_positions: [], event_positions: [], cursor: '' };
  });

  it('Flatten asks first, and Enter on the question keeps the position', async () => {
    positions();
    const r = await row();
    act(() => within(r).getByRole('button', { name: 'Flatten' }).click());
    await waitFor(() => expect(openDialog()).not.toBeNull());
    enterLikeABrowser();
    await settle();
    await enterThroughDialogs();
    expect(trades()).toEqual([]);
  });

  it('Flatten confirmed with a click sells, and the order says a button sent it', async () => {
    positions();
    const r = await row();
    act(() => within(r).getByRole('button', { name: 'Flatten' }).click());
    await waitFor(() => expect(openDialog()).not.toBeNull());
    act(() => within(openDialog()!).getByRole('button', { name: 'Flatten' }).click());
    await waitFor(() => expect(fake.api.placeOrder).toHaveBeenCalledWith(expect.objectContaining({ side: 'ask', count: '10.00', origin: 'button' })));
  });

  it('TP/SL (local orders main will trigger), then Enter as it opens, arms nothing', async () => {
    positions();
    const r = await row();
    act(() => within(r).getByRole('button', { name: 'TP/SL' }).click());
    await waitFor(() => expect(openDialog()).not.toBeNull());
    enterLikeABrowser();
    await settle();
    await enterThroughDialogs();
    expect(trades()).toEqual([]);
  });
});
