// @vitest-environment jsdom
// No key sends an order the visible ticket did not show (issue 24): with the real ticket, the
// real trading keys and the real dispatcher over a stand-in for main, a ticket reading "Set stop:
// sell 1 at last 0.44" is armed as that local stop by Ctrl+Enter, Enter and its button alike and
// never sent as a limit; and every other key, pressed on the ticket and in its fields, sends
// nothing to the exchange (no book, no position: nothing a key could join, cross or flatten).
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { clearFakeCalls, fakeMarket, installFakeTerminal, stubLayout, withQueries, type FakeTerminal } from '../test/fake-terminal';
import { ACTIONS, resolveKeymap } from '../lib/keymap';
import { useSession } from '../stores/session';
import { useTrading } from '../stores/trading';
import { TicketPanel } from '../features/ticket/TicketPanel';
import { useTradingCommands } from '../features/ticket/useTradingCommands';
import { useGlobalHotkeys } from '../features/keyboard/useGlobalHotkeys';

let fake: FakeTerminal;
const T = 'KXTEST-26DEC31-T1';

function Keys() {
  useGlobalHotkeys();
  useTradingCommands();
  return null;
}

beforeAll(() => {
  stubLayout();
  // jsdom lays nothing out: the ticket counts as shown (a key never submits a ticket out of view)
  Object.defineProperty(HTMLElement.prototype, 'offsetParent', { configurable: true, get: () => document.body });
  HTMLElement.prototype.getClientRects = function () {
    return [this.getBoundingClientRect()] as unknown as DOMRectList;
  };
  fake = installFakeTerminal();
});
beforeEach(() => {
  clearFakeCalls(fake);
  fake.api.placeLocalOrders.mockResolvedValue({ orders: [], awaitingChoice: false });
  fakeMarket(fake, T, 'Test market');
  fake.reads.getOrderGroups = { order_groups: [] };
  fake.reads.getSubaccountBalances = { subaccount_balances: [] };
  useSession.setState({ keymap: resolveKeymap() });
  useTrading.getState().selectMarket(T);
  useTrading.getState().setDraft({ side: 'ask', price: '0.44', count: '1', tif: 'good_till_canceled', stp: '', orderGroupId: '', subaccount: '', postOnly: false, expiration: '' });
});
afterEach(cleanup);

const form = () => screen.getByRole('form', { name: 'Order ticket' });

async function stopTicket() {
  render(withQueries(<><Keys /><TicketPanel /></>));
  fireEvent.change(within(form()).getByLabelText('Order type'), { target: { value: 'stop' } });
  const button = within(form()).getByRole('button', { name: /^Set stop: sell 1 at last 0\.44/ });
  await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
  return button;
}

function key(target: Element, init: { key: string; code: string; ctrlKey?: boolean; altKey?: boolean; shiftKey?: boolean }) {
  act(() => {
    if (init.ctrlKey) fireEvent.keyDown(target, { key: 'Control', code: 'ControlLeft', ctrlKey: true });
    fireEvent.keyDown(target, init);
    fireEvent.keyUp(target, init);
    if (init.ctrlKey) fireEvent.keyUp(target, { key: 'Control', code: 'ControlLeft' });
  });
}

const armedStop = () => expect.objectContaining({ orders: [expect.objectContaining({ kind: 'stop', side: 'ask', count: '1.00', trigger: '0.4400', source: 'last' })] });

describe('a key sends only what the ticket shows', () => {
  it('Ctrl+Enter with focus in Count arms the stop the button shows; no limit is sent', async () => {
    await stopTicket();
    const count = within(form()).getByLabelText(/^Count/);
    count.focus();
    key(count, { key: 'Enter', code: 'Enter', ctrlKey: true });
    await waitFor(() => expect(fake.api.placeLocalOrders).toHaveBeenCalledTimes(1));
    expect(fake.api.placeLocalOrders).toHaveBeenCalledWith(armedStop());
    expect(fake.api.placeOrder).not.toHaveBeenCalled();
  });

  it('the button arms the same stop', async () => {
    const button = await stopTicket();
    fireEvent.click(button);
    await waitFor(() => expect(fake.api.placeLocalOrders).toHaveBeenCalledTimes(1));
    expect(fake.api.placeLocalOrders).toHaveBeenCalledWith(armedStop());
    expect(fake.api.placeOrder).not.toHaveBeenCalled();
  });

  it('every other key, on the ticket and in its fields, sends nothing to the exchange', async () => {
    await stopTicket();
    const keymap = resolveKeymap();
    const places = [form(), within(form()).getByLabelText(/^Count/), form().querySelector<HTMLInputElement>('input[name="price"]')!];
    for (const place of places) {
      for (const a of ACTIONS) {
        const combo = keymap[a.id];
        if (!combo || a.id === 'ticket.submit' || a.id.startsWith('panel.') || a.id.startsWith('app.') || a.id.startsWith('layout.')) continue;
        const parts = combo.split('+');
        const name = parts.pop()!;
        const code = name === 'equal' ? 'Equal' : name === 'minus' ? 'Minus' : name === 'slash' ? 'Slash' : /^\d$/.test(name) ? `Digit${name}` : `Key${name.toUpperCase()}`;
        const k = name === 'equal' ? '=' : name === 'minus' ? '-' : name === 'slash' ? '/' : name;
        place.focus();
        key(place, { key: k, code, ctrlKey: parts.includes('mod'), altKey: parts.includes('alt'), shiftKey: parts.includes('shift') });
      }
    }
    // let any async send settle
    await act(async () => {
      await new Promise((r) => setTimeout(r, 50));
    });
    expect(fake.api.placeOrder).not.toHaveBeenCalled();
    expect(fake.api.placeLocalOrders).not.toHaveBeenCalled();
    expect(fake.api.placeBracket).not.toHaveBeenCalled();
  });
});
