// Issue 34 item 2, "no number is ever cut", in real Chromium: every panel of the default layout
// (and Time & sales, Alerts, Risk, the event ladders, a 3-decimal market's ladder) at 1280x720,
// 1600x1000 and 1920x1080, one browser resized between sizes. A panel may narrow, drop columns
// (saying so) or scroll; it may never show a number in part:
// - in the DOM: a text with a digit whose glyphs run past a box that clips them (its own
//   overflow, a cell's, a panel's), an ellipsis on one, a number covered by another part of its
//   own panel (a sticky row of buttons), or a table column shown only in part at the table's edge;
// - on the ladder's canvas: a number measured (in the cell's own font) wider than its cell (the
//   painter narrows what does not fit: "0.71" must never need it).
// A name (a market's title, a ticker) may give way to an ellipsis, with its whole text in its
// tooltip: it is a name, not a figure. An alert's words are not a name: they hold its level
// ("falls to 0.4900"), so they are read whole, never under the row's buttons nor cut.
// Then once more at 1280x720 with the largest text (16 px, and the Markets and Alerts panels at
// 1600x1000): the same, and no tab, table tool or toolbar control shown in part or covered.
import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import { test } from './fixtures';
import { randomUUID } from 'node:crypto';
import { dismissToasts, ladder, listedMarkets, marketsTable, openTerminal, realProblems, restAs, SHOTS } from './helpers';

const SIZES = [
  [1280, 720],
  [1600, 1000],
  [1920, 1080],
] as const;

/** Panels and the keys that show them (opened by key, the extras join the blotters or the chart). */
const PANELS: [string, string][] = [
  ['markets', 'Alt+Digit1'],
  ['ladder', 'Alt+Digit2'],
  ['ticket', 'Alt+Digit3'],
  ['chart', 'Alt+Digit4'],
  ['orders', 'Alt+Digit5'],
  ['positions', 'Alt+Digit6'],
  ['rfq', 'Alt+Digit7'],
  ['account', 'Alt+Digit8'],
  ['history', 'Alt+Digit9'],
  ['livedata', 'Alt+Digit0'],
  ['risk', 'Alt+Equal'],
  ['tape', 'Alt+Backquote'],
  ['alerts', 'Alt+Shift+KeyA'],
  ['eventladders', 'Alt+Shift+KeyV'],
];

