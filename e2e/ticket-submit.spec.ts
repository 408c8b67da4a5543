// Every way to submit the order ticket does exactly what its button says (issue 24, defect 1).
// On a quiet exchange (no simulated flow, so nothing fires or fills unless we make it): each
// local order type, sent by Ctrl+Enter with focus in Count, Enter in a field, the palette and
// the button, becomes a local order held by the terminal, and never a plain limit at the
// exchange; the exchange sees only what the ticket showed (the bracket's entry).
import { expect, type Locator, type Page } from '@playwright/test';
import { quietTest, type Terminal } from './fixtures';
import { dismissToasts, openTerminal, panel, realProblems, restAs, selectLivelyMarket, shotOf, showPanel } from './helpers';
import { Decimal } from '../src-shared/money';

const S = 'ticket-submit';

const test = quietTest;

/** The trader's orders and fills in a market, as the exchange has them. */
async function atExchange(terminal: Terminal, ticker: string): Promise<{ orders: { side: string; price: string }[]; fills: number }> {
  const trader = restAs(terminal, 'trader');
  const orders = (await trader.getOrders({ query: { ticker } })).orders.map((o) => ({ side: String(o.book_side), price: new Decimal(String(o.yes_price_dollars ?? '0')).toFixed(2) }));
  const fills = (await trader.getFills({ query: { ticker } })).fills.length;
  return { orders, fills };
}

/** Live local orders, read off the Orders panel's Local tab label ("Local (3)"). */
async function localCount(page: Page): Promise<number> {
  const tab = panel(page, 'orders').getByRole('tab', { name: /^Local/ });
  const m = /\((\d+)\)/.exec(await tab.innerText());
  return m ? Number(m[1]) : 0;
}

async function fillTicket(ticket: Locator, o: { mode: string; side: 'Buy' | 'Sell'; price: string; count: string }) {
  await ticket.getByLabel('Order type').selectOption({ label: o.mode });
  await ticket.getByRole('button', { name: o.side === 'Buy' ? /Buy YES \(bid\)/ : /Sell YES \(ask\)/ }).click();
  await ticket.locator('input[name="price"]').fill(o.price);
  await ticket.getByLabel('Count (contracts)').fill(o.count);
}

test('the ticket: Ctrl+Enter, Enter, the palette and the button each send exactly what the button says', async ({ page, terminal, problems }) => {
  await openTerminal(page, terminal);
  const ticker = await selectLivelyMarket(page);
  await expect(page.getByText(`Waiting for the book of ${ticker}`)).toBeHidden();
  const book = await restAs(terminal, 'counterparty').getOrderbook({ params: { ticker } });
  const bid = (book.orderbook_fp.yes_dollars ?? []).map(([p]) => new Decimal(p)).sort((a, b) => b.comparedTo(a))[0]!;
  const below = (n: number) => bid.minus(new Decimal('0.01').mul(n)).toFixed(2);
  const above = (n: number) => bid.plus(new Decimal('0.01').mul(n)).toFixed(2);

  const ticket = await showPanel(page, 'ticket');
  const submit = ticket.locator('button[type="submit"]');
  let expected = 0;
  const expectLocal = async () => {
    expected += 1;
    await expect.poll(() => localCount(page), { message: 'a local order is held by the terminal' }).toBe(expected);
    await expect(submit).toBeEnabled();
  };

  // Stop (local), sell, trigger below the bid: by Ctrl+Enter with focus in Count
  await fillTicket(ticket, { mode: 'Stop (local)', side: 'Sell', price: below(5), count: '1' });
  await expect(submit).toContainText(`Set stop: sell 1 at last ${below(5)}`);
  await shotOf(ticket, S, '01-stop-ticket');
  await ticket.getByLabel('Count (contracts)').focus();
  await page.keyboard.press('ControlOrMeta+Enter');
  await expectLocal();
  expect(await atExchange(terminal, ticker)).toEqual({ orders: [], fills: 0 });

  // by Enter in the price field
  await ticket.locator('input[name="price"]').fill(below(6));
  await ticket.locator('input[name="price"]').focus();
  await page.keyboard.press('Enter');
  await expectLocal();

  // by the palette
  await ticket.locator('input[name="price"]').fill(below(7));
  await page.keyboard.press('ControlOrMeta+KeyK');
  await page.getByRole('dialog', { name: /Command palette/ }).getByRole('combobox').fill('submit the order ticket');
  // a trading entry is never the palette's own pick: the trader moves onto it, then Enter
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('dialog', { name: /Command palette/ }).locator('[cmdk-item][aria-selected="true"]')).toContainText('Submit the order ticket');
  await page.keyboard.press('Enter');
  await expectLocal();

  // by Ctrl+Enter with focus outside any field (the ticket panel shown)
  await ticket.locator('input[name="price"]').fill(below(8));
  await ticket.getByRole('button', { name: /Sell YES \(ask\)/ }).focus();
  await page.keyboard.press('ControlOrMeta+Enter');
  await expectLocal();

  // by the button
  await ticket.locator('input[name="price"]').fill(below(9));
  await submit.click();
  await expectLocal();
  expect(await atExchange(terminal, ticker)).toEqual({ orders: [], fills: 0 });

  // Take profit (local), sell, trigger above the bid
  await fillTicket(ticket, { mode: 'Take profit (local)', side: 'Sell', price: above(20), count: '1' });
  await expect(submit).toContainText(`Set take profit: sell 1 at last ${above(20)}`);
  await ticket.getByLabel('Count (contracts)').focus();
  await page.keyboard.press('ControlOrMeta+Enter');
  await expectLocal();

  // Trailing stop (local)
  await fillTicket(ticket, { mode: 'Trailing stop (local)', side: 'Sell', price: '', count: '1' });
  await expect(submit).toContainText('Set trailing stop: sell 1');
  await ticket.getByLabel('Count (contracts)').focus();
  await page.keyboard.press('ControlOrMeta+Enter');
  await expectLocal();
  expect(await atExchange(terminal, ticker)).toEqual({ orders: [], fills: 0 });

  // Limit + bracket: the entry (and only it) goes to the exchange, its bracket is held here
  const entry = below(10);
  await fillTicket(ticket, { mode: 'Limit + bracket (local)', side: 'Buy', price: entry, count: '1' });
  await expect(submit).toContainText(`Buy YES 1 @ ${entry} + bracket`);
  await ticket.getByLabel('Count (contracts)').focus();
  await page.keyboard.press('ControlOrMeta+Enter');
  await expect.poll(async () => (await atExchange(terminal, ticker)).orders).toEqual([{ side: 'bid', price: entry }]);
  await expect.poll(() => localCount(page), { message: 'the bracket is held by the terminal' }).toBeGreaterThan(expected);
  await dismissToasts(page);
  await shotOf(panel(page, 'orders'), S, '02-local-orders');
  expect((await atExchange(terminal, ticker)).fills).toBe(0);
  expect(realProblems(problems)).toEqual([]);
});
