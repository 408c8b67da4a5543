// The trading tools as a trader meets them, on a quiet exchange (no simulated flow, so every
// price move is ours): (a) the tape shows a crossing trade with my fill highlighted; (b) an alert
// on a level fires once with its panel closed; (c) two ladders in different link groups follow
// different markets; (d) a bracket: the entry fills, a stop and a target appear, the target
// fills and the stop is canceled (OCO).
import { expect, type Page } from '@playwright/test';
import { quietTest, type Terminal } from './fixtures';
import { dismissToasts, ladder, marketsTable, openTerminal, panel, realProblems, restAs, selectLivelyMarket, shot, shotOf, showPanel } from './helpers';
import { Decimal } from '../src-shared/money';
import { stepAt, type PriceRange } from '../src-shared/price-ranges';

/** A price as the terminal shows it: two decimals unless the tick needs more. */
const fmt = (p: string) => { const d = new Decimal(p); return d.toFixed(Math.max(2, d.decimalPlaces())); };

const S = 'tools';

const test = quietTest;

/** The YES bids and asks of a market as REST shows them, best first. */
async function bookOf(terminal: Terminal, ticker: string) {
  const b = await restAs(terminal, 'counterparty').getOrderbook({ params: { ticker } });
  const bids = (b.orderbook_fp.yes_dollars ?? []).map(([p, c]) => ({ price: new Decimal(p), count: new Decimal(c) })).sort((x, y) => y.price.comparedTo(x.price));
  const asks = (b.orderbook_fp.no_dollars ?? []).map(([p, c]) => ({ price: new Decimal(1).minus(p), count: new Decimal(c) })).sort((x, y) => x.price.comparedTo(y.price));
  return { bids, asks };
}

const key = (page: Page, combo: string) => page.keyboard.press(combo);

test('(a) the tape shows a crossing trade with my own fill highlighted', async ({ page, terminal, problems }) => {
  await openTerminal(page, terminal);
  const ticker = await selectLivelyMarket(page);
  await expect(page.getByText(`Waiting for the book of ${ticker}`)).toBeHidden();
  await key(page, 'Alt+Backquote');
  const tape = page.locator('[data-panel="tape"]');
  await expect(tape).toBeVisible();
  // buy 1 at the ask from the ladder (size 1 typed there, then Enter; Shift+B crosses)
  await ladder(page).focus();
  await key(page, '1');
  await key(page, 'Enter');
  await key(page, 'Shift+KeyB');
  const mine = tape.locator('tbody tr.own-fill');
  await expect(mine.first()).toBeVisible({ timeout: 15_000 });
  await expect(mine.first()).toContainText('mine');
  await expect(mine.first()).toContainText('▲ buy');
  await dismissToasts(page);
  await shotOf(tape, S, 'a-tape-own-fill');
  expect(realProblems(problems)).toEqual([]);
});

