// What the trader sees, read from the rendered panels in one go (a single evaluate, so every
// panel is read in the same task, between two paints). Text as shown: the judge compares numbers.
import type { Page } from '@playwright/test';
import { installInkReader } from './canvas-ink';
import { readHeatColumn, type HeatColumn } from './heatmap';

export interface ScreenLadder {
  ticker: string;
  view: 'yes' | 'no';
  rows: { price: string; bid: string; ask: string }[];
}

export interface Screen {
  ladders: ScreenLadder[];
  /** the Markets list's visible rows (null when the panel is not shown) */
  markets: { ticker: string; bid: string; ask: string; last: string }[] | null;
  /** the tape's newest rows, by trade id */
  tape: { ticker: string; rows: { id: string; price: string; size: string; side: string }[] } | null;
  /** the Orders panel's Resting tab rows, by order id */
  resting: { id: string; ticker: string; price: string; remaining: string }[] | null;
  /** Positions & P&L, the Positions tab */
  positions: { ticker: string; position: string; cost: string; mark: string; value: string; unrealized: string; realized: string; total: string; fees: string; absent: string[] }[] | null;
  /** whether the Positions tab lists flat rows too ("Flat N" pressed) */
  positionsWithFlat: boolean;
  /** the Positions tab's totals over every position, flat and settled ones included */
  pnlTotals: { unrealized: string; realized: string; fees: string; net: string } | null;
  /** the Risk panel's today's P&L */
  todayPnl: string | null;
  /** the Balance tab's cash balance */
  balance: string | null;
  /** the status bar's connection item */
  status: string;
  /** the depth heatmap's newest column, read from its pixels right after the panels (null when not shown) */
  heatmap: HeatColumn | null;
  /** animation frames the page has run so far (installFrameCounter), to judge "two frames" in the page's own frames */
  frames: number;
}

/**
 * Counts the page's animation frames. "Wrong for longer than two frames" is judged in frames the
 * page actually ran, as well as in time: a starved machine that runs no frame for half a second
 * has not shown a stale value for 30 frames, while a page that keeps painting one has.
 */