/** Every cut number in `root` (see the file's head), as "what: text". Runs in the page. */
function cutsIn(root: Element): string[] {
  const out: string[] = [];
  const panelOf = (el: Element) => el.closest('[data-panel]');
  const clipOf = (el: Element) => {
    let left = 0;
    let right = window.innerWidth;
    let top = 0;
    let bottom = window.innerHeight;
    for (let a: Element | null = el; a && a !== document.documentElement; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.overflowX !== 'visible' || s.overflowY !== 'visible') {
        const b = a.getBoundingClientRect();
        const h = a as HTMLElement;
        if (s.overflowX !== 'visible') {
          left = Math.max(left, b.left + h.clientLeft);
          right = Math.min(right, b.left + h.clientLeft + h.clientWidth);
        }
        if (s.overflowY !== 'visible') {
          top = Math.max(top, b.top + h.clientTop);
          bottom = Math.min(bottom, b.top + h.clientTop + h.clientHeight);
        }
      }
    }
    return { left, right, top, bottom };
  };
  // a name (a title, a ticker: letters, not a figure) may give way to an ellipsis when its whole
  // text is its tooltip
  const isName = (el: Element, text: string) => {
    if (el.closest('.num, [data-cell]') || !/[A-Za-z]{2,}/.test(text)) return false;
    const titled = el.closest('[title]');
    return !!titled && (titled.getAttribute('title') ?? '').includes(text);
  };
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode() as Text | null; n; n = walker.nextNode() as Text | null) {
    const text = n.data.trim();
    if (!/\d/.test(text)) continue;
    const el = n.parentElement;
    if (!el || el.closest('option, script, style, [aria-hidden="true"], .sr-only')) continue;
    if (el.getClientRects().length === 0 || getComputedStyle(el).visibility === 'hidden') continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    const r = range.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) continue;
    const c = clipOf(el);
    // out of view altogether (scrolled away, a row below the fold of its list): not cut
    if (r.right <= c.left + 1 || r.left >= c.right - 1 || r.bottom <= c.top + 1 || r.top >= c.bottom - 1) continue;
    const where = `${panelOf(el)?.getAttribute('data-panel') ?? '?'} ${el.closest('[data-col]')?.getAttribute('data-col') ?? el.className}`;
    if (isName(el, text)) continue;
    if (r.left < c.left - 0.5 || r.right > c.right + 0.5) {
      out.push(`${where}: "${text}" runs past its box (${Math.round(r.left)}-${Math.round(r.right)} shown ${Math.round(c.left)}-${Math.round(c.right)})`);
      continue;
    }
    // covered by another part of its own panel (a sticky cell, a bar): what is at the text's ends
    const y = Math.max(c.top + 1, Math.min(c.bottom - 1, r.top + r.height / 2));
    for (const x of [r.left + 1, r.right - 1]) {
      const hit = document.elementFromPoint(x, y);
      if (!hit || panelOf(hit) !== panelOf(el)) continue; // another panel or a toast over it
      if (hit === el || el.contains(hit) || hit.contains(el)) continue;
      out.push(`${where}: "${text}" is covered by ${hit.tagName.toLowerCase()}.${hit.className}`);
      break;
    }
  }
  // a table column shown only in part at its table's edge
  for (const th of root.querySelectorAll('table th')) {
    const scroller = th.closest('.table-scroll') ?? th.closest('table')?.parentElement;
    if (!scroller || th.getClientRects().length === 0) continue;
    const b = th.getBoundingClientRect();
    const c = clipOf(scroller);
    if (b.width < 2) continue;
    if (b.left < c.right - 1 && b.right > c.right + 1) out.push(`${panelOf(th)?.getAttribute('data-panel') ?? '?'}: column "${th.textContent}" shown in part (${Math.round(b.left)}-${Math.round(b.right)}, the table ends at ${Math.round(c.right)})`);
  }
  return out;
}

/** Every number the ladders' canvases draw that is wider than its cell, measured in the cell's font. Runs in the page. */
function canvasCutsIn(root: Element): string[] {
  const out: string[] = [];
  const ctx = document.createElement('canvas').getContext('2d')!;
  for (const grid of root.querySelectorAll('[role="grid"][aria-label^="Price ladder for "]')) {
    const name = grid.getAttribute('aria-label')!.split(',')[0]!;
    for (const row of grid.querySelectorAll<HTMLElement>('.ladder-row')) {
      if (row.style.visibility === 'hidden' || row.getClientRects().length === 0) continue;
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
        if (need > room + 0.5) out.push(`${name} canvas ${cell.getAttribute('data-cell')}: "${text}" needs ${need.toFixed(1)} px, its cell has ${room.toFixed(1)}`);
      }
    }
  }
  return out;
}

/**
 * Every alert whose words are not all in view in its row: covered by the row's buttons (the
 * sticky action cell at 1280x720 ran over "falls to 0.05"), or given way to an ellipsis. Runs in the page.
 */
