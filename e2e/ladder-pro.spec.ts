// The ladder's professional columns and keys through the web host (issue 24): Alt+[ bids one
// tick better than the inside and the exchange holds exactly the order the ladder shows; Alt+Shift+[
// cancels my bids there and the exchange holds none. The columns are screenshotted on the lively
// simulation.
import { expect, type Locator, type Page } from '@playwright/test';
import { pageTest as test, startTerminal, type Terminal } from './fixtures';
import { ladder, ladderRows, openTerminal, realProblems, restAs, selectLivelyMarket, shotOf } from './helpers';
import { Decimal } from '../src-shared/money';

const S = 'ladder-pro';

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
    const ticker = await selectLivelyMarket(page);
    const panelEl = page.locator('[data-panel="ladder"]');
    // a trade arrives: another party buys one contract at the best offer, and its row shows volume.
    // Not left to the simulation, whose takers reach a quiet market's book a few times a minute at
    // best on a loaded machine (the first-session spec waited 45 s in vain for its book to move).
    const cp = restAs(t.terminal, 'counterparty');
    const book = await cp.getOrderbook({ params: { ticker } });
    const bestAsk = (book.orderbook_fp.no_dollars ?? []).map(([p]) => new Decimal(1).minus(p)).sort((x, y) => x.comparedTo(y))[0];
    expect(bestAsk, `an offer in ${ticker}`).toBeDefined();
    // two cents through it, should the offer move up meanwhile (it fills at the offer's own price)
    await cp.createOrder({ body: { ticker, side: 'bid', price: Decimal.min(bestAsk!.plus('0.02'), '0.99').toFixed(4), count: '1.00', time_in_force: 'immediate_or_cancel', client_order_id: crypto.randomUUID() } });
    await expect.poll(async () => ladder(page).locator('[data-cell="vol"]').evaluateAll((cs) => cs.some((c) => (c.textContent ?? '').trim() !== '')), { message: 'a row of the ladder shows volume' }).toBe(true);
    await expect.poll(async () => ladder(page).locator('[data-cell="cumbid"]').evaluateAll((cs) => cs.some((c) => (c.textContent ?? '').trim() !== '')), { timeout: 20_000 }).toBe(true);
    await shotOf(panelEl, S, '01-ladder-columns');
  } finally {
    await t.stop();
  }
});

async function ordersAtExchange(terminal: Terminal, ticker: string): Promise<{ side: string; price: string; count: string; status: string }[]> {
  const trader = restAs(terminal, 'trader');
  return (await trader.getOrders({ query: { ticker } })).orders.map((o) => ({
    side: String(o.book_side),
    price: new Decimal(String(o.yes_price_dollars ?? '0')).toFixed(2),
    count: new Decimal(String(o.initial_count_fp ?? o.remaining_count_fp ?? '0')).toFixed(0),
    status: String(o.status),
  }));
}

async function positionAtExchange(terminal: Terminal, ticker: string): Promise<string> {
  const trader = restAs(terminal, 'trader');
  const p = (await trader.getPositions({ query: { ticker } })).market_positions.find((m) => m.ticker === ticker);
  return new Decimal(String(p?.position_fp ?? '0')).toFixed(0);
}

/** The ladder focused on a lively market with its book painted; its foot, the set size and its text now. */
async function ladderWithFoot(page: Page, terminal: Terminal) {
  await openTerminal(page, terminal);
  const ticker = await selectLivelyMarket(page);
  await page.keyboard.press('Alt+Digit2');
  await expect(ladder(page)).toBeFocused();
  await expect.poll(async () => (await ladderRows(page)).filter((r) => r.cls.includes('best-bid')).length, { timeout: 30_000 }).toBe(1);
  const foot = page.locator('[data-panel="ladder"] .ladder-foot');
  const size = foot.getByTestId('ladder-size');
  return { ticker, foot, size, before: (await size.textContent())! };
}

