// A professional's first hour, scripted (issue 34): long by key, flat, short, reversed, flat again,
// the Positions totals; a local stop and take-profit set from the ticket; the kill switch engaged
// by key (an order refused meanwhile, the local orders held and said so) and released with the
// console's code, re-arming only the stop, as chosen in its dialog; trading again; an alert on the
// last trade that fires when the other side trades through it; the example market maker run live
// on paper and stopped; a short recording replayed in its own account. At each step what the
// screen shows is read against the exchange's own state (the trader's positions, realized P&L,
// fees, resting orders; the market's book and trades; from its REST API, as a second client reads
// them), never against what the page said before.
import type { Locator, Page } from '@playwright/test';
import { test, expect, type Terminal } from './fixtures';
import { consoleCode, ladder, openTerminal, panel, realProblems, recordFor, restAs, selectLivelyMarket, shot, showPanel } from './helpers';
import { Decimal } from '../src-shared/money';

const S = 'first-hour';

/** "$1.25", "-$0.09", "+$0.30", "—" -> a Decimal (null for a dash or empty) */
function money(text: string): Decimal | null {
  const t = text.replace(/[\s,$+]/g, '').replace('−', '-');
  if (t === '' || t === '—' || t === '-') return null;
  return new Decimal(t);
}

async function cell(table: Locator, row: Locator, header: string): Promise<string> {
  const headers = (await table.locator('thead th').allInnerTexts()).map((h) => h.trim());
  const i = headers.findIndex((h) => h === header);
  if (i < 0) throw new Error(`no column "${header}" in [${headers.join(' | ')}]`);
  return (await row.locator('td').nth(i).innerText()).trim();
}

/** The trader's orders resting at the exchange in a market (their ids), as REST shows them. */
async function restingIds(terminal: Terminal, ticker: string): Promise<string[]> {
  const r = await restAs(terminal, 'trader').getOrders({ query: { ticker, status: 'resting' } });
  return r.orders.filter((o) => o.status === 'resting').map((o) => o.order_id);
}

/** The trader's position in a market at the exchange, in one subaccount (0: the live account). */
async function positionIn(terminal: Terminal, ticker: string, subaccount: number) {
  const r = await restAs(terminal, 'trader').getPositions({ query: { ticker, subaccount, count_filter: 'position,total_traded' } } as never);
  const p = (r as { market_positions: { ticker: string; position_fp: string; realized_pnl_dollars: string; fees_paid_dollars: string }[] }).market_positions.find((x) => x.ticker === ticker);
  return { position: new Decimal(p?.position_fp ?? '0'), realized: new Decimal(p?.realized_pnl_dollars ?? '0'), fees: new Decimal(p?.fees_paid_dollars ?? '0') };
}

/** The YES asks of a market at the exchange, best first, and its last trade's price. */
async function asksAndLast(terminal: Terminal, ticker: string) {
  const cp = restAs(terminal, 'counterparty');
  const b = await cp.getOrderbook({ params: { ticker } });
  const asks = (b.orderbook_fp.no_dollars ?? []).map(([p, c]) => ({ price: new Decimal(1).minus(p), count: new Decimal(c) })).sort((x, y) => x.price.comparedTo(y.price));
  const t = await cp.getTrades({ query: { ticker, limit: 1 } });
  return { asks, last: t.trades[0] ? new Decimal(t.trades[0].yes_price_dollars) : null };
}

/** The Local tab's row of a local order kind ("Stop", "Take profit") and its State cell. */
function localRow(page: Page, kind: string): { row: Locator; state: Locator } {
  const row = panel(page, 'orders').getByRole('region', { name: /^Local orders/ }).locator('tbody tr').filter({ has: page.locator('td[data-col="kind"]', { hasText: new RegExp(`^${kind}$`) }) });
  return { row, state: row.locator('td[data-col="state"]') };
}

/** Orders → Local, shown. */
async function showLocal(page: Page): Promise<void> {
  const orders = await showPanel(page, 'orders');
  await orders.getByRole('tab', { name: /^Local/ }).click();
  await expect(orders.getByRole('region', { name: /^Local orders/ })).toBeVisible();
}

