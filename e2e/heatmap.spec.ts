// The depth heatmap in a real browser on the lively simulation: opened from the command palette
// ("Open depth heatmap"), it shows the linked market's book through time on its canvas; the
// newest column's ink sits on the prices the book holds (e2e/truth/heatmap.ts); a click on a price
// centres the ladder on it; dragging back pauses it and Live returns. Screenshots at 1280x720 and
// 1600x1000 (e2e/artifacts/heatmap-*.png).
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { heatPanel as heat, ladderRows, listedMarkets, marketsTable, openHeatmap, openTerminal, realProblems, shot, shotOf } from './helpers';
import { heatmapLatestMismatches } from './truth/heatmap';

/** A two-sided market near 0.50, chosen by a click on its row in the Markets list. */
async function pickMarket(page: Page): Promise<string> {
  let ticker: string | null = null;
  await expect
    .poll(async () => {
      const rows = (await listedMarkets(page)).filter((r) => r.cents && r.bid >= 0.2 && r.ask <= 0.8 && r.ask > r.bid);
      ticker = rows.sort((a, b) => Math.abs(a.bid + a.ask - 1) - Math.abs(b.bid + b.ask - 1))[0]?.ticker ?? null;
      return ticker;
    }, { timeout: 180_000 })
    .not.toBeNull();
  await marketsTable(page).locator('tbody tr', { hasText: ticker! }).first().click();
  await expect(page.locator('.app-top')).toContainText(ticker!);
  return ticker!;
}

// a failed run prints the host's last lines (a host that died says why there)
test.afterEach(({ terminal }, info) => {
  if (info.status !== info.expectedStatus) console.log(`host log (last 40 lines):\n${terminal.logs.slice(-40).join('\n')}`);
});

for (const size of [
  { width: 1280, height: 720 },
  { width: 1600, height: 1000 },
]) {
  test(`depth heatmap at ${size.width}x${size.height}: opens from the palette, its newest column is the book, a click centres the ladder`, async ({ page, terminal, problems }) => {
    // a loaded machine's sim takes its time to quote both sides (waits are on conditions)
    test.setTimeout(600_000);
    await page.setViewportSize(size);
    await openTerminal(page, terminal);
    const ticker = await pickMarket(page);
    await openHeatmap(page);
    await expect(heat(page)).toHaveAttribute('data-ticker', ticker);
    // a few seconds of history
    await page.waitForTimeout(4000);
    await expect.poll(async () => (await heatmapLatestMismatches(page)).checked, { message: 'rows checked in the newest column' }).toBeGreaterThan(0);
    // the newest column against the ladder's book, sampled for a few seconds: a mismatch that
    // lasts two samples in a row fails
    let prev = new Set<string>();
    let judged = 0;
    for (let i = 0; i < 15; i++) {
      const truth = await heatmapLatestMismatches(page);
      judged += truth.checked;
      const lasting = truth.wrong.filter((w) => prev.has(w));
      expect(lasting, `sample ${i}: ${JSON.stringify(truth)}`).toEqual([]);
      prev = new Set(truth.wrong);
    }
    expect(judged).toBeGreaterThan(30);

    // a click on a price centres the ladder there (it stops following)
    const canvas = heat(page).locator('canvas.heatmap-canvas');
    const box = (await canvas.boundingBox())!;
    const y = Math.round(box.height * 0.3);
    await canvas.click({ position: { x: Math.round(box.width * 0.5), y } });
    const price = await canvas.evaluate((c, yy) => {
      const d = (c as HTMLCanvasElement).dataset;
      const top = Number(d.top);
      const step = Number(d.step);
      return (top - Math.floor(yy / Number(d.rowPx)) * step) / 10_000;
    }, y);
    await expect.poll(async () => (await ladderRows(page)).map((r) => Number(r.price)).includes(price), { message: `the ladder shows ${price}` }).toBe(true);
    const rows = await ladderRows(page);
    const at = rows.findIndex((r) => Number(r.price) === price);
    expect(Math.abs(at - Math.floor(rows.length / 2))).toBeLessThanOrEqual(1);

    // drag back in time: paused; Live returns. There is a past to go back to only once the history
    // is longer than the canvas shows: the widest buckets, and a drag again until it is
    await heat(page).getByLabel('Pixels per bucket').selectOption('6');
    await expect(async () => {
      const b = (await canvas.boundingBox())!;
      await canvas.hover({ position: { x: Math.round(b.width * 0.5), y: Math.round(b.height * 0.5) } });
      await page.mouse.down();
      await page.mouse.move(b.x + b.width * 0.95, b.y + b.height * 0.5, { steps: 6 });
      await page.mouse.up();
      await expect(heat(page).getByText(/Paused at/)).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 120_000 });
    await shotOf(heat(page), 'heatmap', `${size.width}x${size.height}-paused`);
    await heat(page).getByRole('button', { name: /Live/ }).click();
    await expect(heat(page).getByText(/Paused at/)).toHaveCount(0);
    await page.waitForTimeout(1500);
    await shot(page, 'heatmap', `${size.width}x${size.height}`);
    await shotOf(heat(page), 'heatmap', `${size.width}x${size.height}-panel`);
    expect(realProblems(problems)).toEqual([]);
  });
}