test('typed size: digits then Enter set the size (Esc abandons, 0 and over the limit refused), nothing is sent while typing', async ({ page, problems }) => {
  const t = await startTerminal({ sim: false });
  try {
    const { ticker, foot, size, before } = await ladderWithFoot(page, t.terminal);

    // typing shows in the foot; the presets 1-5 do not fire here (the size stays as it was)
    await page.keyboard.press('2');
    await page.keyboard.press('5');
    await expect(foot.getByTestId('ladder-typed')).toContainText('Typing size 25');
    await expect(size).toHaveText(before);
    // an order key while a size is typed but not set sends nothing
    await page.keyboard.press('BracketLeft');
    await page.keyboard.press('Alt+BracketLeft');
    await page.keyboard.press('KeyB');
    await expect(foot.getByTestId('ladder-typed-note')).toContainText('Nothing sent');
    await shotOf(page.locator('[data-panel="ladder"]'), S, '02-typed-size');
    // Esc abandons
    await page.keyboard.press('Escape');
    await expect(foot.getByTestId('ladder-typed')).toHaveCount(0);
    await expect(size).toHaveText(before);
    // 0 and over the risk limit's contracts per order (1,000 by default) are refused, size unchanged
    await page.keyboard.press('0');
    await page.keyboard.press('Enter');
    await expect(foot.getByTestId('ladder-typed-note')).toContainText('Size 0 is not a size');
    await expect(size).toHaveText(before);
    for (const d of '5000') await page.keyboard.press(d);
    await page.keyboard.press('Enter');
    await expect(foot.getByTestId('ladder-typed-note')).toContainText('over the largest order the risk limits allow (1,000 contracts)');
    await expect(size).toHaveText(before);
    // 7 then Enter sets the size 7, sends nothing
    await page.keyboard.press('7');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('3');
    await page.keyboard.press('Enter');
    await expect(size).toHaveText('3');
    await expect(foot.getByTestId('ladder-typed-note')).toContainText('Size set to 3');
    expect(await ordersAtExchange(t.terminal, ticker), 'typing a size never sends an order').toEqual([]);
    // the next order carries it: Alt+[ bids 3
    await page.keyboard.press('Alt+BracketLeft');
    await expect.poll(async () => (await ordersAtExchange(t.terminal, ticker)).map((o) => o.count), { timeout: 20_000 }).toEqual(['3']);
    expect(realProblems(problems)).toEqual([]);
  } finally {
    await t.stop();
  }
});

test('typed size: a market switch from the Markets list abandons the digits typed for the market before', async ({ page, problems }) => {
  const t = await startTerminal({ sim: false });
  try {
    const { ticker: first, foot, size, before } = await ladderWithFoot(page, t.terminal);
    await page.keyboard.press('2');
    await page.keyboard.press('5');
    await expect(foot.getByTestId('ladder-typed')).toContainText('Typing size 25');

    // Alt+1, a row of another market, Enter: the linked ladder changes market
    const second = await selectLivelyMarket(page, { exclude: [first] });
    await expect(ladder(page)).toHaveAttribute('aria-label', new RegExp(`^Price ladder for ${second},`));
    await expect(foot.getByTestId('ladder-typed')).toHaveCount(0);
    await expect(foot.getByTestId('ladder-typed-note')).toContainText(`Typed size 25 abandoned: the ladder changed market to ${second}`);
    await shotOf(page.locator('[data-panel="ladder"]'), S, '04-typed-size-abandoned');
    // back on the ladder, Enter sets nothing; B is not refused for digits that are gone
    await page.keyboard.press('Alt+Digit2');
    await expect(ladder(page)).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(size).toHaveText(before);
    expect(await ordersAtExchange(t.terminal, first), 'nothing was sent in the first market').toEqual([]);
    await page.keyboard.press('KeyB');
    await expect.poll(async () => (await ordersAtExchange(t.terminal, second)).map((o) => o.count), { timeout: 20_000 }).toEqual([before]);
    await expect(page.locator('.toast').filter({ hasText: 'Nothing sent' })).toHaveCount(0);
    expect(realProblems(problems)).toEqual([]);
  } finally {
    await t.stop();
  }
});

test('Improve 3: Alt+[ bids three rows better than the inside, never crossing', async ({ page, problems }) => {
  const t = await startTerminal({ sim: false });
  try {
    await openTerminal(page, t.terminal);
    const ticker = await selectLivelyMarket(page);
    // widen the spread so three rows differ from one: another party takes the two best offers
    const cp = restAs(t.terminal, 'counterparty');
    for (let i = 0; i < 2; i++) {
      const b = await cp.getOrderbook({ params: { ticker } });
      const asks = (b.orderbook_fp.no_dollars ?? []).map(([p, c]) => ({ price: new Decimal(1).minus(p), count: new Decimal(c) })).sort((x, y) => x.price.comparedTo(y.price));
      const best = asks[0]!;
      await cp.createOrder({ body: { ticker, side: 'bid', price: best.price.toFixed(4), count: best.count.toFixed(2), time_in_force: 'immediate_or_cancel', client_order_id: crypto.randomUUID() } });
    }
    // Improve is behind "⋯" on a ladder narrower than 700 px (the default layout's is ~370)
    const ladderPanel = page.locator('[data-panel="ladder"]');
    const more = ladderPanel.getByRole('button', { name: 'More ladder settings' });
    if (await more.isVisible()) await more.click();
    await ladderPanel.getByLabel('Improve by rows').selectOption('3');
    if (await more.isVisible()) await page.keyboard.press('Escape');
    await page.keyboard.press('Alt+Digit2');
    await expect(ladder(page)).toBeFocused();
    const spread = async () => {
      const r = await ladderRows(page);
      const bid = r.find((x) => x.cls.includes('best-bid'));
      const ask = r.find((x) => x.cls.includes('best-ask'));
      return bid && ask ? new Decimal(ask.price).minus(bid.price).toNumber() : 0;
    };
    await expect.poll(spread, { message: 'the ladder shows a spread of at least 4 rows', timeout: 30_000 }).toBeGreaterThanOrEqual(0.04);
    const rows = await ladderRows(page);
    const bestBid = new Decimal(rows.find((r) => r.cls.includes('best-bid'))!.price);
    const bestAsk = new Decimal(rows.find((r) => r.cls.includes('best-ask'))!.price);
    const want = Decimal.min(bestBid.plus('0.03'), bestAsk.minus('0.01')).toFixed(2);
    expect(new Decimal(want).minus(bestBid).gt('0.01'), 'three rows land past where one would').toBe(true);
    await page.keyboard.press('Alt+BracketLeft');
    await expect.poll(() => restingAtExchange(t.terminal, ticker), { timeout: 20_000 }).toEqual([{ side: 'bid', price: want }]);
    expect(new Decimal(want).lt(bestAsk), 'never crosses').toBe(true);
    expect(realProblems(problems)).toEqual([]);
  } finally {
    await t.stop();
  }
});

