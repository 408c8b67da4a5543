// Picking the market to trade, made to hold on a slow machine: the shared keyboard walk
// (helpers.selectLivelyMarket) arrows through a live list that re-renders under it, with two
// seconds for each try; on a machine at load 30 it never landed. Here the same pick (a
// two-sided market near 0.50, trading in cents there) is opened with a double click on its row
// (the list's other way to open a market), each wait on a condition, as long as the run allows.
// Never a market the simulation added (its ticker has -SIM): it closes within the run.
import { expect, type Page } from '@playwright/test';
import { listedMarkets, marketsTable } from '../helpers';
import { SIM_MARKET_MARK } from '../../src-exchange/sim/lifecycle';

export async function openLivelyMarket(page: Page, timeout = 180_000): Promise<string> {
  let ticker: string | null = null;
  await expect
    .poll(
      async () => {
        const fit = (await listedMarkets(page)).filter((r) => !r.ticker.includes(SIM_MARKET_MARK) && r.cents && r.bid >= 0.25 && r.ask <= 0.75 && r.ask - r.bid <= 0.05 && r.ask > r.bid);
        ticker = fit.sort((a, b) => Math.abs(a.bid + a.ask - 1) - Math.abs(b.bid + b.ask - 1))[0]?.ticker ?? null;
        return ticker;
      },
      { message: 'an open two-sided market between 0.25 and 0.75', timeout },
    )
    .not.toBeNull();
  const target = ticker!;
  const top = page.locator('.app-top');
  await expect(async () => {
    await marketsTable(page).locator(`tbody tr[data-row-id="${target}"] td[data-col="ticker"]`).dblclick({ timeout: 20_000 });
    await expect(top).toContainText(target, { timeout: 20_000 });
  }).toPass({ timeout });
  // a ladder's keys act on the book it shows: wait until the main ladder shows this market's book
  const grid = page.getByRole('grid', { name: new RegExp(`^Price ladder for ${target},`) }).first();
  await expect
    .poll(() => grid.locator('[data-cell="ask"] .qty').evaluateAll((qs) => qs.some((q) => (q.textContent ?? '') !== '')), { message: `the ladder shows the book of ${target}`, timeout })
    .toBe(true);
  return target;
}
