// Display truth for the depth heatmap: its newest column (the book as it stands) has heat on every
// price the book holds and none elsewhere. Read from the canvas's pixels at the newest column
// (the geometry is on the canvas's data attributes: data-top, data-step, data-row-px, data-col-px,
// data-live-x), one pixel near each row's top (clear of the best bid / ask lines through the row's
// middle): the background colour is "nothing", a colour of the heat scale is "something", any
// other colour is a mark drawn over it (a trade bubble, my order) and is not judged.
//
// The book to compare with is given (YES prices in ticks, sizes in centi-contracts, e.g. from the
// exchange, as the display-truth harness holds it), or, without one, read from the linked ladder's
// cells (YES view) in the same frame. One call is one sample: a caller judges a mismatch that lasts
// two samples in a row (a frame apart or more), as the harness does for the ladder; the harness
// itself (judge.ts) judges each row of readHeatColumn against the exchange's book.
import type { Page } from '@playwright/test';
import { heatPalette } from '../../src-renderer/features/heatmap/heat-canvas';
import { countToCenti, dollarsToTicks } from '../../src-shared/money';

export interface HeatBook {
  /** [priceTicks, centi] YES bids and asks */
  bids: [number, number][];
  asks: [number, number][];
}

export interface HeatTruth {
  /** rows judged */
  checked: number;
  /** rows whose pixel disagrees with the book, e.g. "0.4500: book 1200, no heat" */
  wrong: string[];
  /** the heatmap's market, or null without a heatmap showing a book */
  ticker: string | null;
}

/** The heatmap's newest column as drawn: each row's price (ticks) and whether it shows heat. */
export interface HeatColumn {
  ticker: string;
  /** ticks a row spans */
  step: number;
  /** rows judged (a mark drawn over a row, e.g. a trade bubble, leaves it out) */
  rows: { price: number; heat: boolean }[];
  /** the linked YES ladder's book, read in the same frame (when asked for) */
  ladder?: { book: HeatBook; window: [number, number] } | { error: string };
}

/**
 * Reads the heatmap's newest column from its canvas pixels (null without a heatmap showing a
 * book); `withLadder` also reads the linked YES ladder's cells in the same task; `settle` waits
 * two frames first (the heatmap and the ladder painted from the same store state).
 */
