// The terminal's FIX route as a trader meets it, in real Chromium through the web host: the FIX
// panel opened by its key turns order entry over FIX (and the drop copy) on by keyboard, the
// status bar says FIX is up, an order placed by the ladder's keys rests and one that crosses
// fills, the exchange has both, and the audit journal says each went over FIX.
import { test, expect } from './fixtures';
import { ladder, openTerminal, panel, realProblems, restAs, restAtBid, selectLivelyMarket, setLadderSize, shotOf, showPanel } from './helpers';

const S = 'fix-route';

test('fix: turn the route on by keyboard, an order rests and one fills over FIX, the audit says FIX', async ({ page, terminal, problems }) => {
  await openTerminal(page, terminal);
  const ticker = await selectLivelyMarket(page);
  await expect(ladder(page)).toBeVisible();
  await expect(page.getByText(`Waiting for the book of ${ticker}`)).toBeHidden();
  const status = page.getByRole('contentinfo', { name: 'Status' });

  // the FIX panel by its key (Alt+Shift+X); the settings by keyboard only
  await page.keyboard.press('Alt+Shift+KeyX');
  const fix = page.locator('[data-panel="fix"]');
  await expect(fix).toBeVisible();
  await expect(fix.getByRole('status', { name: 'Order entry session' })).toContainText('off');
  const route = fix.getByLabel('Route order entry over FIX (REST when the session is down)');
  await route.focus();
  await page.keyboard.press('Space');
  await expect(route).toBeChecked();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Space'); // the drop copy too
  await expect(fix.getByLabel(/^Drop copy: compare/)).toBeChecked();
  await page.keyboard.press('Tab');
  await expect(fix.getByRole('button', { name: 'Save FIX settings' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(fix.getByRole('status', { name: 'Order entry session' })).toContainText('logged on', { timeout: 30_000 });
  await expect(fix.getByRole('status', { name: 'Drop copy session' })).toContainText('logged on', { timeout: 30_000 });
  await expect(status.getByRole('status', { name: 'FIX' })).toContainText('FIX up');
  await expect(fix.getByText(/No disagreement|Not compared yet/)).toBeVisible();
  await shotOf(fix, S, '01-fix-on');

  // an order that rests: size 1 typed on the ladder (digits, then Enter), B joins the bid (the
  // blotter shown beside the ladder)
  await showPanel(page, 'orders');
  await setLadderSize(page, 1);
  const bids = await restAtBid(page, ticker);

  // one that fills: Shift+B buys at the ask
  const trader = restAs(terminal, 'trader');
  const fillsBefore = (await trader.getFills({ query: { ticker } })).fills.length;
  await ladder(page).focus();
  await page.keyboard.press('Shift+KeyB');
  await expect.poll(async () => (await trader.getFills({ query: { ticker } })).fills.length, { timeout: 30_000 }).toBeGreaterThan(fillsBefore);

  // the exchange has every one, the bids and the buy at the ask (the lively sim may fill a bid: any status)
  expect((await trader.getOrders({ query: { ticker } })).orders.length).toBeGreaterThanOrEqual(bids + 1);

  // the audit journal: every place went over FIX
  const risk = await showPanel(page, 'risk');
  await risk.getByRole('tab', { name: 'Audit journal' }).click();
  const journal = risk.getByRole('region', { name: /^Order audit journal/ });
  await expect(journal.locator('tbody tr').filter({ hasText: /via FIX: order / })).toHaveCount(bids + 1, { timeout: 15_000 });
  await expect(journal.locator('tbody tr').filter({ hasText: 'via REST' })).toHaveCount(0);
  await shotOf(panel(page, 'risk'), S, '02-audit-says-fix');

  // the drop copy agrees with the terminal (its own word on the two orders)
  await page.keyboard.press('Alt+Shift+KeyX');
  await expect(fix.getByText(/No disagreement: [1-9]\d* order\(s\) reported by the drop copy match/)).toBeVisible({ timeout: 30_000 });
  await expect(status.getByRole('status', { name: 'FIX' })).toContainText('DC agrees');
  await shotOf(fix, S, '03-drop-copy-agrees');

  expect(realProblems(problems)).toEqual([]);
});
