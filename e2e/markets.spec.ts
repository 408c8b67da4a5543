// The Markets list follows the exchange's inside market, for every listed market, not only the
// selected one: a second party improves the bid and the ask of a market nobody watches, then
// cancels, and each change shows in the list. The simulation is off so that only these orders
// move the book and the expected prices are exact. The list's rows are fetched once and never
// polled: its prices move only with the ticker stream, so a change that shows at all was
// followed, and a list that does not follow never shows it. How long each took is printed, not
// judged: a one-second deadline failed with two specs side by side on two cores (a speed is a
// benchmark's to measure, never a test's to assert).
import { formatPriceAtTick, type PriceRange } from '../src-shared/price-ranges';
import { randomUUID } from 'node:crypto';
import { Decimal } from '../src-shared/money';
import { expect, pageTest as test, startTerminal } from './fixtures';
import { cellUnder, marketsTable, openTerminal, realProblems, restAs, shot } from './helpers';

const S = 'markets';
/** Long enough for any machine; nothing but the stream can change the cell meanwhile (above). */
const FOLLOW_MS = 30_000;

test('markets list: bid and ask of an unwatched market follow the exchange (streamed, never polled)', async ({ page, problems }) => {
  const { terminal, stop } = await startTerminal({ sim: false });
  try {
    await openTerminal(page, terminal);
    const table = marketsTable(page);
    const rowOf = (ticker: string) => table.locator('tbody tr').filter({ hasText: ticker });
    const shown = async (ticker: string, header: 'YES bid' | 'YES ask') => cellUnder(table, rowOf(ticker), header);

    // an open market that is not the one the terminal selected (so nothing subscribed to it by
    // hand), with room inside its spread for a better bid and a better ask a cent apart
    const selected = (await page.locator('.app-top').innerText()).trim();
    const tickers = (await table.locator('tbody tr td:nth-child(2)').allInnerTexts()).map((t) => t.trim()).filter((t) => t && !selected.includes(t));
    const cp = restAs(terminal, 'counterparty');
    const best = (levels: [string, string][]) => levels.map(([p]) => new Decimal(p)).reduce<Decimal | null>((m, p) => (m === null || p.gt(m) ? p : m), null);
    let pick: { T: string; yesBid: Decimal | null; ask: Decimal } | null = null;
    for (const t of tickers) {
      const book = (await cp.getOrderbook({ params: { ticker: t } })) as { orderbook_fp: { yes_dollars: [string, string][]; no_dollars: [string, string][] } };
      const yesBid = best(book.orderbook_fp.yes_dollars);
      const noBid = best(book.orderbook_fp.no_dollars);
      const ask = noBid ? new Decimal(1).minus(noBid) : new Decimal(1);
      if (ask.minus(yesBid ?? 0).gte('0.03')) {
        pick = { T: t, yesBid, ask };
        break;
      }
    }
    expect(pick, `an open market with a spread of 3 cents or more among ${tickers.length}`).not.toBeNull();
    const { T, yesBid, ask } = pick!;
    // the list shows prices at the market's tick (2 decimals for cents, 3 for a tenth of a cent)
    const m = await cp.getMarket({ params: { ticker: T } });
    const px = (d: Decimal) => formatPriceAtTick(d, (m.market.price_ranges ?? []) as PriceRange[]);
    const bidPrice = (yesBid ?? new Decimal('0.30')).plus('0.01');
    const askPrice = ask.minus('0.01');

    const follows = async (header: 'YES bid' | 'YES ask', expected: string, what: string) => {
      const t0 = Date.now();
      await expect.poll(() => shown(T, header), { message: `${what}: ${T} ${header} shows ${expected}`, timeout: FOLLOW_MS, intervals: [50] }).toBe(expected);
      return Date.now() - t0;
    };

    const place = (side: 'bid' | 'ask', price: Decimal) =>
      cp.createOrder({ body: { ticker: T, side, price: price.toFixed(4), count: '3', client_order_id: randomUUID() } }) as Promise<{ order_id: string }>;

    const bidOrder = await place('bid', bidPrice);
    const bidMs = await follows('YES bid', px(bidPrice), 'a better bid');
    const askOrder = await place('ask', askPrice);
    const askMs = await follows('YES ask', px(askPrice), 'a better ask');
    await shot(page, S, '01-list-follows-book');

    await cp.cancelOrder({ params: { order_id: bidOrder.order_id } });
    await follows('YES bid', px(yesBid ?? new Decimal(0)), 'the bid canceled');
    await cp.cancelOrder({ params: { order_id: askOrder.order_id } });
    await follows('YES ask', px(ask), 'the ask canceled');
    console.log(`markets list followed the book in ${bidMs} ms (bid) and ${askMs} ms (ask)`);
    expect(realProblems(problems)).toEqual([]);
  } finally {
    await stop();
  }
});