function alertWordsHiddenIn(root: Element): string[] {
  const out: string[] = [];
  for (const row of root.querySelectorAll('.alert-list tbody tr')) {
    const cell = row.querySelector<HTMLElement>('td[data-col="summary"]');
    if (!cell || cell.getClientRects().length === 0) continue;
    const text = (cell.textContent ?? '').trim();
    const range = document.createRange();
    range.selectNodeContents(cell);
    const cb = cell.getBoundingClientRect();
    if (cell.scrollWidth > cell.clientWidth + 1) out.push(`alerts: "${text}" runs past its cell (${cell.scrollWidth} px in ${cell.clientWidth})`);
    for (const r of range.getClientRects()) {
      if (r.width < 1) continue;
      if (r.left < cb.left - 0.5 || r.right > cb.right + 0.5) out.push(`alerts: "${text}" runs past its cell`);
      for (const b of row.querySelectorAll('button')) {
        const br = b.getBoundingClientRect();
        if (br.width < 1 || br.left >= r.right || br.right <= r.left || br.top >= r.bottom || br.bottom <= r.top) continue;
        out.push(`alerts: "${text}" is under its "${b.textContent}" button (${Math.round(r.left)}-${Math.round(r.right)}, the button ${Math.round(br.left)}-${Math.round(br.right)})`);
      }
    }
    // and what is drawn at the words' right end is the words
    const ends = [...range.getClientRects()].filter((r) => r.width >= 1);
    const last = ends[ends.length - 1];
    if (last) {
      const hit = document.elementFromPoint(Math.min(last.right, cb.right) - 1, last.top + last.height / 2);
      if (hit && !cell.contains(hit)) out.push(`alerts: the end of "${text}" is covered by ${hit.tagName.toLowerCase()}.${hit.className}`);
    }
  }
  return out;
}

/**
 * Every tab, and every control of a table's tool row or a toolbar, shown only in part or not at
 * all by the strip that holds it (the Markets tabs at 16 px: "Collections", "Targets", "Detail"
 * were past the panel's edge). Runs in the page.
 */
function stripCutsIn(root: Element): string[] {
  const out: string[] = [];
  const sel = '[role="tab"], [role="toolbar"] :is(button, select, input), .table-tools :is(button, select, input)';
  for (const el of root.querySelectorAll<HTMLElement>(sel)) {
    if (el.getClientRects().length === 0 || getComputedStyle(el).visibility === 'hidden') continue;
    const b = el.getBoundingClientRect();
    if (b.width < 1 || b.height < 1) continue;
    let left = 0;
    let right = window.innerWidth;
    let top = 0;
    let bottom = window.innerHeight;
    // inside a panel that scrolls up and down, its lower tools are in view when it is scrolled
    // to them (the Alerts panel at 16 px): only the sides count there
    let scrolls = false;
    for (let a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
      const r = a.getBoundingClientRect();
      left = Math.max(left, r.left + a.clientLeft);
      right = Math.min(right, r.left + a.clientLeft + a.clientWidth);
      if (a.scrollHeight > a.clientHeight + 1 && (s.overflowY === 'auto' || s.overflowY === 'scroll')) scrolls = true;
      if (scrolls) continue;
      top = Math.max(top, r.top + a.clientTop);
      bottom = Math.min(bottom, r.top + a.clientTop + a.clientHeight);
    }
    const name = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim() || el.tagName.toLowerCase();
    const where = `${el.closest('[data-panel]')?.getAttribute('data-panel') ?? '?'} ${el.getAttribute('role') === 'tab' ? 'tab' : 'control'} "${name}"`;
    if (b.left < left - 0.5 || b.right > right + 0.5 || b.top < top - 0.5 || b.bottom > bottom + 0.5) {
      out.push(`${where} is cut (${Math.round(b.left)}-${Math.round(b.right)} x ${Math.round(b.top)}-${Math.round(b.bottom)}, shown ${Math.round(left)}-${Math.round(right)} x ${Math.round(top)}-${Math.round(bottom)})`);
      continue;
    }
    // covered at either end by another part of its own panel (the panel's link dot over "Detail")
    for (const x of [b.left + 2, b.right - 2]) {
      const hit = document.elementFromPoint(x, b.top + b.height / 2);
      if (!hit || hit.closest('[data-panel]') !== el.closest('[data-panel]') || el.contains(hit) || hit.contains(el)) continue;
      out.push(`${where} is covered by ${hit.tagName.toLowerCase()}.${hit.className}`);
      break;
    }
  }
  return out;
}

async function cuts(page: Page, root: Locator): Promise<string[]> {
  const dom = await root.evaluate(cutsIn);
  const canvas = await root.evaluate(canvasCutsIn);
  const alertWords = await root.evaluate(alertWordsHiddenIn);
  const strips = await root.evaluate(stripCutsIn);
  return [...new Set([...dom, ...canvas, ...alertWords, ...strips])];
}

