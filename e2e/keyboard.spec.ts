// Keyboard safety as a trader's hands meet it (issue 24): the palette ranks by match and never
// preselects a harmful action on a partial match; trading keys do what the help says in and out
// of the ticket's fields; a dangerous confirmation focuses the safe choice; a panic cancel does
// not ask by default.
import { expect, type Page } from '@playwright/test';
import { quietTest } from './fixtures';
import { ladder, marketsTable, openTerminal, orderRow, panel, realProblems, restAs, selectLivelyMarket, shot, shotOf, showPanel } from './helpers';
import { Decimal } from '../src-shared/money';

const S = 'keyboard';

const test = quietTest;

const palette = (page: Page) => page.getByRole('dialog', { name: /Command palette/ });

async function searchPalette(page: Page, text: string) {
  await page.keyboard.press('ControlOrMeta+KeyK');
  await expect(palette(page)).toBeVisible();
  await palette(page).getByRole('combobox').fill(text);
}

test('palette: ranked by match, a harmful action never preselected on a partial match', async ({ page, terminal, problems }) => {
  await openTerminal(page, terminal);
  await selectLivelyMarket(page);
  // (layout, at the spec's 1600 px) the markets list shows its Last column whole
  const list = marketsTable(page);
  const [box, last] = await Promise.all([list.boundingBox(), list.locator('thead th').filter({ hasText: /^Last/ }).boundingBox()]);
  expect(last!.x + last!.width, 'the Last column is cut off').toBeLessThanOrEqual(box!.x + box!.width);
  const options = palette(page).getByRole('option');
  const selected = palette(page).locator('[cmdk-item][aria-selected="true"]');

  await searchPalette(page, 'time');
  await expect(options.first()).toContainText(/time & sales/i);
  await expect(selected).toContainText(/time & sales/i);
  await shot(page, S, '01-palette-time');
  await page.keyboard.press('Enter');
  await expect(palette(page)).toBeHidden();
  await expect(page.locator('[data-panel="tape"]')).toBeVisible();

  // a few letters of a harmful action: nothing harmful is preselected, Enter does no harm
  await searchPalette(page, 'flat');
  await expect(options.filter({ hasText: 'Flatten my position' })).toHaveCount(1);
  await expect(selected.filter({ hasText: 'Flatten my position' })).toHaveCount(0);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Flatten position?' })).toHaveCount(0);
  await expect(page.getByText('No position in')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(palette(page)).toBeHidden();

  // named outright, it ranks first but is still not the palette's pick (issue 33): the trader
  // moves onto it (Home, the arrows) to choose it
  await searchPalette(page, 'flatten');
  await expect(options.first()).toContainText('Flatten my position');
  await expect(selected.filter({ hasText: 'Flatten my position' })).toHaveCount(0);
  await page.keyboard.press('Home');
  await expect(selected).toContainText('Flatten my position');
  await page.keyboard.press('Escape');
  expect(realProblems(problems)).toEqual([]);
});

test('palette: Ctrl+K then Enter on a fresh terminal sends nothing (issue 33, reproduction 1)', async ({ page, terminal, problems }) => {
  await openTerminal(page, terminal);
  const ticker = await selectLivelyMarket(page);
  // the first thing after start: the palette opens with nothing selected, Enter trades nothing
  await page.keyboard.press('ControlOrMeta+KeyK');
  await expect(palette(page)).toBeVisible();
  await expect(palette(page).locator('[cmdk-item][aria-selected="true"]')).toHaveCount(0);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
  await expect(palette(page)).toBeHidden();
  // then a deliberate order on the other side (S on the ladder joins the offer): once it is at the
  // exchange, anything Enter sent before it is too; the exchange holds that one order only
  const trader = restAs(terminal, 'trader');
  const atExchange = async () => (await trader.getOrders({ query: { ticker } })).orders.map((o) => String(o.book_side));
  await ladder(page).focus();
  await page.keyboard.press('KeyS');
  await expect.poll(async () => (await atExchange()).length, { timeout: 20_000 }).toBeGreaterThan(0);
  expect(await atExchange(), 'Ctrl+K, Enter sent an order').toEqual(['ask']);
  expect(realProblems(problems)).toEqual([]);
});

test('trading keys in and out of the ticket fields: each does what the help says, never types junk', async ({ page, terminal, problems }) => {
  await openTerminal(page, terminal);
  const ticker = await selectLivelyMarket(page);
  await expect(page.getByText(`Waiting for the book of ${ticker}`)).toBeHidden();
  const ticket = panel(page, 'ticket');
  const price = ticket.locator('input[name="price"]');
  const count = ticket.getByLabel('Count (contracts)');
  const focusedField = () => page.evaluate(() => (document.activeElement instanceof HTMLInputElement ? document.activeElement.name || document.activeElement.getAttribute('aria-label') || 'input' : null));

  // Alt+3 shows the ticket and focuses it, not a field: = - and the size keys act, nothing is typed
  await page.keyboard.press('Alt+Digit3');
  await expect(ticket).toBeVisible();
  await expect.poll(focusedField).toBeNull();
  await page.keyboard.press('Equal');
  await expect(price).toHaveValue(/^0\.\d+$/);
  const first = await price.inputValue();
  // one tick of the market up, then back (the tick is the market's: see price-step)
  await page.keyboard.press('Equal');
  await expect(price).not.toHaveValue(first);
  const up = await price.inputValue();
  const tick = new Decimal(up).minus(first);
  expect(tick.gt(0) && tick.lte('0.01'), `one tick up from ${first} gave ${up}`).toBe(true);
  await page.keyboard.press('Minus');
  await expect(price).toHaveValue(first);
  await page.keyboard.press('Digit3');
  await expect(count).toHaveValue('10');
  expect(await focusedField()).toBeNull();

  // in the price field: = and - step the price like the arrows, digits type
  await page.keyboard.press('KeyP');
  await expect.poll(focusedField).toBe('price');
  await page.keyboard.press('Equal');
  await expect(price).toHaveValue(up);
  await page.keyboard.press('Minus');
  await expect(price).toHaveValue(first);
  await page.keyboard.press('Minus');
  await expect(price).toHaveValue(/^0\.\d+$/);
  expect(new Decimal(first).minus(await price.inputValue()).gt(0)).toBe(true);
  await price.fill('');
  await page.keyboard.type('0.42');
  await expect(price).toHaveValue('0.42');

  // letters are never typed into a price, and their trading actions do not fire from a field
  await page.keyboard.press('KeyQ');
  await page.keyboard.press('KeyB');
  await expect(price).toHaveValue('0.42');
  expect(await focusedField()).toBe('price');

  // in the count field: digits type a quantity (not the size presets), = and - do nothing
  await count.focus();
  await count.fill('');
  await page.keyboard.type('4');
  await page.keyboard.press('Equal');
  await page.keyboard.press('Minus');
  await expect(count).toHaveValue('4');
  await expect(price).toHaveValue('0.42');

  // the help says so
  await page.keyboard.press('Escape');
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Shift+Slash');
  const help = page.getByRole('dialog', { name: 'Keyboard' });
  await expect(help.getByRole('row', { name: /Step the price one tick of the market/ })).toBeVisible();
  await expect(help.getByRole('row', { name: /Type the count/ })).toBeVisible();
  await shotOf(help, S, '02-help');
  await page.keyboard.press('Escape');
  expect(realProblems(problems)).toEqual([]);
});

test('confirmations: the kill-switch release focuses Keep; Shift+X cancels at once, in words that count', async ({ page, terminal, problems }) => {
  await openTerminal(page, terminal);
  const ticker = await selectLivelyMarket(page);
  await expect(page.getByText(`Waiting for the book of ${ticker}`)).toBeHidden();
  await showPanel(page, 'orders');
  const status = page.getByRole('contentinfo', { name: 'Status' });

  // one resting order, then Shift+X: canceled with no question, "1 order"
  await ladder(page).focus();
  await page.keyboard.press('c');
  await page.keyboard.press('1');
  await page.keyboard.press('Enter'); // in the ladder digits type the size; Enter sets it
  await page.keyboard.press('b');
  await expect(orderRow(page, ticker)).toHaveCount(1);
  await ladder(page).focus();
  await page.keyboard.press('Shift+KeyX');
  await expect(orderRow(page, ticker)).toHaveCount(0);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.locator('.toast').filter({ hasText: `Canceled 1 order in ${ticker}` })).toHaveCount(1);

  // the kill switch: the release question focuses Keep, so Enter keeps it engaged
  await page.keyboard.press('ControlOrMeta+Shift+KeyK');
  await expect(status).toContainText('KILL SWITCH ON');
  await status.getByRole('button', { name: 'Release…' }).click();
  const ask = page.getByRole('dialog', { name: 'Release the kill switch?' });
  await expect(ask.getByRole('button', { name: 'Keep' })).toBeFocused();
  await shotOf(ask, S, '03-release-focuses-keep');
  await page.keyboard.press('Enter');
  await expect(ask).toBeHidden();
  await expect(status).toContainText('KILL SWITCH ON');
  expect(realProblems(problems)).toEqual([]);
});

