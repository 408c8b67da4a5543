// The desktop app's passphrase prompt page in Chromium, as its window shows it: JavaScript off,
// the size main gives the window. Typed with the keyboard only; the form's submission is caught
// where main catches it (the navigation to the answer address, never loaded) and read with the
// same function main uses.
import { test, expect, type Page } from '@playwright/test';
import { passphrasePage, readPassphraseAnswer, PASSPHRASE_ANSWER_URL, type PassphraseAnswer, type PassphraseQuestion } from '../src-main/app/passphrase-prompt';
import { passphraseWindowOptions } from '../src-main/electron/security';
import { keychainWarning } from '../src-main/electron/keychain';
import { shot } from './helpers';

const size = passphraseWindowOptions();
test.use({ javaScriptEnabled: false, viewport: { width: size.width!, height: size.height! } });

/** Shows the page for `q`; `next()` resolves with the answer of the next submission. */
async function show(page: Page, q: PassphraseQuestion): Promise<{ next(): Promise<PassphraseAnswer | null> }> {
  let waiting: ((a: PassphraseAnswer | null) => void) | null = null;
  await page.route(`${PASSPHRASE_ANSWER_URL}*`, async (route) => {
    waiting?.(readPassphraseAnswer(route.request().url()));
    // 204: the browser stays on the page, as main's cancelled navigation leaves the window
    await route.fulfill({ status: 204 });
  });
  await page.goto(`data:text/html;charset=utf-8,${encodeURIComponent(passphrasePage(q))}`);
  return {
    next: () => new Promise((resolve) => (waiting = resolve)),
  };
}

test('offer: type a passphrase twice and press Enter; "Not now" goes on without one', async ({ page }) => {
  const prompt = await show(page, { mode: 'offer', warning: keychainWarning('linux', 'basic_text')! });
  await expect(page.getByRole('heading', { name: 'Seal your keys with a passphrase' })).toBeVisible();
  await expect(page.locator('#passphrase')).toBeFocused();
  await shot(page, 'passphrase-prompt', '01-offer');
  const typed = 'correct horse & battery';
  await page.keyboard.type(typed);
  await page.keyboard.press('Tab');
  await page.keyboard.type(typed);
  const answered = prompt.next();
  await page.keyboard.press('Enter');
  expect(await answered).toEqual({ action: 'submit', passphrase: typed, confirm: typed });

  const skipped = prompt.next();
  await page.getByRole('button', { name: 'Not now' }).click();
  expect(await skipped).toEqual({ action: 'skip' });
  const never = prompt.next();
  await page.getByRole('button', { name: "Don't ask again" }).click();
  expect(await never).toEqual({ action: 'never' });
});

test('unlock after a wrong attempt: the error is shown, one field, Quit answers quit', async ({ page }) => {
  const prompt = await show(page, { mode: 'unlock', error: 'wrong vault passphrase: no key was opened (attempt 1 of 5)' });
  await expect(page.getByRole('alert')).toHaveText(/wrong vault passphrase.*attempt 1 of 5/);
  await expect(page.locator('input[type=password]')).toHaveCount(1);
  await shot(page, 'passphrase-prompt', '02-unlock-error');
  await page.keyboard.type('the right one');
  const answered = prompt.next();
  await page.keyboard.press('Enter');
  expect(await answered).toEqual({ action: 'submit', passphrase: 'the right one', confirm: '' });
  const quit = prompt.next();
  await page.getByRole('button', { name: 'Quit' }).click();
  expect(await quit).toEqual({ action: 'quit' });
});
