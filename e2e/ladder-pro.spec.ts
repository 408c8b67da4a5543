// The ladder's professional columns and keys through the web host (issue 24): Alt+[ bids one
// tick better than the inside and the exchange holds exactly the order the ladder shows; Alt+Shift+[
// cancels my bids there and the exchange holds none. The columns are screenshotted on the lively
// simulation.
import { test as base, expect } from '@playwright/test';
import { startTerminal, watchConsole, type Terminal } from './fixtures';
import { ladder, ladderRows, openTerminal, realProblems, restAs, selectLivelyMarket, shotOf } from './helpers';
import { Decimal } from '../src-shared/money';

const S = 'ladder-pro';

const test = base.extend<{ problems: string[] }>({
  problems: async ({ page }, use) => {
    await use(watchConsole(page));
  },
});

async function restingAtExchange(terminal: Terminal, ticker: string): Promise<{ side: string; price: string }[]> {
  const trader = restAs(terminal, 'trader');
  return (await trader.getOrders({ query: { ticker } })).orders
    .filter((o) => String(o.status) === 'resting')
    .map((o) => ({ side: String(o.book_side), price: new Decimal(String(o.yes_price_dollars ?? '0')).toFixed(2) }));
}

test('Alt+[ improves the bid to the order the ladder shows; Alt+Shift+[ cancels my bids', async ({ page, problems }) => {
  const t = await startTerminal({ sim: false });
  try {
    await openTerminal(page, t.terminal);
    const ticker = await selectLivelyMarket(page);
    await page.keyboard.press('Alt+Digit2');
    await expect(ladder(page)).toBeFocused();
    // the ladder has painted this market's inside
    await expect.poll(async () => (await ladderRows(page)).filter((r) => r.cls.includes('best-bid') || r.cls.includes('best-ask')).length, { timeout: 30_000 }).toBe(2);
    const before = await ladderRows(page);
    const bestBid = before.find((r) => r.cls.includes('best-bid'))!.price;
    const bestAsk = before.find((r) => r.cls.includes('best-ask'))!.price;
    await page.keyboard.press('Alt+BracketLeft');
    // the ladder shows my bid; the exchange holds that one order, at that price, on that side
    await expect.poll(async () => (await ladderRows(page)).filter((r) => r.myBid.trim() !== '').map((r) => r.price), { timeout: 20_000 }).toHaveLength(1);
    const shown = (await ladderRows(page)).find((r) => r.myBid.trim() !== '')!.price;
    expect(new Decimal(shown).gte(bestBid)).toBe(true);
    expect(new Decimal(shown).lt(bestAsk), 'improving never crosses').toBe(true);
    await expect.poll(() => restingAtExchange(t.terminal, ticker), { timeout: 20_000 }).toEqual([{ side: 'bid', price: new Decimal(shown).toFixed(2) }]);

    await page.keyboard.press('Alt+Shift+BracketLeft');
    await expect.poll(() => restingAtExchange(t.terminal, ticker), { timeout: 20_000 }).toEqual([]);
    await expect.poll(async () => (await ladderRows(page)).filter((r) => r.myBid.trim() !== '').length, { timeout: 20_000 }).toBe(0);
    expect(realProblems(problems)).toEqual([]);
  } finally {
    await t.stop();
  }
});

test('the columns on the lively simulation (screenshot)', async ({ page }) => {
  const t = await startTerminal({ sim: true });
  try {
    await openTerminal(page, t.terminal);
    await selectLivelyMarket(page);
    const panelEl = page.locator('[data-panel="ladder"]');
    // trades arrive: some row shows volume
    await expect.poll(async () => ladder(page).locator('[data-cell="vol"]').evaluateAll((cs) => cs.some((c) => (c.textContent ?? '').trim() !== '')), { timeout: 60_000 }).toBe(true);
    await expect.poll(async () => ladder(page).locator('[data-cell="cumbid"]').evaluateAll((cs) => cs.some((c) => (c.textContent ?? '').trim() !== '')), { timeout: 20_000 }).toBe(true);
    await shotOf(panelEl, S, '01-ladder-columns');
  } finally {
    await t.stop();
  }
});