export async function readHeatColumn(page: Page, opts: { withLadder?: boolean; settle?: boolean } = {}): Promise<HeatColumn | null> {
  const palette = [...heatPalette()];
  return page.evaluate(
    async ([words, withLadder, settle]) => {
      if (settle) await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const canvas = document.querySelector<HTMLCanvasElement>('[data-panel="heatmap"] canvas.heatmap-canvas');
      const panel = canvas?.closest<HTMLElement>('.panel.heatmap');
      const d = canvas?.dataset;
      if (!canvas || !panel || !d || d.liveX === undefined || d.liveX === '' || !panel.dataset.ticker || canvas.width === 0) return null;
      const ticker = panel.dataset.ticker;
      const [top, step, rowPx, colPx, liveX] = [d.top, d.step, d.rowPx, d.colPx, d.liveX].map(Number) as [number, number, number, number, number];
      let ladder: HeatColumn['ladder'];
      if (withLadder) {
        const grid = document.querySelector<HTMLElement>(`[data-panel="ladder"] .panel.ladder[data-ticker="${ticker}"][data-view="yes"] .ladder-rows`);
        if (!grid) ladder = { error: 'no YES ladder of the same market to read the book from' };
        else {
          const book: HeatBook = { bids: [], asks: [] };
          const prices: number[] = [];
          for (const row of grid.querySelectorAll<HTMLElement>('.ladder-row')) {
            if (row.style.visibility === 'hidden') continue;
            const p = Math.round(Number(row.querySelector('[data-cell="price"]')?.textContent ?? 'NaN') * 10_000);
            if (!Number.isFinite(p)) continue;
            prices.push(p);
            const size = (sel: string) => Math.round(Number((row.querySelector(sel)?.textContent ?? '').replace(/,/g, '') || '0') * 100);
            const bid = size('[data-cell="bid"] .qty');
            const ask = size('[data-cell="ask"] .qty');
            if (bid) book.bids.push([p, bid]);
            if (ask) book.asks.push([p, ask]);
          }
          ladder = { book, window: prices.length ? [Math.min(...prices), Math.max(...prices)] : [0, 10_000] };
        }
      }
      const dpr = canvas.width / canvas.getBoundingClientRect().width;
      // one copy of the drawn canvas, read pixel by pixel (reads from the page's own canvas would slow its drawing)
      const copy = document.createElement('canvas');
      copy.width = canvas.width;
      copy.height = canvas.height;
      const ctx = copy.getContext('2d', { willReadFrequently: true });
      if (!ctx) return null;
      ctx.drawImage(canvas, 0, 0);
      const bg = getComputedStyle(panel).getPropertyValue('--bg-panel').trim();
      const probe = document.createElement('canvas').getContext('2d', { willReadFrequently: true })!;
      probe.fillStyle = bg;
      probe.fillRect(0, 0, 1, 1);
      const bgPx = probe.getImageData(0, 0, 1, 1).data;
      const bgWord = ((255 << 24) | (bgPx[2]! << 16) | (bgPx[1]! << 8) | bgPx[0]!) >>> 0;
      const heat = new Set(words.map((w) => w >>> 0));
      const heatH = Math.floor(canvas.getBoundingClientRect().height) - 18;
      const rows: { price: number; heat: boolean }[] = [];
      for (let r = 0; r * rowPx < heatH; r++) {
        const price = top - r * step;
        if (price <= 0 || price >= 10_000) continue;
        const x = Math.floor((liveX + Math.min(1, colPx - 1)) * dpr);
        const y = Math.floor((r * rowPx + Math.min(1, rowPx / 4)) * dpr);
        const px = ctx.getImageData(x, y, 1, 1).data;
        const word = ((255 << 24) | (px[2]! << 16) | (px[1]! << 8) | px[0]!) >>> 0;
        // the background is "nothing", a colour of the heat scale "something", any other a mark over it
        if (word === bgWord) rows.push({ price, heat: false });
        else if (heat.has(word)) rows.push({ price, heat: true });
      }
      return { ticker, step, rows, ...(ladder ? { ladder } : {}) };
    },
    [palette, opts.withLadder ?? false, opts.settle ?? false] as const,
  );
}

/** The size a book holds at each heatmap row (bids floor to the row, asks ceil, as the ladder buckets them). */
export function heldByRow(book: HeatBook, step: number): Map<number, number> {
  const held = new Map<number, number>();
  for (const [p, c] of book.bids) held.set(Math.floor(p / step) * step, (held.get(Math.floor(p / step) * step) ?? 0) + c);
  for (const [p, c] of book.asks) held.set(Math.ceil(p / step) * step, (held.get(Math.ceil(p / step) * step) ?? 0) + c);
  return held;
}

/** One sample of the heatmap's newest column against `book` (or the linked ladder's cells). */
export async function heatmapLatestMismatches(page: Page, book?: HeatBook): Promise<HeatTruth> {
  const col = await readHeatColumn(page, { withLadder: !book, settle: true });
  if (!col) return { checked: 0, wrong: [], ticker: null };
  if (col.ladder && 'error' in col.ladder) return { checked: 0, wrong: [col.ladder.error], ticker: col.ticker };
  const from = book ?? col.ladder!.book;
  const window = book ? [0, 10_000] : col.ladder && 'window' in col.ladder ? col.ladder.window : [0, 10_000];
  const held = heldByRow(from, col.step);
  const rows = col.rows.filter((r) => r.price >= window[0]! && r.price <= window[1]!);
  const wrong = rows.filter((r) => r.heat !== (held.get(r.price) ?? 0) > 0).map((r) => `${(r.price / 10_000).toFixed(4)}: book ${held.get(r.price) ?? 0}, ${r.heat ? 'heat' : 'no heat'}`);
  return { checked: rows.length, wrong, ticker: col.ticker };
}

/**
 * The exchange's book as the harness reads it (exchange.ts: YES and NO bids in dollars and
 * contracts) as a HeatBook: YES bids, and YES asks from the NO bids (1 - price).
 */
export function heatBookOf(book: { yes: [string, string][]; no: [string, string][] }): HeatBook {
  return {
    bids: book.yes.map(([p, c]) => [dollarsToTicks(p), countToCenti(c)]),
    asks: book.no.map(([p, c]) => [10_000 - dollarsToTicks(p), countToCenti(c)]),
  };
}
