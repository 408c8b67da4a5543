// An RFQ round trip between two accounts: the trader asks in the UI, the counterparty quotes
// and later confirms over REST with its own key, the trader sees the quote arrive live,
// accepts YES in the UI and then sees the execution in its RFQ blotter and positions.
import { test, expect } from './fixtures';
import { expectUnclipped, openTerminal, panel, realProblems, restAs, selectLivelyMarket, shot, showPanel, cellUnder } from './helpers';

const S = 'rfq';

test('RFQ round trip: create in the UI, quoted and confirmed over REST by the counterparty, accepted in the UI', async ({ page, terminal, problems }) => {
  const counterparty = restAs(terminal, 'counterparty');
  await openTerminal(page, terminal);
  const ticker = await selectLivelyMarket(page);

  // the trader asks for quotes on 10 contracts of the selected market
  const rfqPanel = await showPanel(page, 'rfq');
  await expect(rfqPanel.getByRole('tab', { name: 'RFQs' })).toHaveAttribute('aria-selected', 'true');
  await expect(rfqPanel.getByLabel('Market ticker')).toHaveValue(ticker);
  await rfqPanel.getByRole('group', { name: 'Size by' }).getByRole('button', { name: 'Contracts' }).click();
  await rfqPanel.getByRole('textbox', { name: 'Contracts' }).fill('10');
  await rfqPanel.getByRole('button', { name: 'Request quotes' }).click();
  const myRfqs = rfqPanel.getByRole('table', { name: 'My RFQs' });
  const rfqRow = myRfqs.locator('tbody tr').filter({ hasText: ticker });
  await expect(rfqRow).toHaveCount(1);
  await expect(rfqRow).toContainText('open');
  const rfqId = await cellUnder(myRfqs, rfqRow, 'RFQ id');
  await shot(page, S, '01-rfq-created');

  // the counterparty sees it over REST and quotes: YES at 0.47 or NO at 0.56 to the requester
  await expect
    .poll(async () => (await counterparty.getRfqs({ query: {} })).rfqs.find((r) => r.rfq_id === rfqId)?.status ?? null, { message: 'the counterparty sees the open RFQ' })
    .toBe('open');
  const quote = await counterparty.createQuote({ body: { rfq_id: rfqId, yes_bid: '0.47', no_bid: '0.56' } });
  const quoteId = quote.quote.quote_id;

  // the quote shows up live on the trader's blotter (no refresh)
  await rfqPanel.getByRole('tab', { name: 'Quotes' }).click();
  await expect(rfqPanel.getByRole('group', { name: 'Which quotes' }).getByRole('button', { name: 'On my RFQs' })).toHaveAttribute('aria-pressed', 'true');
  const quoteRow = rfqPanel.getByRole('table', { name: 'Quotes on my RFQs' }).locator('tbody tr').filter({ hasText: rfqId });
  await expect(quoteRow).toHaveCount(1);
  await expect(quoteRow).toContainText(ticker);
  // prices at the market's own decimals: 0.47 on a cent market, 0.4700 on a fine-tick one
  const quotes = rfqPanel.getByRole('table', { name: 'Quotes on my RFQs' });
  expect(await cellUnder(quotes, quoteRow, 'YES bid')).toMatch(/^0\.47(00)?$/);
  expect(await cellUnder(quotes, quoteRow, 'NO bid')).toMatch(/^0\.56(00)?$/);
  await expect(quoteRow).toContainText('open');
  await expectUnclipped(quoteRow.locator('td.actions'));
  await shot(page, S, '02-quote-received');

  // accept YES: the trader buys YES at the quote's yes_bid, 0.47
  await quoteRow.getByRole('button', { name: 'Accept YES' }).click();
  const confirm = page.getByRole('dialog', { name: /Accept YES\?/ });
  await expect(confirm).toContainText(new RegExp(`Buy YES on ${ticker.replace(/\./g, '\\.')} at 0\\.47(00)? × 10`));
  await shot(page, S, '03-accept-confirm');
  await confirm.getByRole('button', { name: 'Accept YES' }).click();
  await expect(confirm).toBeHidden();
  await expect(quoteRow).toContainText('accepted');
  await expect(quoteRow.getByRole('button', { name: 'Accept YES' })).toHaveCount(0);

  // the counterparty confirms over REST; the trader's blotter turns executed live
  await expect.poll(async () => (await counterparty.getQuote({ params: { quote_id: quoteId } })).quote.status).toBe('accepted');
  await counterparty.confirmQuote({ params: { quote_id: quoteId }, body: {} });
  await expect(quoteRow).toContainText('executed');
  await rfqPanel.getByRole('tab', { name: 'RFQs' }).click();
  await expect(myRfqs.locator('tbody tr').filter({ hasText: rfqId })).toContainText('confirmed');
  await shot(page, S, '04-rfq-confirmed');

  // the execution reached the trader's positions and fills
  const positions = await showPanel(page, 'positions');
  await expect(positions.locator('tbody tr').filter({ hasText: ticker })).toContainText('10 YES');
  await positions.getByRole('tab', { name: 'Fills' }).click();
  const fillRow = positions.locator('tbody tr').filter({ hasText: ticker }).first();
  await expect(fillRow).toBeVisible();
  expect(await cellUnder(positions.getByRole('table', { name: /Fills/ }), fillRow, 'YES price')).toMatch(/^0\.47(00)?$/);
  await expect(panel(page, 'ladder').locator('.ladder-foot')).toContainText(/Position 10(?!\d)/);
  await shot(page, S, '05-position');

  expect(realProblems(problems)).toEqual([]);
});
