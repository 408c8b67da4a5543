// Shared steps of the end-to-end specs: screenshots, a second party over REST, panels by key,
// picking a lively market by keyboard, and reading the painted ladder.
import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import { createApiClient, type ApiClient } from '../src-main/api/client';
import { artifacts, type Terminal } from './fixtures';
import { saidMark, saidSince } from './said';

export type AccountName = 'trader' | 'counterparty' | 'fcm';

/**
 * The screenshots are for people to open (e2e/artifacts/); no test compares them. On CI, where
 * nobody opens them, they are not taken: each cost about half a second of CPU (capture and PNG
 * encoding, measured on first-session: 9 shots, 29.5 -> 24.5 s of CPU), some 100 a run.
 * E2E_SHOTS=1 takes them on CI too, E2E_SHOTS=0 skips them anywhere.
 */
export const SHOTS = process.env.E2E_SHOTS === '1' || (process.env.E2E_SHOTS !== '0' && !process.env.CI);

/** A full-page PNG under e2e/artifacts/<spec>-<name>.png. */
export async function shot(page: Page, spec: string, name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: path.join(artifacts, `${spec}-${name}.png`) });
}

/** A close-up PNG of one element (a panel, the ladder) at full resolution. */
export async function shotOf(el: Locator, spec: string, name: string): Promise<void> {
  if (SHOTS) await el.screenshot({ path: path.join(artifacts, `${spec}-${name}.png`) });
}

export function account(terminal: Terminal, name: AccountName) {
  const creds = terminal.credentials();
  const a = creds.accounts.find((x) => x.name === name);
  if (!a) throw new Error(`no provisioned account ${name}`);
  return { ...a, baseUrl: creds.base_url, wsUrl: creds.ws_url };
}

/** The terminal's own REST client, signed with a provisioned account's key (or another key of it). */
export function restAs(terminal: Terminal, name: AccountName, key?: { keyId: string; privateKeyPem: string }): ApiClient {
  const a = account(terminal, name);
  return createApiClient({
    profile: { kind: 'custom', name: 'e2e', baseUrl: a.baseUrl, wsUrl: a.wsUrl, headerPrefix: 'SVC-' },
    credentials: key ?? { keyId: a.api_key_id, privateKeyPem: a.private_key_pem },
  });
}

/**
 * Waits for an element to be shown, as expect(...).toBeVisible() does (the same deadline), for an
 * element that is not in the page yet: while its locator finds nothing, each of expect's polls also
 * has the page build an accessibility snapshot of the whole document for a failure's report
 * (Playwright 1.65): about a second of the page's CPU in every test's start, measured, on a
 * machine whose two cores the e2e stage keeps busy.
 */
export async function appears(locator: Locator, timeout = 15_000): Promise<void> {
  await locator.waitFor({ state: 'visible', timeout });
}

/** Opens the terminal and waits until it is live (status bar) with markets listed. */
export async function openTerminal(page: Page, terminal: Terminal): Promise<void> {
  await page.goto(terminal.url);
  await appears(page.locator('.app-top').filter({ hasText: 'Event Terminal' }));
  await appears(marketsTable(page).locator('tbody tr').first(), 30_000);
}

/** Focuses a panel by its default key (Alt+digit), as a trader would. */
const PANEL_KEYS = {
  markets: 'Alt+Digit1',
  ladder: 'Alt+Digit2',
  ticket: 'Alt+Digit3',
  chart: 'Alt+Digit4',
  orders: 'Alt+Digit5',
  positions: 'Alt+Digit6',
  rfq: 'Alt+Digit7',
  account: 'Alt+Digit8',
  history: 'Alt+Digit9',
  livedata: 'Alt+Digit0',
  fcm: 'Alt+Minus',
  risk: 'Alt+Equal',
} as const;
export type PanelName = keyof typeof PANEL_KEYS;

export function panel(page: Page, id: PanelName): Locator {
  return page.locator(`[data-panel="${id}"]`);
}

export async function showPanel(page: Page, id: PanelName): Promise<Locator> {
  await page.keyboard.press(PANEL_KEYS[id]);
  const p = panel(page, id);
  await appears(p);
  // a panel just added takes focus a frame later: let that frame pass, so a focus the spec puts
  // somewhere next is not moved after it (src-renderer/lib/focus-later.ts)
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  return p;
}

export function marketsTable(page: Page): Locator {
  return page.getByRole('region', { name: /^Markets: arrows move/ });
}

export interface MarketRowInfo {
  index: number;
  ticker: string;
  bid: number;
  ask: number;
  /** bid and ask shown at two decimals: a market that trades in cents there */
  cents: boolean;
}

