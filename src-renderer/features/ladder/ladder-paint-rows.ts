// The ladder's paint into its rows' DOM: each row's cells from the ladder model, each write only
// when its value changed (the hook that schedules it is useLadderPaint.ts).
import { centiToCount, countToCenti, dollarsToTicks } from '../../../src-shared/money';
import { privateStore, restingOrdersIn } from '../../stores/private';
import { fmtCount } from '../../lib/format';
import { avgRow, localMarks, openPosition, tradeRow, volumeAtPrice, type LadderModel, type LadderRow, type LocalMark, type MyOrderLite, type Side, type TickGrid, type View } from './ladder-model';
import { useTools, isLiveLocal } from '../../stores/tools';
import { fmtRowTicks } from '../../lib/ticks';
import type { LadderTrades } from './useLadderVolume';
import type { RowEls } from './row-els';

const LOCAL_ABBR: Record<string, string> = { stop: 'STP', take_profit: 'TP', trailing_stop: 'TRL', bracket_target: 'TGT' };

/** This market's local orders that can still fire, as ladder marks (bracket targets rest at the exchange and show as mine). */
function localsOf(ticker: string) {
  const out: { id: string; side: Side; triggerTicks: number; label: string }[] = [];
  for (const o of useTools.getState().local?.orders ?? []) {
    if (o.ticker !== ticker || o.kind === 'bracket_target' || !o.trigger || !isLiveLocal(o.state)) continue;
    try {
      out.push({ id: o.id, side: o.side, triggerTicks: dollarsToTicks(o.trigger), label: `${LOCAL_ABBR[o.kind] ?? 'L'} ${fmtCount(o.count)}` });
    } catch {
      /* a trigger finer than the tick is listed in the Local tab only */
    }
  }
  return out;
}

/** The dashed local-order marks of one cell (kept apart from my resting orders' tag). */
function setLocal(cell: HTMLElement, marks: { id: string; label: string }[]) {
  // the element's own record of what it shows, read before any query (this runs for every row
  // of every frame, and nearly always finds nothing to change)
  const key = marks.length ? marks.map((m) => `${m.id}:${m.label}`).join('|') : '';
  if ((cell.dataset.local ?? '') === key) return;
  cell.dataset.local = key;
  cell.querySelectorAll<HTMLElement>('.ladder-local').forEach((e) => e.remove());
  for (const m of marks) {
    const tag = document.createElement('span');
    tag.className = 'ladder-local';
    tag.dataset.localId = m.id;
    tag.textContent = m.label;
    tag.title = 'Local order held by this terminal (fires only while it runs and is connected): drag to move its trigger';
    cell.appendChild(tag);
  }
}

/**
 * A size in centi-contracts as the ladder shows it. The same few thousand sizes come back frame
 * after frame on every row (five per row, 60 times a second under a busy book): each is formatted
 * once with decimal.js and then read from here. Bounded: emptied when it holds 4,096.
 */
const centiText = new Map<number, string>();
function fmtCenti(centi: number): string {
  let text = centiText.get(centi);
  if (text === undefined) {
    if (centiText.size >= 4096) centiText.clear();
    text = fmtCount(centiToCount(centi));
    centiText.set(centi, text);
  }
  return text;
}

/** A ticking text: its one text node's data changes (no node made and dropped per change). */
function setText(el: HTMLElement, text: string): void {
  const node = el.firstChild;
  if (node && node.nodeType === Node.TEXT_NODE && !node.nextSibling) node.nodeValue = text;
  else el.textContent = text;
}

const NO_MARKS: { id: string; label: string }[] = [];


export function myOrdersOf(ticker: string): MyOrderLite[] {
  const out: MyOrderLite[] = [];
  for (const o of restingOrdersIn(privateStore.getState(), ticker)) {
    try {
      out.push({ order_id: o.order_id, side: o.side, priceTicks: dollarsToTicks(o.price), remainingCenti: countToCenti(o.remaining) });
    } catch {
      // an order at a price finer than the tick cannot be drawn; it still shows in the blotter
    }
  }
  return out;
}

function myCellText(centi: number, ids: string[], queue: ReadonlyMap<string, string>): string {
  if (!centi) return '';
  const q = ids.map((id) => queue.get(id)).filter((x): x is string => x !== undefined);
  return `${fmtCount(centiToCount(centi))}${q.length ? ` · q${fmtCount(q[0])}` : ''}`;
}


