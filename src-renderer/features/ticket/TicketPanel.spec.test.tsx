// @vitest-environment jsdom
// The order ticket as a trader uses it: what it refuses and says, what it sends (exact wire
// strings, the origin), and what it shows when main's risk gate refuses.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { clearFakeCalls, fakeMarket, installFakeTerminal, stubLayout, withQueries, type FakeTerminal } from '../../test/fake-terminal';
import { useTrading } from '../../stores/trading';
import { TicketPanel } from './TicketPanel';

let fake: FakeTerminal;
const T = 'KXTEST-26DEC31-T1';

beforeAll(() => {
  stubLayout();
  fake = installFakeTerminal();
});
beforeEach(() => {
  clearFakeCalls(fake);
  fakeMarket(fake, T, 'Test market');
  fake.reads.getOrderGroups = { order_groups: [] };
  fake.reads.getSubaccountBalances = { subaccount_balances: [] };
  useTrading.getState().selectMarket(T);
  useTrading.getState().setDraft({ side: 'bid', price: '', count: '', tif: 'good_till_canceled', stp: '', orderGroupId: '', subaccount: '', postOnly: false, expiration: '' });
});
afterEach(cleanup);

const form = () => screen.getByRole('form', { name: 'Order ticket' });
const priceInput = () => within(form()).getByLabelText(/^Price \(YES, \$\)/);
const countInput = () => within(form()).getByLabelText(/^Count \(contracts\)/);
const submitButton = () => within(form()).getByRole('button', { name: /^(Buy|Sell) YES/ });

describe('the order ticket', () => {
  it('refuses a price of 1.00 and says why; nothing is sent', async () => {
    render(withQueries(<TicketPanel />));
    const user = userEvent.setup();
    await user.type(priceInput(), '1.00');
    await user.type(countInput(), '5');
    expect(await within(form()).findByText(/price must be above 0 and below 1 dollar/i)).toBeTruthy();
    expect((submitButton() as HTMLButtonElement).disabled).toBe(true);
    await user.click(submitButton());
    expect(fake.api.placeOrder).not.toHaveBeenCalled();
  });

  it('refuses a count of 0 or letters and digits past the tick; nothing is sent', async () => {
    render(withQueries(<TicketPanel />));
    const user = userEvent.setup();
    await user.type(priceInput(), '0.45');
    await user.type(countInput(), 'abc');
    expect((submitButton() as HTMLButtonElement).disabled).toBe(true);
    await user.clear(countInput());
    await user.type(countInput(), '0');
    expect((submitButton() as HTMLButtonElement).disabled).toBe(true);
    await user.clear(countInput());
    await user.type(countInput(), '5');
    await user.clear(priceInput());
    await user.type(priceInput(), '0.45000000000000000000000000000000000000001');
    expect((submitButton() as HTMLButtonElement).disabled).toBe(true);
    expect(fake.api.placeOrder).not.toHaveBeenCalled();
  });

  it('sends exactly what was typed, in wire form, from the ticket, and shows the ack', async () => {
    fake.api.placeOrder.mockResolvedValueOnce({ client_order_id: 'c1', order_id: 'o-77', fill_count: '0.00', remaining_count: '5.00' });
    render(withQueries(<TicketPanel />));
    const user = userEvent.setup();
    await user.type(priceInput(), '.45');
    await user.type(countInput(), '5');
    await user.click(submitButton());
    expect(fake.api.placeOrder).toHaveBeenCalledTimes(1);
    expect(fake.api.placeOrder).toHaveBeenCalledWith({ ticker: T, side: 'bid', price: '0.4500', count: '5.00', origin: 'ticket' });
    expect(await screen.findByText(/Accepted: order o-77/)).toBeTruthy();
  });

  it("shows main's risk refusal with the limit and the value, and keeps the ticket as it was", async () => {
    fake.api.placeOrder.mockRejectedValueOnce({ kind: 'risk', code: 'max_order_contracts', message: `max contracts per order: 100000 > 1000 (buy 100000 YES ${T} @ 0.4500)` });
    render(withQueries(<TicketPanel />));
    const user = userEvent.setup();
    await user.type(priceInput(), '0.45');
    await user.type(countInput(), '100000');
    await user.click(submitButton());
    const alert = await within(form()).findByRole('alert');
    expect(alert.textContent).toMatch(/Refused by your risk limits/);
    expect(alert.textContent).toMatch(/100000 > 1000/);
    expect((countInput() as HTMLInputElement).value).toBe('100000');
  });

  it('with no market selected, says how to pick one', () => {
    useTrading.getState().selectMarket(null);
    render(withQueries(<TicketPanel />));
    expect(screen.getByText(/No market selected/)).toBeTruthy();
  });
});