test('Shift+R reverses YES 2 into NO 2 after a question that focuses Keep; the kill switch refuses it', async ({ page, problems }) => {
  const t = await startTerminal({ sim: false });
  try {
    await openTerminal(page, t.terminal);
    const ticker = await selectLivelyMarket(page);
    await page.keyboard.press('Alt+Digit2');
    await expect.poll(async () => (await ladderRows(page)).filter((r) => r.cls.includes('best-ask')).length, { timeout: 30_000 }).toBe(1);
    // hold YES 2: size 2, Shift+B crosses the offer
    await page.keyboard.press('2');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Shift+KeyB');
    await expect.poll(() => positionAtExchange(t.terminal, ticker), { timeout: 20_000 }).toBe('2');
    await expect(page.locator('[data-panel="ladder"] .ladder-foot')).toContainText('Position 2');

    // the question focuses Keep: Enter keeps the position
    await page.keyboard.press('Shift+KeyR');
    const ask = page.getByRole('dialog', { name: 'Reverse position?' });
    await expect(ask).toContainText('You hold 2 YES');
    await expect(ask).toContainText('to hold 2 NO');
    await expect(ask.getByRole('button', { name: 'Keep' })).toBeFocused();
    await shotOf(ask, S, '03-reverse-asks');
    await page.keyboard.press('Enter');
    await expect(ask).toBeHidden();
    expect(await positionAtExchange(t.terminal, ticker)).toBe('2');

    // Reverse: one sell of 4 at the bid, through the gate; the position is NO 2
    await page.keyboard.press('Shift+KeyR');
    await ask.getByRole('button', { name: 'Reverse' }).click();
    await expect.poll(() => positionAtExchange(t.terminal, ticker), { timeout: 20_000 }).toBe('-2');
    const sells = (await ordersAtExchange(t.terminal, ticker)).filter((o) => o.side === 'ask');
    expect(sells.map((o) => o.count)).toEqual(['4']);

    // with the kill switch on, Reverse is refused: no question, no order, the position stays
    await page.keyboard.press('ControlOrMeta+Shift+KeyK');
    await expect(page.getByRole('contentinfo', { name: 'Status' })).toContainText('KILL SWITCH ON');
    const ordersBefore = (await ordersAtExchange(t.terminal, ticker)).length;
    await ladder(page).focus();
    await page.keyboard.press('Shift+KeyR');
    await expect(page.locator('.toast').filter({ hasText: `Reverse ${ticker} refused` })).toHaveCount(1);
    await expect(ask).toHaveCount(0);
    expect((await ordersAtExchange(t.terminal, ticker)).length).toBe(ordersBefore);
    expect(await positionAtExchange(t.terminal, ticker)).toBe('-2');
    expect(realProblems(problems)).toEqual([]);
  } finally {
    await t.stop();
  }
});

/** Drags the dock's sash at the right edge of the ladder's group so the ladder is `width` px wide, as a trader would. */
async function setLadderWidth(page: Page, width: number): Promise<void> {
  const box = await page.evaluate(() => {
    const g = document.querySelector('[data-panel="ladder"]')?.closest('.dv-groupview');
    if (!g) return null;
    const r = g.getBoundingClientRect();
    return { left: r.left, right: r.right, y: r.top + Math.min(60, r.height / 2) };
  });
  if (!box) throw new Error('no dock group holds the ladder');
  await page.mouse.move(box.right, box.y);
  await page.mouse.down();
  await page.mouse.move(box.left + width, box.y, { steps: 8 });
  await page.mouse.up();
  await expect.poll(() => page.locator('[data-panel="ladder"]').evaluate((el) => Math.round(el.getBoundingClientRect().width))).toBe(width);
}

