// Issue 34, two panels that did not fit the default layout, in real Chromium: (a) at 1280x720 the
// Alerts panel (Alt+Shift+A, it joins the blotters) shows its whole form and room for its list
// without scrolling; (b) at 1600x1000 the event ladders (Alt+Shift+V, beside the chart) stay
// inside the window: no part of the panel, nor of any ladder it shows, runs past its right edge.
import { expect, type Locator, type Page } from '@playwright/test';
import { quietTest } from './fixtures';
import { dismissToasts, openTerminal, realProblems, selectLivelyMarket, shot } from './helpers';

const S = 'panel-room';
const test = quietTest;

/** The part of `el` the trader sees: its box cut by every box around it that clips, and by the window. */
async function shown(el: Locator): Promise<{ box: DOMRect; seen: { left: number; right: number; top: number; bottom: number } }> {
  return el.evaluate((node) => {
    const b = node.getBoundingClientRect();
    let left = 0;
    let right = window.innerWidth;
    let top = 0;
    let bottom = window.innerHeight;
    for (let a: Element | null = node.parentElement; a && a !== document.documentElement; a = a.parentElement) {
      const s = getComputedStyle(a);
      const r = a.getBoundingClientRect();
      const h = a as HTMLElement;
      if (s.overflowX !== 'visible') {
        left = Math.max(left, r.left + h.clientLeft);
        right = Math.min(right, r.left + h.clientLeft + h.clientWidth);
      }
      if (s.overflowY !== 'visible') {
        top = Math.max(top, r.top + h.clientTop);
        bottom = Math.min(bottom, r.top + h.clientTop + h.clientHeight);
      }
    }
    return { box: b.toJSON() as DOMRect, seen: { left: Math.max(left, b.left), right: Math.min(right, b.right), top: Math.max(top, b.top), bottom: Math.min(bottom, b.bottom) } };
  });
}

/** `el` is shown whole: nothing of it is cut by a box around it or the window (a scroller would hide it). */
async function wholeInView(el: Locator, what: string): Promise<string[]> {
  const { box, seen } = await shown(el);
  const out: string[] = [];
  if (box.width < 1 || box.height < 1) return [`${what} is not shown`];
  if (seen.left > box.left + 0.5 || seen.right < box.right - 0.5) out.push(`${what}: ${Math.round(box.left)}-${Math.round(box.right)} wide, shown ${Math.round(seen.left)}-${Math.round(seen.right)}`);
  if (seen.top > box.top + 0.5 || seen.bottom < box.bottom - 0.5) out.push(`${what}: ${Math.round(box.top)}-${Math.round(box.bottom)} high, shown ${Math.round(seen.top)}-${Math.round(seen.bottom)}`);
  return out;
}

const key = (page: Page, combo: string) => page.keyboard.press(combo);

test('(a) 1280x720: the Alerts panel shows its whole form, its alerts and its history without scrolling', async ({ page, terminal, problems }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await openTerminal(page, terminal);
  const ticker = await selectLivelyMarket(page);
  await key(page, 'Alt+Shift+KeyA');
  const alerts = page.locator('[data-panel="alerts"]');
  await expect(alerts).toBeVisible();
  // two alerts in its list
  for (const level of ['0.05', '0.06']) {
    await alerts.getByLabel('Direction').selectOption('below');
    await alerts.getByLabel('Level').fill(level);
    await alerts.getByRole('button', { name: 'Add alert' }).click();
    await expect(alerts.getByRole('region', { name: /^Alerts/ }).getByRole('row').filter({ hasText: `falls to ${level}` })).toHaveCount(1);
  }
  // gone to again (a trader's Alt+Shift+A from another panel)
  await key(page, 'Alt+Digit5');
  await key(page, 'Alt+Shift+KeyA');
  await dismissToasts(page);
  const body = alerts.locator('.panel.alerts-panel');
  const found = async () => {
    const out: string[] = [];
    const [scroll, client] = await body.evaluate((e) => [e.scrollHeight, e.clientHeight]);
    if (scroll > client + 1) out.push(`the panel scrolls: its content is ${scroll} px high in ${client}`);
    out.push(...(await wholeInView(alerts, 'the Alerts panel')));
    for (const label of ['Alert kind', 'Alert market', 'Price source', 'Direction', 'Level', 'Note']) out.push(...(await wholeInView(alerts.getByLabel(label, { exact: true }), label)));
    out.push(...(await wholeInView(alerts.getByRole('button', { name: 'Add alert' }), 'Add alert')));
    // each alert's row in view top to bottom (a table wider than its panel scrolls sideways)
    for (const row of await alerts.getByRole('region', { name: /^Alerts/ }).locator('tbody tr').all()) out.push(...(await wholeInView(row, `the alert row "${(await row.innerText()).replace(/\s+/g, ' ').slice(0, 40)}"`)).filter((c) => c.includes(' high, ')));
    out.push(...(await wholeInView(alerts.locator('.alert-history'), 'the alert history')));
    return out;
  };
  await shot(page, S, 'a-alerts-1280x720');
  await expect.poll(found, { message: `the Alerts panel of ${ticker} fits` }).toEqual([]);
  expect(realProblems(problems)).toEqual([]);
});

test('(b) 1600x1000: the event ladders stay inside the window, each ladder whole or scrolled away', async ({ page, terminal, problems }) => {
  await page.setViewportSize({ width: 1600, height: 1000 });
  await openTerminal(page, terminal);
  await selectLivelyMarket(page);
  await key(page, 'Alt+Shift+KeyV');
  const event = page.locator('[data-panel="eventladders"]');
  await expect(event.getByTestId('event-ladders')).toBeVisible();
  const columns = event.locator('.multi-ladder-col');
  await expect(columns.nth(1)).toBeVisible({ timeout: 15_000 });
  await dismissToasts(page);
  const found = async () => {
    const out = await wholeInView(event, 'the Event ladders panel');
    let whole = 0;
    for (const [i, c] of (await columns.all()).entries()) {
      const { seen } = await shown(c);
      if (seen.right - seen.left <= 0.5) continue; // scrolled away: not shown at all
      const cut = await wholeInView(c, `ladder ${i + 1}`);
      if (cut.length === 0) whole++;
      out.push(...cut);
    }
    if (whole < 2) out.push(`${whole} whole ladder(s) in view`);
    return out;
  };
  await shot(page, S, 'b-event-ladders-1600x1000');
  await expect.poll(found, { message: 'every event ladder in view is whole' }).toEqual([]);
  // scrolled sideways, it stops on a whole ladder
  await event.getByTestId('event-ladders').evaluate((e) => e.scrollBy({ left: 90 }));
  await expect.poll(found, { message: 'scrolled, every event ladder in view is whole' }).toEqual([]);
  expect(realProblems(problems)).toEqual([]);
});