/**
 * A local stop (sell 1 when the bid falls to 0.10) and take-profit (sell 1 when it rises to 0.95)
 * set from the ticket: both armed in Orders → Local, and neither is at the exchange (they are held
 * by the terminal: the trader has no order resting there).
 */
async function armLocalOrders(page: Page, terminal: Terminal, ticker: string): Promise<void> {
  const ticket = await showPanel(page, 'ticket');
  await ticket.getByRole('button', { name: /Sell YES/ }).click();
  for (const [mode, trigger] of [
    ['stop', '0.10'],
    ['take_profit', '0.95'],
  ] as const) {
    await ticket.getByLabel('Order type').selectOption(mode);
    await ticket.getByLabel('Trigger source').selectOption('bid');
    await ticket.getByLabel('Trigger (YES, $)').fill(trigger);
    await ticket.getByLabel('Count (contracts)').fill('1');
    const submit = ticket.locator('button[type="submit"]');
    await expect(submit).toHaveText(new RegExp(`^Set ${mode === 'stop' ? 'stop' : 'take profit'}: sell 1 at bid ${trigger.replace('.', '\\.')}`));
    await submit.click();
    await expect(page.locator('.toast').filter({ hasText: `Local ${mode === 'stop' ? 'stop' : 'take profit'}: sell 1 ${ticker} when bid reaches ${trigger}` }).first()).toBeVisible();
  }
  await ticket.getByLabel('Order type').selectOption('limit');
  await showLocal(page);
  await expect(localRow(page, 'Stop').state).toHaveText('armed');
  await expect(localRow(page, 'Take profit').state).toHaveText('armed');
  expect(await restingIds(terminal, ticker), 'the local orders are not at the exchange').toEqual([]);
  await shot(page, S, '05-local-armed');
}

/** Engaged: the toast and Orders → Local say the stop and take-profit are held; nothing of theirs is at the exchange. */
async function expectLocalHeld(page: Page, terminal: Terminal, ticker: string): Promise<void> {
  // (the kinds in the order the local orders were read)
  const both = '(1 stop, 1 take-profit|1 take-profit, 1 stop)';
  await expect(page.locator('.toast').filter({ hasText: 'Kill switch engaged' }).first()).toContainText(new RegExp(`Local orders held \\(they do not fire until you release it\\): ${both}\\.`));
  await showLocal(page);
  await expect(localRow(page, 'Stop').state).toHaveText('kill held');
  await expect(localRow(page, 'Take profit').state).toHaveText('kill held');
  await expect(panel(page, 'orders').getByRole('alert').filter({ hasText: new RegExp(`Held by the kill switch: ${both}\\.`) })).toBeVisible();
  expect(await restingIds(terminal, ticker), 'nothing resting at the exchange while engaged').toEqual([]);
}

/** Released re-arming only the stop: the stop is armed, the take-profit disarmed, and still nothing is at the exchange. */
async function expectAsChosen(page: Page, terminal: Terminal, ticker: string): Promise<void> {
  await showLocal(page);
  await expect(localRow(page, 'Stop').state).toHaveText('armed');
  await expect(localRow(page, 'Take profit').state).toHaveText('disarmed');
  expect(await restingIds(terminal, ticker), 'the release sent nothing').toEqual([]);
  await shot(page, S, '06-local-as-chosen');
  // the stop is canceled (it would sell if the market fell that far before the spec ends)
  await localRow(page, 'Stop').row.getByRole('button', { name: 'Cancel' }).click();
  await expect(localRow(page, 'Stop').state).toHaveText('canceled');
}

/**
 * An alert set from the Alerts panel on the last trade rising to a level above the market, armed;
 * the other side buys through the asks up to that level (REST, IOC): the exchange's trades show a
 * print at the level or above, and the alert fires (its toast, its row).
 */