test('(b) an alert on a level fires once, with the Alerts panel closed', async ({ page, terminal, problems }) => {
  await openTerminal(page, terminal);
  const ticker = await selectLivelyMarket(page);
  await expect(page.getByText(`Waiting for the book of ${ticker}`)).toBeHidden();
  const { asks } = await bookOf(terminal, ticker);
  const best = asks[0]!;
  const level = best.price.plus('0.01').toFixed(2);

  await key(page, 'Alt+Shift+KeyA');
  const alerts = page.locator('[data-panel="alerts"]');
  await expect(alerts).toBeVisible();
  await alerts.getByLabel('Alert kind').selectOption('price');
  await expect(alerts.getByLabel('Alert market')).toHaveValue(ticker);
  await alerts.getByLabel('Price source').selectOption('ask');
  await alerts.getByLabel('Direction').selectOption('above');
  await alerts.getByLabel('Level').fill(level);
  await alerts.getByRole('button', { name: 'Add alert' }).click();
  const row = alerts.getByRole('region', { name: /^Alerts/ }).getByRole('row').filter({ hasText: `${ticker} best ask rises to ${level} or above` });
  await expect(row).toContainText('armed');
  await shotOf(alerts, S, 'b-alert-armed');

  // close the panel: main keeps watching
  await page.locator('.dv-tab').filter({ hasText: 'Alerts' }).hover();
  await page.locator('.dv-tab').filter({ hasText: 'Alerts' }).locator('.dv-default-tab-action').click();
  await expect(alerts).toHaveCount(0);

  // the other side takes out the best ask: the ask rises through the level
  await restAs(terminal, 'counterparty').createOrder({ body: { ticker, side: 'bid', price: best.price.toFixed(4), count: best.count.toFixed(2), time_in_force: 'immediate_or_cancel', client_order_id: crypto.randomUUID() } });
  const toast = page.locator('.toast').filter({ hasText: 'Alert:' });
  await expect(toast).toHaveCount(1, { timeout: 15_000 });
  await expect(toast).toContainText(`rises to ${level} or above`);
  await shot(page, S, 'b-alert-fired');
  // and only once: another move beyond the level does not fire it again
  const next = (await bookOf(terminal, ticker)).asks[0];
  if (next) await restAs(terminal, 'counterparty').createOrder({ body: { ticker, side: 'bid', price: next.price.toFixed(4), count: next.count.toFixed(2), time_in_force: 'immediate_or_cancel', client_order_id: crypto.randomUUID() } });
  await page.waitForTimeout(1500);
  await expect(page.locator('.toast').filter({ hasText: 'Alert:' })).toHaveCount(1);

  await key(page, 'Alt+Shift+KeyA');
  const again = page.locator('[data-panel="alerts"]');
  await expect(again.getByRole('region', { name: /^Alerts/ }).getByRole('row').filter({ hasText: `${ticker} best ask rises to ${level} or above` })).toContainText('fired');
  await expect(again.getByRole('region', { name: /Alert history/ }).locator('tbody tr')).toHaveCount(1);
  await dismissToasts(page);
  await shotOf(again, S, 'b-alert-history');
  expect(realProblems(problems)).toEqual([]);
});

test('(c) two ladders in different link groups follow different markets', async ({ page, terminal, problems }) => {
  await openTerminal(page, terminal);
  const first = await selectLivelyMarket(page);
  await expect(ladder(page).first()).toHaveAttribute('aria-label', new RegExp(`^Price ladder for ${first},`));

  // a second ladder (red) and a red markets list
  await key(page, 'Alt+Shift+KeyL');
  const red = page.locator('[data-panel="ladder"][data-link="red"]');
  await expect(red).toBeVisible();
  await expect(red).toContainText('No market selected');
  await key(page, 'Alt+Shift+KeyN');
  const redMarkets = page.locator('[data-panel="markets"][data-link="red"]');
  await expect(redMarkets).toBeVisible();
  const rows = redMarkets.getByRole('region', { name: /^Markets: arrows move/ }).locator('tbody tr');
  await expect(rows.nth(3)).toBeVisible({ timeout: 30_000 });
  const second = (await rows.nth(3).locator('td').nth(1).innerText()).trim();
  expect(second).not.toBe(first);
  await rows.nth(3).click();
  await expect(red.getByRole('grid')).toHaveAttribute('aria-label', new RegExp(`^Price ladder for ${second},`));
  await expect(red.getByText(`Waiting for the book of ${second}`)).toBeHidden();
  // the white ladder still shows the first market
  const white = page.locator('[data-panel="ladder"][data-link="white"]');
  await expect(white.getByRole('grid')).toHaveAttribute('aria-label', new RegExp(`^Price ladder for ${first},`));
  // choosing in the white list drives only white
  await expect(marketsTable(page).first()).toBeVisible();
  await shot(page, S, 'c-two-link-groups');
  await shotOf(red, S, 'c-red-ladder');

  // the event ladders follow white: every open outcome of the first market's event side by side
  await key(page, 'Alt+Shift+KeyV');
  const event = page.locator('[data-panel="eventladders"]');
  await expect(event.getByTestId('event-ladders')).toBeVisible();
  const columns = event.locator('.multi-ladder-col');
  await expect(columns.first()).toBeVisible({ timeout: 15_000 });
  expect(await columns.count()).toBeGreaterThanOrEqual(2);
  await expect(event.getByRole('grid', { name: new RegExp(`^Price ladder for ${first},`) })).toBeVisible();
  await expect(columns.first().getByText(/^Waiting for the book/)).toBeHidden();
  await shotOf(event, S, 'c-event-ladders');
  expect(realProblems(problems)).toEqual([]);
});

