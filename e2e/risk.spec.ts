// Trading safety as a trader meets it: a fat-finger order is refused with a clear message and
// never reaches the book; the kill switch, engaged by its hotkey, empties the ladder and the
// blotter and refuses new orders; releasing asks first; trading resumes; the audit journal
// shows all of it. On the web host the release also needs the one-time code the host printed on
// its console (out of band: the page alone cannot release it); the spec reads it from the logs.
import { test, expect } from './fixtures';
import { consoleCode, ladder, openTerminal, orderRow, panel, realProblems, restAtBid, selectLivelyMarket, setLadderSize, shot, shotOf, showPanel } from './helpers';

const S = 'risk';

test('risk: fat finger refused, kill switch by hotkey, release with confirmation, trading again, all in the journal', async ({ page, terminal, problems }) => {
  await openTerminal(page, terminal);
  const ticker = await selectLivelyMarket(page);
  await expect(ladder(page)).toBeVisible();
  await expect(page.getByText(`Waiting for the book of ${ticker}`)).toBeHidden();
  const status = page.getByRole('contentinfo', { name: 'Status' });
  await expect(status.getByRole('button', { name: 'Kill switch' })).toBeVisible();

  // a fat finger: 100,000 contracts from the ticket
  const ticket = await showPanel(page, 'ticket');
  await ticket.getByRole('button', { name: 'at bid' }).click();
  await ticket.getByLabel('Count (contracts)').fill('100000');
  await page.keyboard.press('ControlOrMeta+Enter');
  const refused = page.getByRole('alert').filter({ hasText: /refused/ }).first();
  await expect(refused).toContainText('Refused by your risk limits');
  await expect(refused).toContainText(/100000 > 1000/);
  await expect(refused).toContainText('max_order_contracts');
  await shot(page, S, '01-fat-finger-refused');
  const orders = await showPanel(page, 'orders');
  await expect(orders.getByText('No resting orders.')).toBeVisible();

  // a normal order rests: size 1 typed on the ladder (digits, then Enter), B joins the bid
  await setLadderSize(page, 1);
  await restAtBid(page, ticker);

  // the kill switch by its hotkey: everything canceled, the status bar says so
  await page.keyboard.press('ControlOrMeta+Shift+KeyK');
  await expect(status).toContainText('KILL SWITCH ON');
  await expect(orderRow(page, ticker)).toHaveCount(0);
  await expect(orders.getByText('No resting orders.')).toBeVisible();
  await expect(ladder(page).locator('[data-cell="mybid"] .mine')).toHaveCount(0);
  await shot(page, S, '02-kill-switch-engaged');

  // new orders are refused while it is engaged, from the keys and from the ticket
  await ladder(page).focus();
  await page.keyboard.press('b');
  await expect(page.getByRole('alert').filter({ hasText: /kill switch is engaged/ }).first()).toBeVisible();
  await page.waitForTimeout(500);
  await expect(orderRow(page, ticker)).toHaveCount(0);

  // releasing asks first; keeping it engaged changes nothing
  await status.getByRole('button', { name: 'Release…' }).click();
  const ask = page.getByRole('dialog', { name: 'Release the kill switch?' });
  await expect(ask).toBeVisible();
  await shot(page, S, '03-release-asks');
  await ask.getByRole('button', { name: 'Keep' }).click();
  await expect(status).toContainText('KILL SWITCH ON');
  await status.getByRole('button', { name: 'Release…' }).click();
  const printedBefore = terminal.logs.length;
  await page.getByRole('dialog', { name: 'Release the kill switch?' }).getByRole('button', { name: 'Release' }).click();
  const askCode = page.getByRole('dialog', { name: 'Code from the console' });
  await expect(askCode).toContainText('printed on the console');
  await expect(status).toContainText('KILL SWITCH ON');
  const code = await consoleCode(terminal, printedBefore);
  await shot(page, S, '03b-release-asks-console-code');
  // the code field has focus as the dialog opens (nothing to click before typing)
  await expect(askCode.getByLabel('Code from the console')).toBeFocused();
  await askCode.getByLabel('Code from the console').fill(code);
  await askCode.getByRole('button', { name: 'Confirm' }).click();
  await expect(status.getByRole('button', { name: 'Kill switch' })).toBeVisible();
  await expect(status).not.toContainText('KILL SWITCH ON');

  // trading again
  await restAtBid(page, ticker);

  // the journal: the refusal, the kill switch and its release, the orders, newest first
  const risk = await showPanel(page, 'risk');
  await expect(risk.getByRole('status').filter({ hasText: 'off' })).toBeVisible();
  await risk.getByRole('tab', { name: 'Audit journal' }).click();
  const journal = risk.getByRole('region', { name: /^Order audit journal/ });
  await expect(journal.locator('tbody tr').filter({ hasText: 'max_order_contracts' })).toHaveCount(1);
  await expect(journal.locator('tbody tr').filter({ hasText: 'kill_engage' })).toHaveCount(1);
  await expect(journal.locator('tbody tr').filter({ hasText: 'kill_release' })).toHaveCount(1);
  await expect(journal.locator('tbody tr').filter({ hasText: 'refused: kill_switch' })).toHaveCount(1);
  await expect(journal.locator('tbody tr').filter({ hasText: /place.*hotkey.*ok/ }).first()).toBeVisible();
  await risk.getByLabel('Filter by outcome').selectOption('refused');
  await expect(journal.locator('tbody tr').filter({ hasNotText: 'refused' })).toHaveCount(0);
  await shotOf(panel(page, 'risk'), S, '04-audit-journal');

  // the limits tab names each limit with its default
  await risk.getByRole('tab', { name: 'Limits & kill switch' }).click();
  await expect(risk.getByLabel('Max contracts / order')).toHaveValue('1000');
  await expect(risk.getByLabel('Max cost / order ($)')).toHaveValue('5000');
  await shotOf(panel(page, 'risk'), S, '05-limits');

  expect(realProblems(problems)).toEqual([]);
});
