// Keyboard safety as a trader's hands meet it (issue 24): the palette ranks by match and never
// preselects a harmful action on a partial match; trading keys do what the help says in and out
// of the ticket's fields; a dangerous confirmation focuses the safe choice; a panic cancel does
// not ask by default.
import { test as base, expect, type Page } from '@playwright/test';
import { startTerminal, watchConsole, type Terminal } from './fixtures';
import { openTerminal, realProblems, selectLivelyMarket, shot } from './helpers';

const S = 'keyboard';

const test = base.extend<{ terminal: Terminal; problems: string[] }>({
  // eslint-disable-next-line no-empty-pattern
  terminal: async ({}, use) => {
    const t = await startTerminal({ sim: false });
    await use(t.terminal);
    await t.stop();
  },
  problems: async ({ page }, use) => {
    await use(watchConsole(page));
  },
});

const palette = (page: Page) => page.getByRole('dialog', { name: /Command palette/ });

async function searchPalette(page: Page, text: string) {
  await page.keyboard.press('ControlOrMeta+KeyK');
  await expect(palette(page)).toBeVisible();
  await palette(page).getByRole('combobox').fill(text);
}

test('palette: ranked by match, a harmful action never preselected on a partial match', async ({ page, terminal, problems }) => {
  await openTerminal(page, terminal);
  await selectLivelyMarket(page);
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

  // named outright, it is the pick
  await searchPalette(page, 'flatten');
  await expect(selected).toContainText('Flatten my position');
  await page.keyboard.press('Escape');
  expect(realProblems(problems)).toEqual([]);
});