async function alertFires(page: Page, terminal: Terminal, ticker: string): Promise<void> {
  const { asks, last } = await asksAndLast(terminal, ticker);
  const floor = Decimal.max(last ?? 0, asks[0]?.price ?? 0);
  const target = asks.find((a) => a.price.gt(floor)) ?? asks[0];
  if (!target) throw new Error(`${ticker} has no asks at the exchange`);
  const level = target.price.toFixed(2);
  await page.keyboard.press('Alt+Shift+KeyA');
  const alerts = page.locator('[data-panel="alerts"]');
  await alerts.getByLabel('Alert kind').selectOption('price');
  await expect(alerts.getByLabel('Alert market')).toHaveValue(ticker);
  await alerts.getByLabel('Price source').selectOption('last');
  await alerts.getByLabel('Direction').selectOption('above');
  await alerts.getByLabel('Level').fill(level);
  await alerts.getByRole('button', { name: 'Add alert' }).click();
  const said = new RegExp(`${ticker} last trade rises to ${level.replace('.', '\\.')}0* or above`);
  const row = alerts.getByRole('region', { name: /^Alerts/ }).getByRole('row').filter({ hasText: said });
  await expect(row).toContainText('armed');
  const armedAt = Math.floor(Date.now() / 1000);
  // every ask up to the level, and a margin for asks added meanwhile (an IOC takes no more than rests)
  const upTo = asks.filter((a) => a.price.lte(target.price)).reduce((s, a) => s.plus(a.count), new Decimal(10));
  await restAs(terminal, 'counterparty').createOrder({ body: { ticker, side: 'bid', price: target.price.toFixed(4), count: upTo.toFixed(2), time_in_force: 'immediate_or_cancel', client_order_id: crypto.randomUUID() } });
  const trades = (await restAs(terminal, 'counterparty').getTrades({ query: { ticker, min_ts: armedAt, limit: 100 } })).trades;
  expect(trades.some((t) => new Decimal(t.yes_price_dollars).gte(level)), `the exchange printed a trade at ${level} or above`).toBe(true);
  await expect(page.locator('.toast').filter({ hasText: 'Alert:' }).filter({ hasText: said }).first()).toBeVisible();
  await expect(row).toContainText('fired');
  await shot(page, S, '07-alert-fired');
}

/**
 * The example market maker run live (on the paper account) from the Strategies panel on this
 * market: orders of its own rest at the exchange; stopped, every one of them is gone there.
 */
async function paperStrategy(page: Page, terminal: Terminal, ticker: string): Promise<void> {
  const before = new Set(await restingIds(terminal, ticker));
  await page.keyboard.press('Alt+Shift+KeyY');
  const strat = page.getByTestId('strategies-panel');
  await expect(strat).toBeVisible();
  const example = strat.getByLabel('Example strategy');
  await example.selectOption((await example.locator('option', { hasText: /market.?maker/i }).first().getAttribute('value'))!);
  await strat.getByLabel('Strategy name').fill('first-hour-mm');
  await strat.getByLabel('Strategy parameters').fill(JSON.stringify({ ticker, size: '1', maxPosition: 3 }));
  await strat.getByRole('button', { name: 'Run live' }).click();
  const run = strat.getByTestId('strategy-run').filter({ hasText: 'first-hour-mm' });
  await expect(run).toContainText('running');
  let its: string[] = [];
  // a failure says what the run showed (its status, orders and the last lines of its log: a
  // refusal's reason, a fault), not only that nothing rested
  await expect
    .poll(async () => (its = (await restingIds(terminal, ticker)).filter((id) => !before.has(id))).length, { message: "the strategy's orders rest at the exchange", timeout: 30_000 })
    .toBeGreaterThan(0)
    .catch(async (e: Error) => {
      throw new Error(`${e.message}\nthe strategy's run showed:\n${await run.innerText({ timeout: 2_000 }).catch(() => '(nothing readable)')}`);
    });
  await shot(page, S, '08-strategy-running');
  await run.getByRole('button', { name: 'Stop' }).click();
  await expect(run.locator('.badge').first()).toHaveText('stopped');
  await expect
    .poll(async () => {
      const now = new Set(await restingIds(terminal, ticker));
      return its.filter((id) => now.has(id));
    }, { message: "the stopped strategy's orders are gone at the exchange", timeout: 30_000 })
    .toEqual([]);
  // and it places no more: nothing new rests a moment later either
  const after = (await restingIds(terminal, ticker)).filter((id) => !before.has(id));
  expect(after, 'no order of the stopped strategy rests').toEqual([]);
}