function setMine(cell: HTMLElement, text: string, side: Side) {
  let tag = cell.querySelector<HTMLElement>('.mine');
  if (!text) {
    tag?.remove();
    return;
  }
  if (!tag) {
    tag = document.createElement('span');
    tag.className = 'mine';
    tag.dataset.side = side;
    tag.title = 'My resting orders here: click to cancel, drag to another price to move';
    cell.prepend(tag);
  }
  if (tag.textContent !== text) tag.textContent = text;
}

/**
 * Each row element's paint cache lives with the element it describes: a row React hands back
 * again keeps the cache of what it shows, and a new element starts from its own (empty) cells.
 * A cache made afresh for an element that still shows old text would take an emptied level for
 * already cleared and leave its size on screen.
 */
const rowCaches = new WeakMap<HTMLDivElement, RowEls>();

export function rowElsOf(el: HTMLDivElement): RowEls {
  const known = rowCaches.get(el);
  if (known) return known;
  const q = (sel: string) => el.querySelector(sel) as HTMLElement;
  // the ticking texts' holders inside the cells (each its own layout boundary); the price, which
  // changes only when the rows move, is the cell itself
  const price = q('[data-cell="price"]');
  const bidQty = q('[data-cell="bid"] .qty');
  const askQty = q('[data-cell="ask"] .qty');
  const cumBid = q('[data-cell="cumbid"] .v');
  const cumAsk = q('[data-cell="cumask"] .v');
  const vol = q('[data-cell="vol"] .v');
  const els: RowEls = {
    row: el,
    myBid: q('[data-cell="mybid"]'),
    bidQty,
    bidCell: q('[data-cell="bid"]'),
    price,
    askQty,
    askCell: q('[data-cell="ask"]'),
    myAsk: q('[data-cell="myask"]'),
    cumBid,
    cumAsk,
    vol,
    // what the element shows now (its text, not a guess), bars unknown so the first paint writes them
    last: {
      hidden: el.style.visibility === 'hidden',
      cls: el.className,
      price: price.textContent ?? '',
      bid: bidQty.textContent ?? '',
      ask: askQty.textContent ?? '',
      bidBar: -1,
      askBar: -1,
      cumBid: cumBid.textContent ?? '',
      cumAsk: cumAsk.textContent ?? '',
      vol: vol.textContent ?? '',
      myBid: el.querySelector('[data-cell="mybid"] .mine')?.textContent ?? '',
      myAsk: el.querySelector('[data-cell="myask"] .mine')?.textContent ?? '',
    },
  };
  rowCaches.set(el, els);
  return els;
}

/** What every row of one frame paints against (read once per frame, not once per row). */
interface Frame {
  ticker: string;
  step: number;
  maxSize: number;
  cursor: number | null;
  drop: number | null;
  queue: ReadonlyMap<string, string>;
  marks: LocalMark[];
  vol: Map<number, number>;
  lastRow: number | null;
  lastTrade: LadderTrades['last'];
  avgAt: number | null;
  /** a canvas draws the numbers and bars: the DOM bars are left alone */
  canvas: boolean;
}

export interface PaintRowsInput {
  ticker: string;
  view: View;
  step: number;
  grid: TickGrid | undefined;
  cursor: number | null;
  drop: number | null;
  queue: ReadonlyMap<string, string>;
  trades: LadderTrades;
  canvas: boolean;
}

/** No book for this market (yet): its rows show nothing rather than another market's levels. */
export function hideRows(rowEls: readonly (RowEls | null)[]): void {
  for (const els of rowEls) {
    if (!els || els.last.hidden) continue;
    els.row.style.visibility = 'hidden';
    els.last.hidden = true;
  }
}