test('layout: five new linked panels open in view without squeezing the ladder', async ({ page, terminal, problems }) => {
  await openTerminal(page, terminal);
  await selectLivelyMarket(page);
  const ladderPanel = page.locator('[data-panel="ladder"]').first();
  const before = (await ladderPanel.boundingBox())!.width;
  // the first of its kind takes white (the tape is not in the default layout), the next red
  for (const [combo, id, link] of [['Alt+Shift+KeyL', 'ladder', 'red'], ['Alt+Shift+KeyG', 'chart', 'red'], ['Alt+Shift+KeyW', 'tape', 'white'], ['Alt+Shift+KeyO', 'ticket', 'red'], ['Alt+Shift+KeyN', 'markets', 'red']] as const) {
    await page.keyboard.press(combo);
    await expect(page.locator(`[data-panel="${id}"][data-link="${link}"]`)).toBeVisible();
  }
  await shot(page, S, '04-five-linked-panels');
  const after = (await ladderPanel.boundingBox())!.width;
  expect(after, `the ladder went from ${before} px to ${after} px`).toBeGreaterThanOrEqual(Math.min(before, 260));
  expect(realProblems(problems)).toEqual([]);
});

test('layout: the alerts list is readable in its default place, Silence in view', async ({ page, terminal, problems }) => {
  await openTerminal(page, terminal);
  const ticker = await selectLivelyMarket(page);
  await page.keyboard.press('Alt+Shift+KeyA');
  const alerts = page.locator('[data-panel="alerts"]');
  await expect(alerts).toBeVisible();
  await alerts.getByLabel('Alert kind').selectOption('price');
  await expect(alerts.getByLabel('Alert market')).toHaveValue(ticker);
  for (const level of ['0.97', '0.98', '0.99']) {
    await alerts.getByLabel('Level').fill(level);
    await alerts.getByRole('button', { name: 'Add alert' }).click();
    await expect(alerts.getByRole('region', { name: /^Alerts/ }).locator('tbody tr').filter({ hasText: level })).toHaveCount(1);
  }
  const list = alerts.getByRole('region', { name: /^Alerts/ });
  const box = (await list.boundingBox())!;
  const rows = list.locator('tbody tr');
  for (let i = 0; i < 3; i++) {
    const r = (await rows.nth(i).boundingBox())!;
    expect(r.y + r.height, `alert row ${i + 1} is cut off`).toBeLessThanOrEqual(box.y + box.height + 1);
    const silence = (await rows.nth(i).getByRole('button', { name: 'Silence' }).boundingBox())!;
    expect(silence.x + silence.width, 'Silence is cut off').toBeLessThanOrEqual(box.x + box.width);
  }
  await shotOf(alerts, S, '05-alerts-list');
  expect(realProblems(problems)).toEqual([]);
});