test('(d) a bracket: the entry fills, stop and target appear, the target fills, the stop is canceled', async ({ page, terminal, problems }) => {
  await openTerminal(page, terminal);
  const ticker = await selectLivelyMarket(page);
  await expect(page.getByText(`Waiting for the book of ${ticker}`)).toBeHidden();
  const { asks } = await bookOf(terminal, ticker);
  const entry = asks[0]!.price;

  const ticket = await showPanel(page, 'ticket');
  await ticket.getByLabel('Order type').selectOption('bracket');
  await ticket.getByLabel('Price (YES, $)').fill(entry.toFixed(2));
  await ticket.getByLabel('Count (contracts)').fill('1');
  await ticket.getByLabel('Target ticks').fill('3');
  await ticket.getByLabel('Stop ticks').fill('3');
  await ticket.getByLabel('Ticks through').fill('1');
  await shotOf(ticket, S, 'd-ticket-bracket');
  await ticket.getByRole('button', { name: /\+ bracket/ }).click();

  const orders = await showPanel(page, 'orders');
  await orders.getByRole('tab', { name: /^Local/ }).click();
  const local = orders.getByRole('region', { name: /^Local orders/ });
  const targetRow = local.locator('tbody tr').filter({ hasText: 'Bracket target' });
  const stopRow = local.locator('tbody tr').filter({ hasText: 'Stop' }).filter({ hasNotText: 'Bracket target' });
  await expect(targetRow).toContainText('sent', { timeout: 15_000 });
  await expect(stopRow).toContainText('armed');
  const m = await restAs(terminal, 'counterparty').getMarket({ params: { ticker } });
  const step = stepAt(entry, (m.market.price_ranges ?? []) as PriceRange[]);
  const targetPrice = entry.plus(step.mul(3)).toFixed(4);
  await expect(ticket.getByText(`target ${fmt(targetPrice)}`)).toBeVisible();
  await expect(targetRow).toContainText(fmt(targetPrice));
  await expect(ladder(page).locator('.ladder-local')).toContainText('STP 1');
  await expect(orders.getByText(/fire only while it runs and is connected/)).toBeVisible();
  await dismissToasts(page);
  await shot(page, S, 'd-bracket-armed');

  // the other side lifts every ask up to the target, ours included
  const book = await bookOf(terminal, ticker);
  const upTo = book.asks.filter((a) => a.price.lte(targetPrice)).reduce((s, a) => s.plus(a.count), new Decimal(0));
  await restAs(terminal, 'counterparty').createOrder({ body: { ticker, side: 'bid', price: new Decimal(targetPrice).toFixed(4), count: upTo.toFixed(2), time_in_force: 'immediate_or_cancel', client_order_id: crypto.randomUUID() } });
  await expect(targetRow).toContainText('filled', { timeout: 15_000 });
  await expect(stopRow).toContainText('canceled');
  await expect(ladder(page).locator('.ladder-local')).toHaveCount(0);
  await dismissToasts(page);
  await shotOf(panel(page, 'orders'), S, 'd-bracket-done');
  expect(realProblems(problems)).toEqual([]);
});
