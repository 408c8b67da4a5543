// Issue 34 item 8, in real Chromium at 1280x720: named layouts and the text size.
// - Layouts (the top bar's button) says "No saved layouts yet"; "scalp" is saved; a new ladder
//   changes the layout; Layouts (Alt+Shift+M) → Switch to "scalp": the panels are back as saved,
//   and after a reload (main kept it) it is still listed.
// - Reset layout (Alt+Shift+R) asks; Escape keeps the panels.
// - Larger text (Alt+Shift+=, twice: 14 px): the page's computed font size grows, the ladder's rows
//   grow with it, and no number on the ladder (its DOM or its canvas) is cut.
import { expect, type Locator, type Page } from '@playwright/test';
import { quietTest as test } from './fixtures';
import { dismissToasts, ladder, openTerminal, realProblems, selectLivelyMarket, shot } from './helpers';

const S = 'layouts-named';
const slow = { timeout: 60_000 };

/** The dock's panels by id, sorted: what a layout puts on screen. */
const panelIds = (page: Page) => page.locator('[data-panel-id]').evaluateAll((els) => els.map((e) => e.getAttribute('data-panel-id')!).sort());

/** Numbers on the ladder that do not fit their cell: price labels in the DOM, sizes as the canvas measures them (in the cell's font). */
function ladderCuts(root: Element): string[] {
  const out: string[] = [];
  const ctx = document.createElement('canvas').getContext('2d')!;
  for (const row of root.querySelectorAll<HTMLElement>('.ladder-row')) {
    if (row.style.visibility === 'hidden' || row.getClientRects().length === 0) continue;
    const price = row.querySelector<HTMLElement>('[data-cell="price"]');
    // the row holds a whole line of its text (the canvas draws each number centred in its row)
    const rowPx = row.getBoundingClientRect().height;
    const fontPx = Number.parseFloat(getComputedStyle(row).fontSize);
    if (rowPx < fontPx * 1.25) out.push(`row ${rowPx} px for ${fontPx} px text`);
    if (price && price.scrollWidth > price.clientWidth) out.push(`price "${price.textContent}" ${price.scrollWidth} > ${price.clientWidth}`);
    for (const sel of ['[data-cell="bid"] .qty', '[data-cell="ask"] .qty', '[data-cell="cumbid"] .v', '[data-cell="cumask"] .v', '[data-cell="vol"] .v']) {
      const block = row.querySelector<HTMLElement>(sel);
      const cell = block?.parentElement;
      const text = block?.textContent ?? '';
      if (!block || !cell || !text || getComputedStyle(cell).visibility === 'hidden') continue;
      const cs = getComputedStyle(block);
      const ccs = getComputedStyle(cell);
      ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
      const room = cell.getBoundingClientRect().width - (Number.parseFloat(ccs.paddingLeft) || 0) - (Number.parseFloat(ccs.paddingRight) || 0);
      const need = ctx.measureText(text).width;
      if (need > room + 0.5) out.push(`${cell.getAttribute('data-cell')} "${text}" needs ${need.toFixed(1)} px, has ${room.toFixed(1)}`);
    }
  }
  return out;
}

const layoutsDialog = (page: Page): Locator => page.getByRole('dialog', { name: /^Layouts/ });

test('save "scalp", change the layout, switch back; reset asks; larger text stays legible at 1280x720', async ({ page, terminal, problems }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  await openTerminal(page, terminal);
  await selectLivelyMarket(page);
  const saved = await panelIds(page);
  expect(saved).toContain('ladder');

  // the top bar's Layouts: the honest empty state, then "scalp"
  await page.locator('.app-top').getByRole('button', { name: /^Layouts/ }).click();
  const dialog = layoutsDialog(page);
  await expect(dialog.getByText('No saved layouts yet')).toBeVisible(slow);
  await shot(page, S, 'empty');
  await dialog.getByRole('textbox', { name: 'Layout name' }).fill('scalp');
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('button', { name: 'Switch to layout scalp' })).toBeVisible(slow);
  await shot(page, S, 'saved');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // the layout changes: a second ladder
  await page.locator('.app-top').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Alt+Shift+KeyL');
  await expect.poll(() => page.locator('[data-panel="ladder"]').count(), slow).toBe(2);
  expect(await panelIds(page)).not.toEqual(saved);

  // Reset layout asks; Escape keeps every panel
  const changed = await panelIds(page);
  await page.locator('.app-top').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Alt+Shift+KeyR');
  const question = page.getByRole('dialog', { name: /^Reset the layout\?/ });
  await expect(question).toBeVisible();
  await shot(page, S, 'reset-question');
  await page.keyboard.press('Escape');
  await expect(question).toBeHidden();
  expect(await panelIds(page)).toEqual(changed);

  // back to "scalp" by key
  await page.keyboard.press('Alt+Shift+KeyM');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Switch to layout scalp' }).click();
  await expect(dialog).toBeHidden();
  await expect.poll(() => panelIds(page), slow).toEqual(saved);

  // main kept it: after a reload it is still listed
  await page.reload();
  await expect(page.locator('.app-top')).toContainText('Event Terminal');
  await page.locator('.app-top').getByRole('button', { name: /^Layouts/ }).click();
  await expect(dialog.getByRole('button', { name: 'Switch to layout scalp' })).toBeVisible(slow);
  await page.keyboard.press('Escape');

  // larger text: 12 -> 13 -> 14 px
  await selectLivelyMarket(page);
  const fontOf = () => page.locator('body').evaluate((b) => Number.parseFloat(getComputedStyle(b).fontSize));
  const rowOf = () => ladder(page).first().locator('.ladder-row').first().evaluate((r) => r.getBoundingClientRect().height);
  expect(await fontOf()).toBe(12);
  expect(await rowOf()).toBe(18);
  await page.locator('.app-top').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Alt+Shift+Equal');
  await page.keyboard.press('Alt+Shift+Equal');
  await expect.poll(fontOf, slow).toBe(14);
  await expect.poll(rowOf, slow).toBe(21);
  const cell = await ladder(page).first().locator('[data-cell="price"]').first().evaluate((c) => Number.parseFloat(getComputedStyle(c).fontSize));
  expect(cell).toBeCloseTo((12 * 14) / 12, 1);
  await expect.poll(() => ladder(page).first().locator('[data-cell="ask"] .qty').evaluateAll((qs) => qs.some((q) => (q.textContent ?? '') !== '')), slow).toBe(true);
  await dismissToasts(page);
  expect(await ladder(page).first().evaluate(ladderCuts)).toEqual([]);
  await shot(page, S, 'text-14px');
  // saved: after a reload the page starts at 14 px
  await page.reload();
  await expect(page.locator('.app-top')).toContainText('Event Terminal');
  await expect.poll(fontOf, slow).toBe(14);
  expect(realProblems(problems)).toEqual([]);
});
