// API keys in the UI: generate one, import one made outside the terminal (key pair from
// node:crypto, public half registered over REST, id + PEM file imported here), sign with it,
// rotate it (the old id is gone everywhere, the new one signs live data and orders), delete a
// key that is not in use. The private key never appears in the page.
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { dismissToasts, ladder, openTerminal, orderRow, realProblems, restAs, selectLivelyMarket, shot, shotOf, showPanel } from './helpers';

const S = 'keys';

/** Every text the page holds: markup, form values, and what scripts keep in data attributes. */
async function pageText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const values = Array.from(document.querySelectorAll('input, textarea')).map((el) => (el as HTMLInputElement).value);
    return document.documentElement.outerHTML + '\n' + values.join('\n');
  });
}

test('keys: generate, import, use, rotate and delete; the private key never reaches the page', async ({ page, terminal, problems }) => {
  const trader = restAs(terminal, 'trader');
  await openTerminal(page, terminal);
  const acct = await showPanel(page, 'account');
  await expect(acct.getByRole('tab', { name: 'Profiles & keys' })).toHaveAttribute('aria-selected', 'true');
  await expect(acct.getByRole('heading', { name: 'Keys of Embedded exchange' })).toBeVisible();
  const keyRow = (id: string) => acct.getByRole('row').filter({ hasText: id });

  // generate a key through the exchange
  await acct.getByLabel('Key name').fill('e2e generated');
  await acct.getByRole('button', { name: 'Generate key' }).click();
  const generated = acct.getByRole('row').filter({ hasText: 'e2e generated' });
  await expect(generated).toContainText('generated');
  const generatedId = (await generated.locator('td').first().innerText()).trim();
  await expect(generated).not.toContainText('in use');

  // import a key made here: RSA pair, public half registered with the exchange as the trader
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
  const created = await trader.createApiKey({ body: { name: 'e2e imported', public_key: pair.publicKey, scopes: ['read', 'write'] } });
  const importedId = created.api_key?.api_key ?? created.api_key?.api_key_id;
  expect(importedId).toBeTruthy();
  // in the host's temp data dir, removed with it after the test
  const pemFile = path.join(terminal.dataDir, 'imported.pem');
  writeFileSync(pemFile, pair.privateKey);
  const pemBody = pair.privateKey.split('\n').slice(1, -2).join('');
  const pemLines = pair.privateKey.split('\n').filter((l) => l && !l.startsWith('-----'));

  await acct.getByLabel('API key id').fill(importedId!);
  await acct.getByLabel('Name (optional)').fill('e2e imported');
  await acct.getByLabel('Private key (PEM file)').setInputFiles(pemFile);
  await expect(acct.getByText('imported.pem read')).toBeVisible();
  await shot(page, S, '01-import-form');
  await acct.getByRole('button', { name: 'Import key' }).click();
  const imported = keyRow(importedId!);
  await expect(imported).toContainText('imported');
  await expect(acct.getByLabel('API key id')).toHaveValue('');
  await expect(acct.getByLabel('Private key (PEM file)')).toHaveValue('');
  const afterImport = await pageText(page);
  for (const line of pemLines) expect(afterImport.includes(line), 'a line of the private key is in the page').toBe(false);
  expect(afterImport.includes(pemBody)).toBe(false);

  // use it: the session restarts signed with the imported key and reads private data
  await imported.getByRole('button', { name: 'Use' }).click();
  await expect(imported).toContainText('in use');
  await expect(page.getByRole('contentinfo', { name: 'Status' })).toContainText('Live');
  await acct.getByRole('tab', { name: 'Exchange keys' }).click();
  const exchangeKeys = acct.getByRole('table', { name: 'API keys on the exchange' });
  await expect(exchangeKeys.locator('tbody tr').filter({ hasText: importedId! })).toHaveCount(1);
  await expect(exchangeKeys.locator('tbody tr').filter({ hasText: generatedId })).toHaveCount(1);
  await acct.getByRole('tab', { name: 'Profiles & keys' }).click();
  await shot(page, S, '02-imported-in-use');
  await dismissToasts(page);
  await shotOf(acct, S, '02b-account-close-up');

  // rotate it: a fresh key replaces it, in use; the old id is gone here and on the exchange
  await keyRow(importedId!).getByRole('button', { name: 'Rotate' }).click();
  const confirmRotate = page.getByRole('dialog', { name: /Rotate this key\?/ });
  await expect(confirmRotate).toContainText(importedId!);
  await confirmRotate.getByRole('button', { name: 'Rotate' }).click();
  const rotated = acct.getByRole('row').filter({ hasText: 'e2e imported (rotated)' });
  await expect(rotated).toContainText('in use');
  await expect(keyRow(importedId!)).toHaveCount(0);
  const rotatedId = (await rotated.locator('td').first().innerText()).trim();
  expect(rotatedId).not.toBe(importedId);
  await expect
    .poll(async () => (await trader.getApiKeys()).api_keys.map((k) => k.api_key))
    .toEqual(expect.arrayContaining([rotatedId, generatedId]));
  expect((await trader.getApiKeys()).api_keys.map((k) => k.api_key)).not.toContain(importedId);
  await shot(page, S, '03-rotated');

  // the rotated key works: live books, and an order placed and shown
  const ticker = await selectLivelyMarket(page);
  await expect(page.getByRole('contentinfo', { name: 'Status' })).toContainText('Live');
  await expect(page.getByText(`Waiting for the book of ${ticker}`)).toBeHidden();
  // (the lively simulation may fill an order at the bid at once: what is checked is that the
  // exchange took it from the rotated key and the blotter shows it with the exchange's status)
  const known = new Set((await trader.getOrders({ query: { ticker } })).orders.map((o) => o.order_id));
  await ladder(page).focus();
  await expect(ladder(page)).toBeFocused();
  await page.keyboard.press('b');
  let placed: { order_id: string; status: string } | undefined;
  await expect
    .poll(
      async () => {
        placed = (await trader.getOrders({ query: { ticker } })).orders.find((o) => !known.has(o.order_id));
        if (placed) return placed.order_id;
        const toasts = (await page.locator('.toast').allInnerTexts()).join(' | ');
        return toasts ? `no order yet; toasts: ${toasts}` : 'no order yet';
      },
      { message: `B placed an order in ${ticker} with the rotated key`, timeout: 30_000 },
    )
    .not.toMatch(/^no order yet/);
  const orders = await showPanel(page, 'orders');
  await orders.getByRole('tab', { name: 'All' }).click();
  await expect(orderRow(page, placed!.order_id)).toContainText(/resting|executed/);
  await showPanel(page, 'account');
  await shot(page, S, '04-order-with-rotated-key');

  // delete the generated key (not in use): it still trades at the exchange, so the terminal says so
  // and offers to revoke it there; revoked, it is gone from the terminal and from the exchange
  await keyRow(generatedId).getByRole('button', { name: 'Delete' }).click();
  const confirmDelete = page.getByRole('dialog', { name: /Key still valid at the exchange/ });
  await expect(confirmDelete).toContainText(generatedId);
  await expect(confirmDelete.getByRole('button', { name: 'Forget here only' })).toBeVisible();
  await shot(page, S, '05a-still-valid');
  await confirmDelete.getByRole('button', { name: 'Revoke and delete' }).click();
  await expect(keyRow(generatedId)).toHaveCount(0);
  await expect.poll(async () => (await trader.getApiKeys()).api_keys.map((k) => k.api_key)).not.toContain(generatedId);
  await expect(rotated).toContainText('in use');
  await shot(page, S, '05-deleted');

  const atEnd = await pageText(page);
  for (const line of pemLines) expect(atEnd.includes(line), 'a line of the private key is in the page').toBe(false);
  expect(realProblems(problems)).toEqual([]);
});
