// Clearing-member tools: the FCM panel exists only while an FCM member's key is active. As the
// FCM account: create a subtrader, set its daily cap, then act for it through the RFQ rail
// (subtrader_id on RFQ create): over the cap the exchange refuses with daily_cap_exceeded and
// the UI says so plainly; under it the RFQ is accepted and, quoted and confirmed, executes into
// the subtrader's positions.
import { test, expect } from './fixtures';
import { account, openTerminal, panel, realProblems, restAs, selectLivelyMarket, shot, showPanel, cellUnder } from './helpers';
import type { Page } from '@playwright/test';
import { waitToAvoidUtcMidnight } from '../src-shared/time';

const S = 'fcm';

const dockTab = (page: Page, title: string) => page.locator('.dv-tab').filter({ hasText: new RegExp(`^${title}$`) });

async function useKey(page: Page, keyId: string) {
  const acct = await showPanel(page, 'account');
  await acct.getByRole('tab', { name: 'Profiles & keys' }).click();
  const row = acct.getByRole('row').filter({ hasText: keyId });
  await row.getByRole('button', { name: 'Use' }).click();
  await expect(row).toContainText('in use');
}

test('FCM: the panel follows the active key; subtrader, daily cap, and RFQs for the subtrader over and under the cap', async ({ page, terminal, problems }) => {
  // the daily cap resets at UTC midnight: do not straddle it
  const wait = waitToAvoidUtcMidnight(Date.now());
  if (wait > 0) {
    test.setTimeout(120_000 + wait);
    await page.waitForTimeout(wait);
  }
  const trader = account(terminal, 'trader');
  const fcm = account(terminal, 'fcm');
  const counterparty = restAs(terminal, 'counterparty');
  await openTerminal(page, terminal);

  // the trader is not a clearing member: no FCM panel, and its key says so
  await expect(dockTab(page, 'Orders')).toBeVisible();
  await expect(dockTab(page, 'FCM')).toHaveCount(0);
  // its key does nothing for a non-member (the palette shows the command disabled)
  await page.keyboard.press('Alt+Minus');
  await page.keyboard.press('Control+KeyK');
  await expect(page.getByRole('option', { name: /Focus FCM/ })).toHaveAttribute('aria-disabled', 'true');
  await page.keyboard.press('Escape');
  await expect(panel(page, 'fcm')).toHaveCount(0);

  // switch the active key to the FCM account: its panel appears
  await useKey(page, fcm.api_key_id);
  await expect(page.getByRole('contentinfo', { name: 'Status' })).toContainText('Live');
  await expect(dockTab(page, 'FCM')).toBeVisible();
  const fcmPanel = await showPanel(page, 'fcm');
  await expect(fcmPanel.getByText('No subtraders yet.')).toBeVisible();
  await shot(page, S, '01-fcm-panel');

  // create a subtrader
  await fcmPanel.getByLabel('Suffix of the new subtrader').fill('desk7');
  await fcmPanel.getByRole('button', { name: 'Create', exact: true }).click();
  const subRow = fcmPanel.getByRole('table', { name: 'Subtraders' }).locator('tbody tr').filter({ hasText: 'desk7' });
  await expect(subRow).toHaveCount(1);
  await expect(subRow).toContainText('allowed');
  const subtraderId = (await subRow.locator('td').first().innerText()).trim();

  // open it and set a $100 daily cap
  await subRow.dblclick();
  await expect(fcmPanel.locator('.panel-bar strong').filter({ hasText: subtraderId })).toBeVisible();
  await fcmPanel.getByRole('tab', { name: 'Daily cap' }).click();
  await expect(fcmPanel.getByText('Daily event-contract cap:')).toContainText('none');
  await fcmPanel.getByLabel('New cap ($)').fill('100');
  await fcmPanel.getByRole('button', { name: 'Set cap' }).click();
  await expect(fcmPanel.getByText('Daily event-contract cap:')).toContainText('$100.00');
  await shot(page, S, '02-daily-cap');

  // an RFQ for the subtrader over the cap: refused, and the UI says why
  const ticker = await selectLivelyMarket(page);
  const rfq = await showPanel(page, 'rfq');
  await expect(rfq.getByLabel('Market ticker')).toHaveValue(ticker);
  await rfq.getByLabel('On behalf of').selectOption(subtraderId);
  await rfq.getByRole('group', { name: 'Size by' }).getByRole('button', { name: 'Target cost $' }).click();
  await rfq.getByRole('textbox', { name: 'Target cost in dollars' }).fill('150');
  await rfq.getByRole('button', { name: 'Request quotes' }).click();
  const refusal = rfq.getByRole('alert');
  await expect(refusal).toContainText("Over the subtrader's daily cap");
  await expect(refusal).toContainText('daily_cap_exceeded');
  await expect(rfq.getByRole('table', { name: 'My RFQs' })).toHaveCount(0);
  await shot(page, S, '03-over-cap-refused');

  // under the cap: accepted
  await rfq.getByRole('textbox', { name: 'Target cost in dollars' }).fill('40');
  await rfq.getByRole('button', { name: 'Request quotes' }).click();
  await expect(refusal).toHaveCount(0);
  const myRfqs = rfq.getByRole('table', { name: 'My RFQs' });
  const rfqRow = myRfqs.locator('tbody tr').filter({ hasText: ticker });
  await expect(rfqRow).toHaveCount(1);
  await expect(rfqRow).toContainText('$40.00');
  await expect(rfqRow).toContainText('open');
  const rfqId = await cellUnder(myRfqs, rfqRow, 'RFQ id');
  await shot(page, S, '04-under-cap-accepted');

  // and it trades for the subtrader: quoted and confirmed by the counterparty, accepted here
  const quote = await counterparty.createQuote({ body: { rfq_id: rfqId, yes_bid: '0.50', no_bid: '0.52' } });
  await rfq.getByRole('tab', { name: 'Quotes' }).click();
  const quoteRow = rfq.getByRole('table', { name: 'Quotes on my RFQs' }).locator('tbody tr').filter({ hasText: rfqId });
  await expect(quoteRow).toContainText('open');
  await quoteRow.getByRole('button', { name: 'Accept YES' }).click();
  await page.getByRole('dialog', { name: /Accept YES\?/ }).getByRole('button', { name: 'Accept YES' }).click();
  await expect(quoteRow).toContainText('accepted');
  await counterparty.confirmQuote({ params: { quote_id: quote.quote.quote_id }, body: {} });
  await expect(quoteRow).toContainText('executed');
  await showPanel(page, 'fcm');
  await fcmPanel.getByRole('tab', { name: 'Positions' }).click();
  await expect(fcmPanel.getByRole('table', { name: `FCM positions of ${subtraderId}` }).locator('tbody tr').filter({ hasText: ticker })).toHaveCount(1);
  await shot(page, S, '05-subtrader-position');

  // back to the trader's key: the FCM panel goes away
  await useKey(page, trader.api_key_id);
  await expect(dockTab(page, 'FCM')).toHaveCount(0);
  await expect(panel(page, 'fcm')).toHaveCount(0);
  await shot(page, S, '06-trader-again');

  expect(realProblems(problems)).toEqual([]);
});