export async function installFrameCounter(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __truthFrames?: number };
    if (w.__truthFrames !== undefined) return;
    w.__truthFrames = 0;
    const tick = () => {
      w.__truthFrames = (w.__truthFrames ?? 0) + 1;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

export async function readScreen(page: Page): Promise<Screen> {
  await installInkReader(page);
  const panels = await readPanels(page);
  return { ...panels, heatmap: await readHeatColumn(page) };
}

function readPanels(page: Page): Promise<Omit<Screen, 'heatmap'>> {
  return page.evaluate(() => {
    const shown = (el: Element | null): el is HTMLElement => !!el && (el as HTMLElement).checkVisibility?.() !== false && (el as HTMLElement).offsetParent !== null;
    const text = (el: Element | null | undefined) => (el?.textContent ?? '').trim();
    const panelOf = (id: string) => document.querySelector<HTMLElement>(`[data-panel="${id}"]`);
    const selectedTab = (root: HTMLElement) => text(root.querySelector('[role="tab"][aria-selected="true"]'));
    const cells = (tr: Element, ...cols: string[]) => cols.map((c) => text(tr.querySelector(`td[data-col="${c}"]`)));
    const bodyRows = (root: HTMLElement) => [...root.querySelectorAll<HTMLElement>('tbody tr[data-row-id]')].filter((tr) => shown(tr));

    // A ladder's sizes are drawn on a canvas over its rows (canvas-ink.ts): a size counts as shown
    // only where the canvas has ink over its block, and ink over a block whose text is empty is a
    // size the DOM does not know (a ghost on the canvas). The digits are the block's text, drawn
    // from the same value in the same frame.
    type InkOf = (block: Element | null) => boolean;
    const inked = (p: HTMLElement) => (window as unknown as { __ladderInk?: (panel: Element) => InkOf | null }).__ladderInk?.(p) ?? null;
    const sizeShown = (ink: InkOf | null, block: Element | null) => {
      const t = text(block);
      if (!ink) return t;
      return ink(block) ? t || '▮ (drawn, not in the DOM)' : '';
    };
    const ladders = [...document.querySelectorAll<HTMLElement>('.panel.ladder[data-ticker]')]
      .filter((p) => shown(p))
      .map((p) => {
        const ink = inked(p);
        return {
          ticker: p.dataset.ticker!,
          view: (p.dataset.view === 'no' ? 'no' : 'yes') as 'yes' | 'no',
          // a ladder still waiting for its book shows no rows
          rows: p.querySelector('.ladder-rows [role="status"]')
            ? []
            : [...p.querySelectorAll<HTMLElement>('.ladder-row')]
                .filter((r) => r.style.visibility !== 'hidden' && text(r.querySelector('[data-cell="price"]')) !== '')
                .map((r) => ({ price: text(r.querySelector('[data-cell="price"]')), bid: sizeShown(ink, r.querySelector('[data-cell="bid"] .qty')), ask: sizeShown(ink, r.querySelector('[data-cell="ask"] .qty')) })),
        };
      });

    const mp = panelOf('markets');
    const marketsTable = mp && shown(mp) ? mp.querySelector<HTMLElement>('[role="region"][aria-label^="Markets: arrows move"]') : null;
    const markets = marketsTable && shown(marketsTable)
      ? bodyRows(marketsTable).map((tr) => {
          const [bid, ask, last] = cells(tr, 'bid', 'ask', 'last');
          return { ticker: tr.dataset.rowId!, bid: bid!, ask: ask!, last: last! };
        })
      : null;

    const tp = panelOf('tape');
    const tapeRegion = tp && shown(tp) ? tp.querySelector<HTMLElement>('[aria-label^="Time and sales for "]') : null;
    const tape = tapeRegion && /^Time and sales for [^\s:]+/.test(tapeRegion.getAttribute('aria-label') ?? '')
      ? {
          ticker: /^Time and sales for ([^\s:]+)/.exec(tapeRegion.getAttribute('aria-label') ?? '')?.[1] ?? '',
          rows: bodyRows(tapeRegion)
            .slice(0, 12)
            .map((tr) => {
              const [price, size, side] = cells(tr, 'price', 'size', 'side');
              return { id: tr.dataset.rowId!, price: price!, size: size!, side: side! };
            }),
        }
      : null;

    const op = panelOf('orders');
    const resting =
      op && shown(op) && selectedTab(op) === 'Resting'
        ? bodyRows(op).map((tr) => {
            const [ticker, price, remaining] = cells(tr, 'ticker', 'price', 'remaining');
            return { id: tr.dataset.rowId!, ticker: ticker!, price: price!, remaining: remaining! };
          })
        : null;

    const pp = panelOf('positions');
    const tab = pp && shown(pp) ? selectedTab(pp) : '';
    const positions =
      tab === 'Positions' && pp && !pp.querySelector('[role="status"] .spinner')
        ? bodyRows(pp).map((tr) => {
            const [ticker, position, cost, mark, value, unrealized, realized, total, fees] = cells(tr, 'ticker', 'position', 'cost', 'mark', 'value', 'unrealized', 'realized', 'total', 'fees');
            // a column that gave way on a narrow panel ("+N cols") shows nothing to judge
            const absent = ['position', 'cost', 'mark', 'value', 'unrealized', 'realized', 'total', 'fees'].filter((c) => !tr.querySelector(`td[data-col="${c}"]`));
            return { ticker: ticker!, position: position!, cost: cost!, mark: mark!, value: value!, unrealized: unrealized!, realized: realized!, total: total!, fees: fees!, absent };
          })
        : null;
    // the totals in the tab's tool bar: "Unrealized +$1.20", "Realized -$0.40", "Fees $0.09", "Net +$0.71"
    let pnlTotals: { unrealized: string; realized: string; fees: string; net: string } | null = null;
    let positionsWithFlat = false;
    if (positions && pp) {
      const tools = pp.querySelector('.table-tools');
      const spans = tools ? [...tools.querySelectorAll(':scope > span')].map((e) => text(e)) : [];
      const figure = (name: string) => spans.map((t) => new RegExp(`^${name}\\s+(\\S+)$`).exec(t)?.[1]).find((v) => v !== undefined) ?? null;
      const [u, r, f, n] = [figure('Unrealized'), figure('Realized'), figure('Fees'), figure('Net')];
      if (u !== null && r !== null && f !== null && n !== null) pnlTotals = { unrealized: u, realized: r, fees: f, net: n };
      positionsWithFlat = [...(tools?.querySelectorAll('button[aria-pressed]') ?? [])].some((b) => /Flat \d+/.test(text(b)) && b.getAttribute('aria-pressed') === 'true');
    }
    const rp = panelOf('risk');
    const today = rp && shown(rp) ? rp.querySelector('section[aria-label="Today\'s P&L"] strong') : null;
    const todayPnl = today ? text(today) : null;
    let balance: string | null = null;
    if (tab === 'Balance' && pp) {
      const dt = [...pp.querySelectorAll('dt')].find((d) => text(d) === 'Cash balance');
      balance = dt ? text(dt.nextElementSibling) : null;
    }

    const bar = document.querySelector('footer.statusbar');
    const status = text(bar?.querySelector('.item[role="status"]'));
    const frames = (window as unknown as { __truthFrames?: number }).__truthFrames ?? 0;
    return { ladders, markets, tape, resting, positions, positionsWithFlat, pnlTotals, todayPnl, balance, status, frames };
  });
}
