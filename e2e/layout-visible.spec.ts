// Issue 24, defect 5 leftovers, in real Chromium: (a) Time & sales, Alerts and Risk open visible
// and on top (not as hidden tabs behind the blotter); (b) clicking a Markets row or a position's
// TP/SL never scrolls its table sideways (Ticker and Market stay in view).
import { expect, type Locator, type Page } from '@playwright/test';
import { quietTest } from './fixtures';
import { dismissToasts, marketsTable, openTerminal, panel, realProblems, selectLivelyMarket, shot, showPanel } from './helpers';

const S = 'layout-visible';
const test = quietTest;

/** The element drawn at the centre of `el` belongs to it: it is shown, in view, and nothing covers it (nor clips it away). */
async function onTop(el: Locator, minSize = 40): Promise<boolean> {
  return el.evaluate((node, min) => {
    const r = node.getBoundingClientRect();
    if (r.width < min || r.height < min) return false;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height / 2, 60));
    return !!hit && node.contains(hit);
  }, minSize);
}

/** How far the nearest sideways-scrolling box around `el` is scrolled. */
async function sideways(el: Locator): Promise<number> {
  return el.evaluate((node) => {
    let total = 0;
    for (let n: HTMLElement | null = node as HTMLElement; n; n = n.parentElement) total += n.scrollLeft;
    return total;
  });
}

const key = (page: Page, combo: string) => page.keyboard.press(combo);

test('(a) Time & sales, Alerts and Risk open visible and on top', async ({ page, terminal, problems }) => {
  await openTerminal(page, terminal);
  for (const [combo, id] of [
    ['Alt+Backquote', 'tape'],
    ['Alt+Shift+KeyA', 'alerts'],
    ['Alt+Equal', 'risk'],
  ] as const) {
    await key(page, combo);
    const p = panel(page, id as 'risk');
    await expect(p).toBeVisible();
    await expect.poll(() => onTop(p), { message: `${id} is shown on top` }).toBe(true);
    await shot(page, S, `a-${id}`);
    // focus moved into it
    await expect.poll(() => p.evaluate((n) => n.contains(document.activeElement))).toBe(true);
  }
  expect(realProblems(problems)).toEqual([]);
});

test('(b) clicking a Markets row or TP/SL never scrolls its table sideways', async ({ page, terminal, problems }) => {
  test.setTimeout(300_000); // it clicks through every third row of the whole list, twice
  await openTerminal(page, terminal);
  const table = marketsTable(page);
  const rows = table.locator('tbody tr:not([aria-hidden])');
  // Every sideways scroll of the list or a box around it is recorded as it happens (a smooth
  // scroll started by a key lands a few frames later): the list must never move sideways.
  await table.evaluate((node) => {
    const w = window as unknown as { __sideways: string[] };
    w.__sideways = [];
    document.addEventListener(
      'scroll',
      (e) => {
        const el = e.target instanceof HTMLElement ? e.target : null;
        if (el && el.scrollLeft !== 0 && el.contains(node)) w.__sideways.push(`${el.className} scrolled to ${el.scrollLeft}`);
      },
      true,
    );
  });
  const sidewaysSeen = () => page.evaluate(() => (window as unknown as { __sideways: string[] }).__sideways);
  // the list fits its panel by letting its last columns give way; with every column shown (its
  // "+N cols" button) it is wider than its panel and can scroll sideways
  await panel(page, 'markets').getByRole('button', { name: /^\+\d+ cols?$/ }).click();
  expect(await table.evaluate((el) => el.scrollWidth > el.clientWidth), 'the list is wider than its panel (it can scroll sideways)').toBe(true);
  const lb = (await table.boundingBox())!;
  // click what a trader sees of many rows (the mouse at the cell, so Playwright itself never
  // scrolls anything into view): the ticker, the title, a price and the right-most cell in view
  // (cut by the panel's edge), first at the top of the list and then scrolled down
  for (const scrolled of [false, true]) {
    if (scrolled) {
      await page.mouse.move(lb.x + lb.width / 2, lb.y + lb.height / 2);
      await page.mouse.wheel(0, 400);
    }
    const n = await rows.count();
    for (let i = 0; i < n; i += 3) {
      const cells = rows.nth(i).locator('td');
      // the right-most cell the panel shows (whole or cut by its edge)
      const lastInView = await rows.nth(i).evaluate((tr, right) => {
        const tds = [...tr.querySelectorAll('td')];
        return tds.reduce((last, td, k) => (td.getBoundingClientRect().left < right - 12 ? k : last), 0);
      }, lb.x + lb.width);
      for (const c of [1, 2, 4, lastInView]) {
        const box = await cells.nth(c).boundingBox();
        if (!box || box.y < lb.y + 24 || box.y + box.height > lb.y + lb.height - 2) continue;
        const x = Math.min(box.x + Math.min(box.width / 2, 20), lb.x + lb.width - 10);
        if (x <= box.x) continue; // the cell is out of view to the right: a trader cannot click it
        await page.mouse.click(x, box.y + box.height / 2);
        expect(await sideways(cells.nth(1)), `row ${i} cell ${c}`).toBe(0);
      }
    }
  }
  // the keyboard walks the list: arrows, pages, ends, Enter; Left and Right move nothing sideways
  await table.focus();
  for (const k of ['Home', 'ArrowDown', 'ArrowDown', 'ArrowRight', 'ArrowRight', 'ArrowLeft', 'PageDown', 'ArrowRight', 'End', 'ArrowUp', 'Home', 'Enter']) {
    await key(page, k);
    expect(await sideways(rows.first().locator('td').nth(1)), `after ${k}`).toBe(0);
  }
  // a few more clicks after the keys (time for any smooth scroll a key started to show)
  for (const i of [1, 4, 7]) {
    const box = (await rows.nth(i).locator('td').nth(2).boundingBox())!;
    await page.mouse.click(box.x + 10, box.y + box.height / 2);
  }
  expect(await sidewaysSeen(), 'the list never scrolled sideways').toEqual([]);
  await expect(table.getByRole('columnheader', { name: /Ticker/ })).toBeInViewport();
  await expect(table.getByRole('columnheader', { name: /Market/ })).toBeInViewport();
  await shot(page, S, 'b-markets-click');

  // a position, then its TP/SL
  await selectLivelyMarket(page);
  await page.locator('[data-panel="ladder"] [role="grid"]').focus();
  await key(page, '1');
  await key(page, 'Enter');
  await key(page, 'Shift+KeyB');
  const positions = await showPanel(page, 'positions');
  const tpsl = positions.getByRole('button', { name: /TP\/SL/ }).first();
  await expect(tpsl).toBeAttached({ timeout: 20_000 });
  await dismissToasts(page);
  await shot(page, S, 'b-tpsl-before');
  // the row's actions are within reach where the table stands: no sideways scroll to find TP/SL
  // (which hid Market), then clicking it and closing its dialog leave the table where it was
  expect(await sideways(tpsl)).toBe(0);
  await expect.poll(() => onTop(tpsl, 8), { message: 'TP/SL is in view without scrolling sideways' }).toBe(true);
  const tb = (await tpsl.boundingBox())!;
  await page.mouse.click(tb.x + tb.width / 2, tb.y + tb.height / 2);
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect.poll(() => sideways(tpsl)).toBe(0);
  await expect(positions.getByRole('columnheader', { name: /Market/ }).first()).toBeInViewport();
  await shot(page, S, 'b-tpsl-click');
  expect(realProblems(problems)).toEqual([]);
});