/**
 * A short recording replayed in the embedded exchange: a buy by key while it is loaded trades in
 * the replay's own account (its subaccount's position at the exchange moves), and the live paper
 * account's position at the exchange is what it was before the replay.
 */
async function replayInItsOwnAccount(page: Page, terminal: Terminal, ticker: string, press: (key: string) => Promise<void>): Promise<void> {
  const live = await positionIn(terminal, ticker, 0);
  const rec = await recordFor(page, 'first-hour', 6_000);
  await rec.locator('tr', { hasText: 'first-hour' }).getByRole('button', { name: 'Replay' }).click();
  const bar = page.getByTestId('replay-bar');
  await expect(bar).toBeVisible({ timeout: 60_000 });
  // the recording ends with its markets' books at the stop: it plays from its start to then
  await bar.getByRole('button', { name: 'Play replay' }).click();
  await expect(bar.getByTestId('replay-rows')).toContainText('end', { timeout: 60_000 });
  await expect(bar.getByTestId('replay-account')).toHaveText(/trading in sub \d+/);
  const sub = Number(/(\d+)/.exec(await bar.getByTestId('replay-account').innerText())![1]);
  expect(sub).toBeGreaterThan(0);
  const inReplay = await positionIn(terminal, ticker, sub);
  await press('Shift+KeyB');
  await expect
    .poll(async () => (await positionIn(terminal, ticker, sub)).position.minus(inReplay.position).toString(), { message: "the buy traded in the replay's account", timeout: 30_000 })
    .not.toBe('0');
  await shot(page, S, '09-replay');
  await bar.getByRole('button', { name: 'Stop replay' }).click();
  await expect(bar).toHaveCount(0);
  const after = await positionIn(terminal, ticker, 0);
  expect({ position: after.position.toString(), realized: after.realized.toString(), fees: after.fees.toString() }, 'the live account at the exchange is as before the replay').toEqual({
    position: live.position.toString(),
    realized: live.realized.toString(),
    fees: live.fees.toString(),
  });
}