/** the machine the specs run on may be loaded many times over: waits are for conditions, long ones */
const slow = { timeout: 120_000 };

const shotDir = process.env.TEXT_FIT_SHOTS ?? '/tmp';
/** A full-page PNG of this pass under shotDir (when screenshots are taken: helpers.ts SHOTS). */
async function fitShot(page: Page, name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: path.join(shotDir, `text-fit-${name}.png`) });
}

/** Shows a panel by its key and adds what is cut in it to `found`, each as "<at> <what>"; returns the panel. */
async function panelCuts(page: Page, id: string, key: string, at: string, found: string[]): Promise<Locator> {
  await page.keyboard.press(key);
  const p = page.locator(`[data-panel="${id}"]`).first();
  await expect(p).toBeVisible(slow);
  await dismissToasts(page);
  // the layout and a new tab's rows settle (a resize, a first query)
  await page.waitForTimeout(150);
  for (const c of await cuts(page, p)) found.push(`${at} ${c}`);
  return p;
}

/**
 * The largest text (16 px, Alt+Shift+= three times) at the narrowest size, once over every panel:
 * no number, tab or tool cut, no alert's words under its buttons; and the Markets and Alerts
 * panels at 1600x1000 too. What it found, as "size 16px what".
 */
async function largeTextPass(page: Page): Promise<string[]> {
  const found: string[] = [];
  await page.setViewportSize({ width: 1280, height: 720 });
  for (let i = 0; i < 3; i++) await page.keyboard.press('Alt+Shift+Equal');
  await expect.poll(() => page.evaluate(() => document.documentElement.dataset.fontPx), slow).toBe('16');
  for (const [id, key] of PANELS) {
    await panelCuts(page, id, key, '1280x720 16px', found);
    if (['markets', 'alerts', 'orders', 'positions'].includes(id)) await fitShot(page, `1280x720-16px-${id}`);
  }
  await page.setViewportSize({ width: 1600, height: 1000 });
  for (const [id, key] of PANELS.filter(([i]) => i === 'markets' || i === 'alerts')) {
    await panelCuts(page, id, key, '1600x1000 16px', found);
    await fitShot(page, `1600x1000-16px-${id}`);
  }
  return found;
}

