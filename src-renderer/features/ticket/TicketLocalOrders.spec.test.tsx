// @vitest-environment jsdom
// The ticket's local order types as a trader uses them: each mode shows its own fields, refuses
// what is out of range, and sends exactly the local order (or bracket) typed to main; a
// confirmable refusal from main's risk gate is asked about and sent again with `confirmed`.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeMarket, installFakeTerminal, stubLayout, withQueries, type FakeTerminal } from '../../test/fake-terminal';
import { useTrading } from '../../stores/trading';
import { ConfirmHost } from '../../ui/confirm';
import { TicketPanel } from './TicketPanel';

let fake: FakeTerminal;
const T = 'KXLOC-26DEC31-T1';
const LOCAL_VIEW = { orders: [], history: [] };

beforeAll(() => {
  stubLayout();
  fake = installFakeTerminal();
});
beforeEach(() => {
  for (const m of Object.values(fake.api)) if (typeof m === 'function' && 'mockReset' in m && m !== fake.api.request) m.mockReset();
  fake.api.placeLocalOrders.mockResolvedValue(LOCAL_VIEW);
  fake.api.placeBracket.mockResolvedValue(LOCAL_VIEW);
  fakeMarket(fake, T, 'Local market');
  fake.reads.getOrderGroups = { order_groups: [] };
  fake.reads.getSubaccountBalances = { subaccount_balances: [] };
  useTrading.getState().selectMarket(T);
  useTrading.getState().setDraft({ side: 'bid', price: '', count: '', tif: 'good_till_canceled', stp: '', orderGroupId: '', subaccount: '', postOnly: false, expiration: '' });
});
afterEach(cleanup);

const form = () => screen.getByRole('form', { name: 'Order ticket' });
const field = (name: string) => within(form()).getByRole('textbox', { name }) as HTMLInputElement;
const submit = () => within(form()).getByRole('button', { name: /Ctrl\+Enter$/ }) as HTMLButtonElement;

async function chooseMode(label: string) {
  const user = userEvent.setup();
  await user.selectOptions(within(form()).getByRole('combobox', { name: 'Order type' }), label);
  return user;
}

describe('the ticket: local order types', () => {
  it('a stop shows its trigger and source, and sends the local stop typed', async () => {
    render(withQueries(<TicketPanel />));
    const user = await chooseMode('stop');
    await user.selectOptions(within(form()).getByRole('combobox', { name: 'Trigger source' }), 'bid');
    await user.type(within(form()).getByLabelText(/^Trigger \(YES, \$\)/), '0.40');
    await user.type(within(form()).getByLabelText(/^Count \(contracts\)/), '3');
    await user.clear(field('Ticks through'));
    await user.type(field('Ticks through'), '4');
    expect(submit().textContent).toContain('Set stop: buy 3 at bid 0.40');
    await user.click(submit());
    await waitFor(() => expect(fake.api.placeLocalOrders).toHaveBeenCalledTimes(1));
    expect(fake.api.placeLocalOrders).toHaveBeenCalledWith({
      orders: [{ kind: 'stop', ticker: T, side: 'bid', count: '3.00', trigger: '0.4000', source: 'bid', limit: { kind: 'through', ticks: 4 } }],
      oco: false,
    });
    expect(fake.api.placeOrder).not.toHaveBeenCalled();
  });

  it('a trailing stop needs no price and sends its trail', async () => {
    render(withQueries(<TicketPanel />));
    const user = await chooseMode('trailing_stop');
    expect(within(form()).getByLabelText(/^Price \(not used\)/)).toBeTruthy();
    await user.type(within(form()).getByLabelText(/^Count \(contracts\)/), '2');
    await user.clear(field('Trail ticks'));
    await user.type(field('Trail ticks'), '7');
    await user.click(within(form()).getByRole('button', { name: /Sell YES \(ask\)/ }));
    expect(submit().textContent).toContain('Set trailing stop: sell 2');
    await user.click(submit());
    await waitFor(() => expect(fake.api.placeLocalOrders).toHaveBeenCalledTimes(1));
    expect(fake.api.placeLocalOrders).toHaveBeenCalledWith({
      orders: [{ kind: 'trailing_stop', ticker: T, side: 'ask', count: '2.00', trailTicks: 7, source: 'last', limit: { kind: 'through', ticks: 2 } }],
      oco: false,
    });
  });

  it('a bracket shows where its legs land and sends the entry with both legs', async () => {
    render(withQueries(<TicketPanel />));
    const user = await chooseMode('bracket');
    await user.type(within(form()).getByLabelText(/^Price \(YES, \$\)/), '0.45');
    await user.type(within(form()).getByLabelText(/^Count \(contracts\)/), '5');
    await user.clear(field('Target ticks'));
    await user.type(field('Target ticks'), '10');
    await user.clear(field('Stop ticks'));
    await user.type(field('Stop ticks'), '3');
    expect(within(form()).getByText('target 0.55')).toBeTruthy();
    expect(within(form()).getByText('stop 0.42')).toBeTruthy();
    expect(submit().textContent).toContain('Buy YES 5 @ 0.45 + bracket');
    await user.click(submit());
    await waitFor(() => expect(fake.api.placeBracket).toHaveBeenCalledTimes(1));
    expect(fake.api.placeBracket).toHaveBeenCalledWith({ ticker: T, side: 'bid', price: '0.4500', count: '5.00', targetTicks: 10, stopTicks: 3, stopThroughTicks: 2, stopSource: 'last' });
  });

  it('refuses ticks through past 100 and says the range; nothing is sent', async () => {
    render(withQueries(<TicketPanel />));
    const user = await chooseMode('take_profit');
    await user.type(within(form()).getByLabelText(/^Trigger \(YES, \$\)/), '0.60');
    await user.type(within(form()).getByLabelText(/^Count \(contracts\)/), '1');
    await user.clear(field('Ticks through'));
    await user.type(field('Ticks through'), '150');
    expect(within(form()).getByText('0 to 100 ticks')).toBeTruthy();
    expect(submit().disabled).toBe(true);
    expect(submit().textContent).toContain('Take profit (local)');
    await user.click(submit());
    expect(fake.api.placeLocalOrders).not.toHaveBeenCalled();
  });

  it("asks when main's risk gate wants a confirmation, and sends once more with confirmed", async () => {
    fake.api.placeLocalOrders.mockRejectedValueOnce(Object.assign(new Error('over the confirm threshold of 500 contracts'), { kind: 'risk', code: 'confirm_required', confirmable: true }));
    render(withQueries(
      <>
        <ConfirmHost />
        <TicketPanel />
      </>,
    ));
    const user = await chooseMode('stop');
    await user.type(within(form()).getByLabelText(/^Trigger \(YES, \$\)/), '0.40');
    await user.type(within(form()).getByLabelText(/^Count \(contracts\)/), '600');
    await user.click(submit());
    await user.click(await screen.findByRole('button', { name: 'Send anyway' }));
    await waitFor(() => expect(fake.api.placeLocalOrders).toHaveBeenCalledTimes(2));
    const [first, second] = fake.api.placeLocalOrders.mock.calls.map(([i]) => i as { confirmed?: boolean });
    expect(first!.confirmed).toBeUndefined();
    expect(second!.confirmed).toBe(true);
  });
});