/** The markets list as shown (ticker, YES bid, YES ask per row). */
export async function listedMarkets(page: Page): Promise<MarketRowInfo[]> {
  const rows = await marketsTable(page)
    .locator('tbody tr:not([aria-hidden])')
    .evaluateAll((trs) => trs.map((tr) => ['ticker', 'bid', 'ask'].map((c) => tr.querySelector(`td[data-col="${c}"]`)?.textContent?.trim() ?? '')));
  // by column id: a narrow list hides some of its columns (title, volume, ...), never these
  const twoDecimals = (t: string | undefined) => /^\d\.\d\d$/.test(t ?? '');
  return rows.map(([ticker, bid, ask], index) => ({ index, ticker: ticker ?? '', bid: Number(bid), ask: Number(ask), cents: twoDecimals(bid) && twoDecimals(ask) }));
}

/**
 * Picks a two-sided market near the middle of the price range (room to move an order away from
 * the inside), trading in cents there (the specs type and read cent prices), and selects it by
 * keyboard: focus Markets, arrow down to it, Enter.
 */
export async function selectLivelyMarket(page: Page, opts: { exclude?: string[] } = {}): Promise<string> {
  let pick: MarketRowInfo | undefined;
  await expect
    .poll(
      async () => {
        const rows = await listedMarkets(page);
        const fit = rows.filter((r) => r.cents && r.bid >= 0.25 && r.ask <= 0.75 && r.ask - r.bid <= 0.05 && r.ask > r.bid && !opts.exclude?.includes(r.ticker));
        // the one closest to 0.50
        pick = fit.sort((a, b) => Math.abs(a.bid + a.ask - 1) - Math.abs(b.bid + b.ask - 1))[0];
        return pick?.ticker ?? null;
      },
      { message: 'an open two-sided market between 0.25 and 0.75', timeout: 30_000 },
    )
    .not.toBeNull();
  const target = pick!;
  await page.keyboard.press(PANEL_KEYS.markets);
  const table = marketsTable(page);
  // The live list may re-render (and move focus or rows) between reading it and arrowing through
  // it: read where the market is now, Home, arrow to it, and try again if it did not land there.
  await expect(async () => {
    const at = (await listedMarkets(page)).findIndex((r) => r.ticker === target.ticker);
    expect(at).toBeGreaterThanOrEqual(0);
    await table.focus();
    await page.keyboard.press('Home');
    for (let i = 0; i < at; i++) await page.keyboard.press('ArrowDown');
    await expect(table.locator('tbody tr.active-row')).toContainText(target.ticker, { timeout: 5_000 });
  }).toPass({ timeout: 90_000 }); // each try is bounded by the machine's speed, not the wait: the test's timeout bounds it
  await page.keyboard.press('Enter');
  await expect(page.locator('.app-top')).toContainText(target.ticker);
  // a ladder's keys act on the book it shows: wait until the main ladder shows this market's book
  // (a key pressed before it has one does nothing)
  const grid = page.getByRole('grid', { name: new RegExp(`^Price ladder for ${target.ticker},`) }).first();
  if ((await page.getByRole('grid', { name: /^Price ladder for / }).count()) > 0) {
    await expect.poll(() => grid.locator('[data-cell="ask"] .qty').evaluateAll((qs) => qs.some((q) => (q.textContent ?? '') !== '')), { message: `the ladder shows the book of ${target.ticker}`, timeout: 30_000 }).toBe(true);
  }
  return target.ticker;
}

export function ladder(page: Page): Locator {
  return page.getByRole('grid', { name: /^Price ladder for / });
}

/** The painted ladder rows: price, bid size, ask size and my cells, as text. */
export async function ladderRows(page: Page): Promise<{ price: string; bid: string; ask: string; myBid: string; myAsk: string; cls: string }[]> {
  return ladder(page)
    .locator('.ladder-row')
    .evaluateAll((rows) =>
      rows
        .filter((r) => (r as HTMLElement).style.visibility !== 'hidden')
        .map((r) => {
          const t = (sel: string) => r.querySelector(sel)?.textContent ?? '';
          return { price: t('[data-cell="price"]'), bid: t('[data-cell="bid"] .qty'), ask: t('[data-cell="ask"] .qty'), myBid: t('[data-cell="mybid"]'), myAsk: t('[data-cell="myask"]'), cls: r.className };
        }),
    );
}

/** Row element of the ladder at a price label ("0.53"). */
export function ladderRowAt(page: Page, price: string): Locator {
  return ladder(page).locator('.ladder-row').filter({ has: page.locator(`[data-cell="price"]:text-is("${price}")`) });
}

/** The Orders panel's row for an order id (in the tab shown). */
export function orderRow(page: Page, text: string): Locator {
  // by its text, or by its order id (the row's key: the Order id column gives way on a narrow panel)
  const rows = panel(page, 'orders').locator('tbody tr');
  return rows.filter({ hasText: text }).or(rows.and(page.locator(`[data-row-id="${text}"]`)));
}

/** Problems minus Chromium's own noise: nothing is filtered today, kept for one place to justify it. */
/** The one-time code the web host printed on its console after log line `from` (out-of-band confirmation). */
export async function consoleCode(terminal: Terminal, from: number): Promise<string> {
  const find = () => terminal.logs.slice(from).map((l) => /type this code in the page: (\d{6})/.exec(l)?.[1]).filter(Boolean).pop();
  await expect.poll(find).toBeTruthy();
  return find()!;
}