/** Paints the model's rows into the row elements (a row past the model's is hidden). */
export function paintRows(rowEls: readonly (RowEls | null)[], m: LadderModel, { ticker, view, step, grid, cursor, drop, queue, trades: tr, canvas }: PaintRowsInput): void {
  const marks = localMarks(m.rows, localsOf(ticker), view, step, grid);
  const vol = volumeAtPrice(tr.byPrice.values(), view, step, grid);
  const lastRow = tr.last ? tradeRow(tr.last, view, step, grid) : null;
  const pos = privateStore.getState().positions[ticker];
  const open = openPosition(pos?.position, pos?.exposure, null);
  const avgAt = open ? avgRow(open.avgYesTicks, view, step, grid) : null;
  const f: Frame = { ticker, step, maxSize: m.maxSize, cursor, drop, queue, marks, vol, lastRow, lastTrade: tr.last, avgAt, canvas };
  for (let i = 0; i < rowEls.length; i++) {
    const els = rowEls[i];
    if (!els) continue;
    const r = m.rows[i];
    if (!r) {
      if (!els.last.hidden) els.row.style.visibility = 'hidden';
      els.last.hidden = true;
      continue;
    }
    paintRow(els, r, i, f);
  }
}

function paintRow(els: RowEls, r: LadderRow, i: number, f: Frame): void {
  // Each write only when its value changed: an equal textContent still replaces the text node
  // and dirties layout, and under a firehose most cells of most rows stay the same.
  const last = els.last;
  if (last.hidden) {
    els.row.style.visibility = '';
    last.hidden = false;
  }
  const cls = `ladder-row z-${r.zone}${r.isBestBid ? ' best-bid' : ''}${r.isBestAsk ? ' best-ask' : ''}${i === f.cursor ? ' cursor' : ''}${i === f.drop ? ' drop-target' : ''}${r.price === f.lastRow ? ' last-trade' : ''}${r.price === f.avgAt ? ' avg-open' : ''}`;
  if (last.cls !== cls) els.row.className = last.cls = cls;
  const price = fmtRowTicks(f.ticker, r.price, f.step);
  if (last.price !== price) els.price.textContent = last.price = price;
  const bid = r.bid ? fmtCenti(r.bid) : '';
  if (last.bid !== bid) setText(els.bidQty, (last.bid = bid));
  const ask = r.ask ? fmtCenti(r.ask) : '';
  if (last.ask !== ask) setText(els.askQty, (last.ask = ask));
  // depth bars: the cell's background, its width a registered custom property (--d, 0..1), so
  // a change restyles one element and repaints it: no layout (a width made every changed row
  // a layout root) and no paint property (a scaleX transform on a bar element changed the
  // property trees, so every frame re-layerized the whole page)
  // (drawn by the canvas when there is one)
  const bidBar = f.maxSize ? Math.round((r.bid / f.maxSize) * 100) : 0;
  if (last.bidBar !== bidBar && !f.canvas) els.bidCell.style.setProperty('--d', String(bidBar / 100));
  last.bidBar = bidBar;
  const askBar = f.maxSize ? Math.round((r.ask / f.maxSize) * 100) : 0;
  if (last.askBar !== askBar && !f.canvas) els.askCell.style.setProperty('--d', String(askBar / 100));
  last.askBar = askBar;
  // the running total shows on rows that hold a level: calm rows below the last one
  const cumBid = r.cumBid && r.bid ? fmtCenti(r.cumBid) : '';
  if (last.cumBid !== cumBid) setText(els.cumBid, (last.cumBid = cumBid));
  const cumAsk = r.cumAsk && r.ask ? fmtCenti(r.cumAsk) : '';
  if (last.cumAsk !== cumAsk) setText(els.cumAsk, (last.cumAsk = cumAsk));
  // the last trade's row shows its size beside the session volume there
  const v = f.vol.get(r.price);
  const volText = `${r.price === f.lastRow && f.lastTrade ? `${fmtCenti(f.lastTrade.centi)} · ` : ''}${v ? fmtCenti(v) : ''}`;
  if (last.vol !== volText) setText(els.vol, (last.vol = volText));
  const myBid = myCellText(r.myBid, r.myBidIds, f.queue);
  if (last.myBid !== myBid) setMine(els.myBid, (last.myBid = myBid), 'bid');
  const myAsk = myCellText(r.myAsk, r.myAskIds, f.queue);
  if (last.myAsk !== myAsk) setMine(els.myAsk, (last.myAsk = myAsk), 'ask');
  setLocal(els.myBid, f.marks.length ? f.marks.filter((x) => x.row === i && x.side === 'bid') : NO_MARKS);
  setLocal(els.myAsk, f.marks.length ? f.marks.filter((x) => x.row === i && x.side === 'ask') : NO_MARKS);
}