test('no number is cut in any panel at 1280x720, 1600x1000 and 1920x1080, nor at 16 px text', async ({ page, terminal, problems }) => {
  test.setTimeout(900_000);
  await page.setViewportSize({ width: 1600, height: 1000 });
  await openTerminal(page, terminal);
  // a two-sided cent market near the middle, picked by a click on its row
  let ticker = '';
  await expect
    .poll(async () => {
      const rows = await listedMarkets(page);
      ticker = rows.find((r) => r.cents && r.bid >= 0.2 && r.ask <= 0.8 && r.ask > r.bid)?.ticker ?? '';
      return ticker;
    }, slow)
    .not.toBe('');
  await marketsTable(page).locator('tbody tr').filter({ hasText: ticker }).locator('td[data-col="ticker"]').click();
  await expect(page.locator('.app-top')).toContainText(ticker, slow);
  await expect.poll(() => ladder(page).first().locator('[data-cell="ask"] .qty').evaluateAll((qs) => qs.some((q) => (q.textContent ?? '') !== '')), slow).toBe(true);
  // something in every blotter: a resting bid (Orders, the ladder's Mine cell and its queue), a
  // position (Positions), an alert
  const trader = restAs(terminal, 'trader');
  await trader.createOrder({ body: { ticker, side: 'bid', price: '0.0500', count: '5.00', client_order_id: randomUUID() } });
  await trader.createOrder({ body: { ticker, side: 'bid', price: '0.9900', count: '3.00', time_in_force: 'immediate_or_cancel', client_order_id: randomUUID() } });
  await page.keyboard.press('Alt+Shift+KeyA');
  const alerts = page.locator('[data-panel="alerts"]');
  await alerts.getByLabel('Alert market').fill(ticker);
  await alerts.getByLabel('Direction').selectOption('below');
  await alerts.getByLabel('Level').fill('0.05');
  await alerts.getByRole('button', { name: /^(Add|Set|Save|Create)/ }).first().click();
  await expect.soft(alerts.locator('tbody tr').first()).toContainText(ticker, slow);
  // and one that fires on the trader's next fill, so the fired row and the history are measured in
  // every run (a fired alert's time, title and words were cut at 16 px only in runs where the
  // price alert happened to fire)
  await alerts.getByLabel('Alert kind').selectOption('order');
  await alerts.getByLabel('Order event').selectOption('filled');
  await alerts.getByRole('button', { name: /^(Add|Set|Save|Create)/ }).first().click();
  await expect.soft(alerts.locator('.alert-list tbody tr')).toHaveCount(2, slow);
  await trader.createOrder({ body: { ticker, side: 'bid', price: '0.9900', count: '1.00', time_in_force: 'immediate_or_cancel', client_order_id: randomUUID() } });
  await expect.soft(alerts.locator('.alert-history tbody tr').first()).toBeAttached(slow);
  // the lively market may have filled the resting bid meanwhile: one rests again for Orders
  const resting = await trader.getOrders({ query: { ticker, status: 'resting' } });
  if (resting.orders.length === 0) await trader.createOrder({ body: { ticker, side: 'bid', price: '0.0500', count: '5.00', client_order_id: randomUUID() } });
  await page.keyboard.press('Alt+Digit5');
  await expect.soft(page.locator('[data-panel="orders"] tbody tr').filter({ hasText: ticker }).first()).toBeAttached(slow);
  await page.keyboard.press('Alt+Digit6');
  await expect.soft(page.locator('[data-panel="positions"] tbody tr').filter({ hasText: ticker }).first()).toBeAttached(slow);

  const found: string[] = [];
  for (const [width, height] of SIZES) {
    await page.setViewportSize({ width, height });
    for (const [id, key] of PANELS) {
      const p = await panelCuts(page, id, key, `${width}x${height}`, found);
      if (id === 'ticket') {
        // the ticket's submit button is in view without scrolling the ticket
        const submit = p.locator('button[type="submit"]');
        const inView = await submit.evaluate((b) => {
          const r = b.getBoundingClientRect();
          const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return !!hit && b.contains(hit);
        });
        if (!inView) found.push(`${width}x${height} ticket: the submit button is out of view`);
      }
      if (['orders', 'positions', 'alerts', 'markets', 'account', 'tape'].includes(id)) await fitShot(page, `${width}x${height}-${id}`);
    }
    await fitShot(page, `${width}x${height}`);
    // what this size found, as it goes (a slow machine's run still says what it saw)
    console.log(`text-fit ${width}x${height}: ${found.filter((f) => f.startsWith(`${width}x${height}`)).length} cut\n${found.filter((f) => f.startsWith(`${width}x${height}`)).join('\n')}`);
  }
  // a 3-decimal market's ladder at the narrowest size
  await page.setViewportSize({ width: 1280, height: 720 });
  const table = marketsTable(page);
  const three = table.locator('tbody tr').filter({ has: page.locator('td[data-col="bid"]', { hasText: /^\d\.\d{3}$/ }) }).first();
  if ((await three.count()) > 0) {
    await three.locator('td[data-col="ticker"]').click();
    await page.waitForTimeout(500);
    for (const c of await cuts(page, page.locator('[data-panel="ladder"]').first())) found.push(`1280x720 3-decimal ${c}`);
    await fitShot(page, '1280x720-3dec');
  } else found.push('no 3-decimal market listed');
  found.push(...(await largeTextPass(page)));
  console.log(`text-fit at 16 px: ${found.filter((f) => f.includes(' 16px ')).length} cut\n${found.filter((f) => f.includes(' 16px ')).join('\n')}`);
  expect(found, found.join('\n')).toEqual([]);
  expect(realProblems(problems)).toEqual([]);
});
