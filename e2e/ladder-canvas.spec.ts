// The ladder draws its sizes, running totals and volume on a canvas over its rows (the DOM texts
// stay, hidden). In a real browser on a live book: the canvas has ink over every block whose text
// is a number and none over an empty one, over many frames; each cell is named by its number for
// a screen reader; hiding the Σ columns and switching the theme redraw it where the cells now are.
import { expect, type Page } from '@playwright/test';
import { pageTest as test, startTerminal } from './fixtures';
import { ladder, openTerminal, realProblems, selectLivelyMarket, shotOf } from './helpers';
import { installInkReader, type InkOf } from './truth/canvas-ink';

/** Every block of the shown rows whose ink disagrees with its text ("0.52 bid: text 40, no ink"). */
async function inkMismatches(page: Page): Promise<{ drawn: number; wrong: string[] }> {
  await installInkReader(page);
  return ladder(page).evaluate((grid) => {
    const panel = grid.closest('.panel.ladder')!;
    const ink = (window as unknown as { __ladderInk: (p: Element) => InkOf | null }).__ladderInk(panel);
    if (!ink) return { drawn: 0, wrong: ['the ladder has no canvas (no 2D context in this browser?)'] };
    const wrong: string[] = [];
    let drawn = 0;
    for (const row of grid.querySelectorAll<HTMLElement>('.ladder-row')) {
      if (row.style.visibility === 'hidden') continue;
      const price = row.querySelector('[data-cell="price"]')?.textContent ?? '?';
      for (const [cell, sel] of [
        ['bid', '[data-cell="bid"] .qty'],
        ['ask', '[data-cell="ask"] .qty'],
        ['Σ bid', '[data-cell="cumbid"] .v'],
        ['Σ offer', '[data-cell="cumask"] .v'],
        ['vol', '[data-cell="vol"] .v'],
      ] as const) {
        const block = row.querySelector(sel);
        // a hidden column (Σ or Vol off) shows nothing, whatever its block holds
        const columnShown = block?.parentElement ? getComputedStyle(block.parentElement).visibility !== 'hidden' : false;
        const text = columnShown ? (block?.textContent ?? '') : '';
        const has = ink(block);
        if (has) drawn++;
        if (has !== (text !== '')) wrong.push(`${price} ${cell}: text "${text}", ${has ? 'ink' : 'no ink'}`);
      }
    }
    return { drawn, wrong };
  }) as Promise<{ drawn: number; wrong: string[] }>;
}

/** Samples the ladder over `ms`: a mismatch seen in two samples in a row (a frame apart or more) fails. */
async function agreesOver(page: Page, ms: number): Promise<number> {
  let prev = new Set<string>();
  let samples = 0;
  let drawn = 0;
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const r = await inkMismatches(page);
    samples++;
    drawn = Math.max(drawn, r.drawn);
    const now = new Set(r.wrong);
    const lasting = [...now].filter((w) => prev.has(w));
    expect(lasting, `the canvas and the cells disagree in two samples in a row (sample ${samples})`).toEqual([]);
    prev = now;
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  }
  expect(drawn, 'the canvas drew sizes').toBeGreaterThan(3);
  return samples;
}

test('the canvas shows what the cells hold on a live book, named for screen readers; Σ toggled and the light theme redraw it', async ({ page, problems }) => {
  const t = await startTerminal({ sim: true });
  try {
    await openTerminal(page, t.terminal);
    await selectLivelyMarket(page);
    await page.keyboard.press('Alt+Digit2');
    await expect(ladder(page)).toBeFocused();
    await expect.poll(async () => (await inkMismatches(page)).drawn, { message: 'the ladder draws the book', timeout: 30_000 }).toBeGreaterThan(3);
    const samples = await agreesOver(page, 4_000);
    console.log(`[ladder-canvas] ${samples} samples agreed`);

    // a screen reader reads each number from its cell's name (the drawn text's hidden block)
    const named = await ladder(page).evaluate((grid) => {
      const cell = [...grid.querySelectorAll<HTMLElement>('[data-cell="bid"], [data-cell="ask"]')].find((c) => (c.querySelector('.qty')?.textContent ?? '') !== '');
      return cell ? { text: cell.querySelector('.qty')!.textContent!, row: cell.closest('.ladder-row')!.getAttribute('data-row') } : null;
    });
    expect(named).not.toBeNull();
    await expect(ladder(page).locator(`.ladder-row[data-row="${named!.row}"]`).getByRole('gridcell', { name: named!.text, exact: true }).first()).toBeAttached();

    // the Σ columns toggled (off, or back on where a narrow ladder had let them give way): the
    // cells move, the canvas follows them
    const panelEl = page.locator('[data-panel="ladder"]').first();
    const noCum = panelEl.locator('.ladder.no-cum, .panel.no-cum');
    const hadNoCum = (await noCum.count()) > 0;
    const more = panelEl.getByRole('button', { name: 'More ladder settings' });
    if (await more.isVisible()) await more.click();
    await panelEl.getByRole('button', { name: 'Σ', exact: true }).click();
    if (await more.isVisible()) await page.keyboard.press('Escape');
    await expect(noCum).toHaveCount(hadNoCum ? 0 : 1);
    await agreesOver(page, 2_000);

    // the light theme: drawn again in its colours, still where the cells are
    await page.keyboard.press('Alt+Shift+KeyT');
    await expect(page.locator('html[data-theme="light"]')).toBeAttached();
    await agreesOver(page, 2_000);
    await shotOf(panelEl, 'ladder-canvas', 'light-no-cum');
    expect(realProblems(problems)).toEqual([]);
  } finally {
    await t.stop();
  }
});