/** Every control shown on the ladder's bar sits on its one line, whole, left of the link chip. */
async function barLayout(bar: Locator): Promise<{ height: number; problems: string[] }> {
  return bar.evaluate((el) => {
    const b = el.getBoundingClientRect();
    const chip = el.closest('.panel')?.parentElement?.querySelector('.link-chip')?.getBoundingClientRect();
    const problems: string[] = [];
    const shown = [...el.querySelectorAll<HTMLElement>('button, select, .ladder-name, [data-testid="ladder-open"]')].filter((c) => !c.closest('.ladder-tools.is-open') && c.getBoundingClientRect().width > 0);
    for (const c of shown) {
      const r = c.getBoundingClientRect();
      const name = c.getAttribute('aria-label') ?? c.textContent?.trim() ?? c.tagName;
      if (r.top < b.top || r.bottom > b.bottom) problems.push(`${name} is off the bar's line (${Math.round(r.top)}..${Math.round(r.bottom)} in ${Math.round(b.top)}..${Math.round(b.bottom)})`);
      if (r.right > b.right - 4) problems.push(`${name} runs past the bar's right edge`);
      if (chip && r.right > chip.left && r.top < chip.bottom && r.bottom > chip.top) problems.push(`${name} is under the link chip`);
      if (c.scrollWidth > c.clientWidth + 1 && !c.classList.contains('ladder-name')) problems.push(`${name} is cut (${c.scrollWidth} > ${c.clientWidth})`);
    }
    if (!shown.some((c) => c.getAttribute('aria-label') === 'Center')) problems.push('Center is not on the bar');
    return { height: Math.round(b.height), problems };
  });
}

test('the toolbar stays on one line from 280 to 900 px; narrow, the settings open from "⋯" (screenshots)', async ({ page, problems }) => {
  const t = await startTerminal({ sim: false });
  try {
    await openTerminal(page, t.terminal);
    const ticker = await selectLivelyMarket(page);
    // a position, so the bar also carries Avg and P&L (its widest content)
    await page.keyboard.press('Alt+Digit2');
    await expect.poll(async () => (await ladderRows(page)).filter((r) => r.cls.includes('best-ask')).length, { timeout: 30_000 }).toBe(1);
    await page.keyboard.press('Shift+KeyB');
    await expect.poll(() => positionAtExchange(t.terminal, ticker), { timeout: 20_000 }).toBe('1');
    const panelEl = page.locator('[data-panel="ladder"]');
    const bar = panelEl.locator('.panel-bar');
    await expect(panelEl.getByTestId('ladder-open')).toBeVisible();
    const more = panelEl.getByRole('button', { name: 'More ladder settings' });
    const improve = panelEl.getByLabel('Improve by rows');
    for (const width of [280, 320, 600, 900]) {
      await setLadderWidth(page, width);
      const layout = await barLayout(bar);
      await shotOf(panelEl, S, `05-toolbar-${width}`);
      expect(layout.problems, `at ${width} px`).toEqual([]);
      expect(layout.height, `the bar is one line at ${width} px`).toBeLessThanOrEqual(32);
      await expect(panelEl.getByRole('button', { name: 'Center' })).toBeInViewport();
      await expect(panelEl.getByTestId('ladder-open')).toContainText('P&L');
      if (width >= 700) {
        // wide: everything on the bar, no menu
        await expect(more).toBeHidden();
        await expect(improve).toBeVisible();
        continue;
      }
      await expect(improve).toBeHidden();
      await more.click();
      const menu = panelEl.getByRole('group', { name: 'Ladder settings' });
      await expect(improve).toBeVisible();
      // the menu is whole inside the ladder, every setting in it readable
      const fits = await menu.evaluate((m) => {
        const r = m.getBoundingClientRect();
        const p = m.closest('.panel')!.getBoundingClientRect();
        return r.left >= p.left && r.right <= p.right && r.bottom <= p.bottom && [...m.querySelectorAll<HTMLElement>('button, select')].every((c) => c.scrollWidth <= c.clientWidth + 1);
      });
      expect(fits, `the menu fits the ladder at ${width} px`).toBe(true);
      await shotOf(panelEl, S, `05-toolbar-${width}-menu`);
      await page.keyboard.press('Escape');
      await expect(improve).toBeHidden();
      await expect(more).toBeFocused();
    }
    expect(realProblems(problems)).toEqual([]);
  } finally {
    await t.stop();
  }
});