export function realProblems(problems: readonly string[]): string[] {
  return [...problems];
}

/** The element's content fits its box: nothing (a button, a number) is cut off by overflow. */
export async function expectUnclipped(el: Locator): Promise<void> {
  const [client, scroll] = await el.evaluate((e) => [e.clientWidth, e.scrollWidth]);
  expect(scroll, 'content wider than its cell is clipped').toBeLessThanOrEqual(client);
}

/** Closes every toast (they stack over the bottom-right blotters), e.g. before a close-up. */
export async function dismissToasts(page: Page): Promise<void> {
  const close = page.locator('.toast').getByRole('button', { name: 'Dismiss' });
  // a notice may go by itself between the count and the click: that click is not waited for
  while ((await close.count()) > 0) await close.first().click({ timeout: 2_000 }).catch(() => undefined);
}

/** The text of a row's cell under the column with this header (column order may change). */
export async function cellUnder(table: Locator, row: Locator, header: string): Promise<string> {
  const headers = (await table.locator('thead th').allInnerTexts()).map((h) => h.trim());
  const i = headers.findIndex((h) => h === header);
  if (i < 0) throw new Error(`no column "${header}" in [${headers.join(' | ')}]`);
  return (await row.locator('td').nth(i).innerText()).trim();
}

/** The depth heatmap's panel. */
export const heatPanel = (page: Page) => page.locator('[data-panel="heatmap"] .panel.heatmap');

/** Opens the depth heatmap from the command palette, as a trader does, and waits for its book. */
export async function openHeatmap(page: Page): Promise<void> {
  await page.keyboard.press('Control+KeyK');
  await page.getByRole('dialog', { name: /Command palette/ }).getByRole('combobox').fill('Open depth heatmap');
  await page.getByRole('option', { name: /Open depth heatmap/ }).click();
  await appears(heatPanel(page).locator('canvas.heatmap-canvas'));
  await expect(heatPanel(page).getByRole('status')).toHaveCount(0, { timeout: 120_000 });
}

/**
 * Types a size on the focused ladder (digits, then Enter) and waits until its foot says it is
 * set. The digits are tried again (Escape first) until the foot shows them: a key pressed while
 * the ladder re-renders its rows may land before its focus does.
 */
export async function setLadderSize(page: Page, size: number): Promise<void> {
  const typed = page.locator('.ladder-foot').getByTestId('ladder-typed');
  await expect(async () => {
    await ladder(page).focus();
    await page.keyboard.press('Escape');
    await page.keyboard.press('c');
    for (const d of String(size)) await page.keyboard.press(d);
    await expect(typed).toHaveText(new RegExp(`Typing size ${size}(?!\\d)`), { timeout: 5_000 });
  }).toPass({ timeout: 90_000 });
  await page.keyboard.press('Enter');
  await expect(page.locator('.ladder-foot')).toContainText(`Size ${size}`);
}

/**
 * B on the ladder until a bid of ours rests in `ticker` (a row in the Orders panel, shown, and
 * my cell on the ladder). On the lively sim an order that joins the bid can fill before it is
 * seen resting (a taker sells the whole level, a maker's falling offer crosses it); the fill's
 * toast ("Bought 1 YES …") says so, and B goes again. Anything else (a refusal) fails with the
 * page's own words. Returns how many orders B placed (the last one rests).
 */
export async function restAtBid(page: Page, ticker: string): Promise<number> {
  const bought = (l: string) => /Bought \d+ YES /.test(l) && l.includes(` YES ${ticker}`);
  for (let tries = 1; ; tries++) {
    const mark = await saidMark(page);
    await ladder(page).focus();
    await page.keyboard.press('b');
    let filled = false;
    await expect
      .poll(
        async () => {
          if ((await orderRow(page, ticker).count()) > 0 && (await ladder(page).locator('[data-cell="mybid"] .mine').count()) > 0) return 'rests';
          const since = await saidSince(page, mark);
          filled = since.some(bought);
          return filled ? 'filled' : since.join(' | ') || 'nothing said yet';
        },
        { message: `a bid of ours resting in ${ticker} after B`, timeout: 60_000 },
      )
      .toMatch(/^(rests|filled)$/);
    if (!filled) return tries;
    expect(tries, `B filled ${tries} times in a row in ${ticker}: never rested`).toBeLessThan(5);
  }
}

/** Records every watched market for `ms` from the Recordings panel (Alt+Shift+D); returns the panel. */
export async function recordFor(page: Page, name: string, ms: number): Promise<Locator> {
  await page.keyboard.press('Alt+Shift+D');
  const rec = page.getByTestId('recordings-panel');
  await appears(rec);
  await rec.getByLabel('Recording name').fill(name);
  await rec.getByRole('button', { name: 'Start recording' }).click();
  await expect(rec.getByTestId('recording-now')).toContainText(name);
  await page.waitForTimeout(ms); // the recording's own length
  await rec.getByRole('button', { name: 'Stop recording' }).click();
  await expect(rec.getByTestId('recording-now')).toHaveCount(0);
  return rec;
}