test('first hour: long, flat, short, reverse, flat, the totals, local orders, the kill switch and its release, an alert, a paper strategy, a replay, all read against the exchange', async ({ page, terminal, problems }) => {
  test.setTimeout(360_000);
  await openTerminal(page, terminal);
  const me = restAs(terminal, 'trader');
  const ticker = await selectLivelyMarket(page);

  /** the exchange's own record of this market's position for the trader */
  const truth = async () => {
    const r = await me.getPositions({ query: { ticker, count_filter: 'position,total_traded' } } as never);
    const p = (r as { market_positions: { ticker: string; position_fp: string; realized_pnl_dollars: string; fees_paid_dollars: string }[] }).market_positions.find((x) => x.ticker === ticker);
    return { position: new Decimal(p?.position_fp ?? '0'), realized: new Decimal(p?.realized_pnl_dollars ?? '0'), fees: new Decimal(p?.fees_paid_dollars ?? '0') };
  };
  const positions = await showPanel(page, 'positions');
  const table = positions.locator('table').first();
  // a narrow panel hides its lower-ranked columns behind "+N cols": show them all (the table scrolls)
  const more = positions.locator('.more-cols').first();
  await expect(more).toBeVisible();
  if (/^\+\d+ cols?$/.test((await more.innerText()).trim())) await more.click();
  await expect(more).toHaveText('Fit columns');
  const row = positions.locator('tbody tr').filter({ hasText: ticker }).first();
  /** the Positions row equals the exchange: position, realized, fees */
  const matchesExchange = async (what: string, position: (p: Decimal) => boolean) => {
    await expect
      .poll(
        async () => {
          const t = await truth();
          if (!position(t.position)) return `exchange position ${t.position.toString()} not yet ${what}`;
          if ((await row.count()) === 0) return 'no Positions row';
          const shown = await cell(table, row, 'Position');
          const realized = money(await cell(table, row, 'Realized'));
          const fees = money(await cell(table, row, 'Fees'));
          const count = new Decimal((/(\d+(?:\.\d+)?)/.exec(shown)?.[1] ?? '0'));
          const sideOk = t.position.isZero() ? count.isZero() || /flat/i.test(shown) : t.position.gt(0) ? /YES/.test(shown) : /NO/.test(shown);
          const problems: string[] = [];
          if (!count.eq(t.position.abs())) problems.push(`position shown ${shown} vs ${t.position.toString()}`);
          if (!sideOk) problems.push(`side shown ${shown} vs ${t.position.toString()}`);
          if (!(realized ?? new Decimal(0)).eq(t.realized.toDecimalPlaces(2))) problems.push(`realized shown ${String(realized)} vs ${t.realized.toString()}`);
          if (!(fees ?? new Decimal(0)).eq(t.fees.toDecimalPlaces(2))) problems.push(`fees shown ${String(fees)} vs ${t.fees.toString()}`);
          return problems.length ? problems.join('; ') : 'ok';
        },
        { message: `Positions shows the exchange's ${what} position, realized P&L and fees`, timeout: 30_000 },
      )
      .toBe('ok');
  };
  const press = async (p: Page, key: string) => {
    await ladder(p).focus();
    await p.keyboard.press(key);
  };
  const confirm = async (title: RegExp, button: string) => {
    const d = page.getByRole('dialog', { name: title });
    await expect(d).toBeVisible();
    await d.getByRole('button', { name: button, exact: true }).click();
    await expect(d).toBeHidden();
  };
  // The risk gate asks before an order the same as one sent under half a second ago (a
  // double press): a Shift+S right after a flatten at the same bid is one. The trader meant it.
  const confirmIfAsked = async () => {
    const d = page.getByRole('dialog', { name: /Confirm this order/ });
    if (!(await d.isVisible())) return;
    console.log(`e2e: the risk gate asked before a repeat order (${(await d.innerText()).replace(/\s+/g, ' ')}): sent anyway`);
    await confirm(/Confirm this order/, 'Send anyway');
  };
  /**
   * A crossing order by key until the exchange's position is what it should be: on the lively
   * simulation the inside can move between the screen and the exchange, and the order then rests
   * at the price the trader saw, as a limit order does; a trader cancels it (Shift+X) and goes
   * again. What the screen shows is then read against the exchange (matchesExchange).
   */
  const crossUntil = async (act: () => Promise<void>, what: string, want: (p: Decimal) => boolean) => {
    for (let attempt = 1; ; attempt++) {
      await act();
      const got = await expect
        .poll(async () => {
          await confirmIfAsked();
          return want((await truth()).position);
        }, { timeout: 8_000 })
        .toBe(true)
        .then(() => true, () => false);
      if (got) return;
      if (attempt >= 6) throw new Error(`the exchange's position never became ${what} after ${attempt} tries (position ${(await truth()).position.toString()})`);
      await press(page, 'Shift+KeyX'); // the order rested: cancel it and go again
      await expect.poll(async () => (await restingIds(terminal, ticker)).length, { message: 'the resting order is canceled', timeout: 30_000 }).toBe(0);
    }
  };

  // size 2, typed on the ladder; Shift+B crosses: long 2 YES
  await expect(async () => {
    await ladder(page).focus();
    await page.keyboard.press('Escape');
    await page.keyboard.press('2');
    await expect(page.locator('.ladder-foot').getByTestId('ladder-typed')).toHaveText(/Typing size 2(?!\d)/, { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await page.keyboard.press('Enter');
  await crossUntil(() => press(page, 'Shift+KeyB'), 'long', (p) => p.gt(0));
  await matchesExchange('long', (p) => p.gt(0));
  await shot(page, S, '01-long');

  // flatten (asks first): the row stays, flat, with the exchange's realized P&L and fees
  const flatten = async () => {
    await press(page, 'Shift+KeyF');
    await confirm(/Flatten position/, 'Flatten');
  };
  await crossUntil(flatten, 'flat', (p) => p.isZero());
  // a flat position leaves the open list; "Flat N" lists it, with its P&L
  const flatToggle = positions.getByRole('button', { name: /Flat \d+/ });
  await expect(flatToggle).toBeEnabled({ timeout: 30_000 });
  await flatToggle.click();
  await expect(flatToggle).toHaveAttribute('aria-pressed', 'true');
  await matchesExchange('flat', (p) => p.isZero());
  await shot(page, S, '02-flat');

  // short: Shift+S sells at the bid
  await crossUntil(() => press(page, 'Shift+KeyS'), 'short', (p) => p.lt(0));
  await matchesExchange('short', (p) => p.lt(0));
  // reverse (asks): short becomes long by the same size
  await crossUntil(
    async () => {
      // a reverse that filled only in part may leave the position flat: the next try buys
      if ((await truth()).position.isZero()) return press(page, 'Shift+KeyB');
      await press(page, 'Shift+KeyR');
      await confirm(/Reverse/, 'Reverse');
    },
    'reversed to long',
    (p) => p.gt(0),
  );
  await matchesExchange('reversed to long', (p) => p.gt(0));
  await shot(page, S, '03-reversed');
  await crossUntil(flatten, 'flat again', (p) => p.isZero());
  await matchesExchange('flat again', (p) => p.isZero());

  // the Positions totals say the same as the exchange's sum over the account's markets
  const all = (await me.getPositions({ query: { count_filter: 'position,total_traded' } } as never)) as { market_positions: { realized_pnl_dollars: string; fees_paid_dollars: string }[] };
  const sum = (k: 'realized_pnl_dollars' | 'fees_paid_dollars') => all.market_positions.reduce((a, p) => a.plus(p[k] ?? '0'), new Decimal(0));
  const totals = positions.getByText(/^Realized/).first();
  await expect.poll(async () => money((await totals.innerText()).replace(/^Realized/, ''))?.toString() ?? '0', { message: 'the Realized total' }).toBe(sum('realized_pnl_dollars').toDecimalPlaces(2).toString());
  await expect(positions.getByText(/^Fees /).first()).toHaveText(`Fees $${sum('fees_paid_dollars').toFixed(2)}`);

  // a local stop and take-profit, then the kill switch: engaged by its hotkey (it holds them and
  // says so), released with the console's code re-arming only the stop; trading resumes
  await armLocalOrders(page, terminal, ticker);
  const status = page.getByRole('contentinfo', { name: 'Status' });
  await page.keyboard.press('ControlOrMeta+Shift+KeyK');
  await expect(status).toContainText('KILL SWITCH ON');
  await press(page, 'Shift+KeyB');
  await expect(page.getByRole('alert').filter({ hasText: /kill switch is engaged/ }).first()).toBeVisible();
  expect((await truth()).position.isZero()).toBe(true);
  await expectLocalHeld(page, terminal, ticker);
  await status.getByRole('button', { name: 'Release…' }).click();
  const from = terminal.logs.length;
  const release = page.getByRole('dialog', { name: 'Release the kill switch?' });
  await expect(release).toContainText('Local orders it holds: arm again?');
  await release.getByRole('checkbox', { name: 'Re-arm 1 stop' }).check();
  await expect(release.getByRole('checkbox', { name: 'Re-arm 1 take-profit' })).not.toBeChecked();
  await shot(page, S, '05b-release-dialog');
  await release.getByRole('button', { name: 'Release' }).click();
  const askCode = page.getByRole('dialog', { name: 'Code from the console' });
  await askCode.getByLabel('Code from the console').fill(await consoleCode(terminal, from));
  await askCode.getByRole('button', { name: 'Confirm' }).click();
  await expect(status).not.toContainText('KILL SWITCH ON');
  // what resumed, said at once (the notice goes by itself)
  await expect(page.locator('.toast').filter({ hasText: 'Kill switch released' }).first()).toContainText('armed again: 1 stop; left disarmed: 1 take-profit');
  await expectAsChosen(page, terminal, ticker);
  await showPanel(page, 'positions'); // (Orders → Local took its place in the blotters)
  await crossUntil(() => press(page, 'Shift+KeyB'), 'long after the release', (p) => p.gt(0));
  await matchesExchange('long after the release', (p) => p.gt(0));
  await shot(page, S, '04-after-release');

  await alertFires(page, terminal, ticker);
  await paperStrategy(page, terminal, ticker);
  await replayInItsOwnAccount(page, terminal, ticker, (key) => press(page, key));

  expect(realProblems(problems)).toEqual([]);
});
