// The ladder's paint: levels go straight into the fixed rows from the books store, once per
// animation frame, so a book update never re-renders React (the model is ladder-model.ts).
import { useCallback, useEffect, useRef, type Dispatch, type MutableRefObject, type RefObject, type SetStateAction } from 'react';
import { centiToCount, countToCenti, dollarsToTicks } from '../../../src-shared/money';
import { booksStore } from '../../stores/books';
import { privateStore, restingOrdersIn } from '../../stores/private';
import { fmtCount } from '../../lib/format';
import { ladderGrid } from './ladder-grid';
import { avgRow, buildLadder, inferStep, localMarks, midTicks, openPosition, topForCenter, tradeRow, volumeAtPrice, type LadderModel, type MyOrderLite, type Side, type View } from './ladder-model';
import { useTools, isLiveLocal } from '../../stores/tools';
import { fmtRowTicks } from '../../lib/ticks';
import { useLadderTrades } from './useLadderVolume';
import { LadderCanvas, ladderSurface } from './ladder-canvas';
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

export const ROW_PX = 18;
const NO_MARKS: { id: string; label: string }[] = [];


function myOrdersOf(ticker: string): MyOrderLite[] {
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

export interface LadderPaintInput {
  ticker: string | null;
  view: View;
  step: number;
  top: number | null;
  rowCount: number;
  cursor: number | null;
  dropRow: number | null;
  queueVersion: number;
  queueRef: MutableRefObject<Map<string, string>>;
  setTop: Dispatch<SetStateAction<number | null>>;
  setAutoStep: Dispatch<SetStateAction<number | null>>;
  setHasBook: Dispatch<SetStateAction<boolean>>;
  setStale: Dispatch<SetStateAction<boolean>>;
  /** re-centre by itself when the inside market leaves the rows (off once the trader scrolls) */
  followRef: MutableRefObject<boolean>;
  /** the canvas over the rows that draws their numbers and bars (see ladder-canvas.ts) */
  canvasRef: RefObject<HTMLCanvasElement | null>;
}

/**
 * Each row element's paint cache lives with the element it describes: a row React hands back
 * again keeps the cache of what it shows, and a new element starts from its own (empty) cells.
 * A cache made afresh for an element that still shows old text would take an emptied level for
 * already cleared and leave its size on screen.
 */
const rowCaches = new WeakMap<HTMLDivElement, RowEls>();

function rowElsOf(el: HTMLDivElement): RowEls {
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

/** Paints the rows in animation frames; returns the model of the last paint, the row binder and `schedule`. */
export function useLadderPaint({ ticker, view, step, top, rowCount, cursor, dropRow, queueVersion, queueRef, setTop, setAutoStep, setHasBook, setStale, followRef, canvasRef }: LadderPaintInput) {
  const rowEls = useRef<(RowEls | null)[]>([]);
  const model = useRef<LadderModel | null>(null);
  const frame = useRef<number | null>(null);
  const params = useRef({ ticker, view, step, top, rowCount });
  params.current = { ticker, view, step, top, rowCount };
  const hasBookRef = useRef(false);
  const autoStepRef = useRef<number | null>(null);
  const staleRef = useRef(false);
  const cursorRef = useRef<number | null>(null);
  const dropRef = useRef<number | null>(null);
  cursorRef.current = cursor;
  dropRef.current = dropRow;
  const scheduleRef = useRef<() => void>(() => undefined);
  const onTrades = useCallback(() => scheduleRef.current(), []);
  const trades = useLadderTrades(ticker, onTrades);

  // The canvas painter is tied to the canvas element it draws on: a new element gets a new
  // painter (and an empty record of what it shows). No 2D context (jsdom): the DOM text shows.
  const painterRef = useRef<{ canvas: HTMLCanvasElement; painter: LadderCanvas | null } | null>(null);
  const painterFor = useCallback((): LadderCanvas | null => {
    const canvas = canvasRef.current;
    if (!canvas || !canvas.parentElement) return null;
    if (painterRef.current?.canvas === canvas) return painterRef.current.painter;
    const drawn = ladderSurface(canvas);
    const painter = drawn ? new LadderCanvas({ el: canvas, surface: drawn.surface }, canvas.parentElement, drawn.ctx) : null;
    // the DOM numbers stop painting (they stay in the DOM, read by tests and screen readers)
    if (painter) canvas.parentElement.dataset.canvasText = '';
    painterRef.current = { canvas, painter };
    return painter;
  }, [canvasRef]);

  const paint = useCallback(() => {
    frame.current = null;
    const p = params.current;
    if (!p.ticker) return;
    const painter = painterFor();
    const book = booksStore.getState().byTicker.get(p.ticker);
    if (!book) {
      // no book for this market (yet): its rows show nothing rather than another market's levels
      for (const els of rowEls.current) {
        if (!els || els.last.hidden) continue;
        els.row.style.visibility = 'hidden';
        els.last.hidden = true;
      }
      painter?.draw(rowEls.current);
      return;
    }
    if (!hasBookRef.current) {
      hasBookRef.current = true;
      setHasBook(true);
    }
    // 'auto' is decided by the first book and then kept (rows that changed their spacing under
    // the trader's cursor would move every price); the Row spacing menu sets it by hand
    if (autoStepRef.current === null) {
      autoStepRef.current = inferStep(book);
      setAutoStep(autoStepRef.current);
    }
    // the market's price grid: rows only at prices it takes
    const grid = ladderGrid(p.ticker, p.view);
    if (p.top === null) {
      // an empty book centers on 0.50 until someone quotes
      const mid = midTicks(book) ?? 5000;
      const next = topForCenter(p.view === 'yes' ? mid : 10_000 - mid, p.step, p.rowCount, grid);
      // a spread wider than the rows has no window that shows both sides: paint the centred one
      if (next !== p.top) {
        setTop(next);
        return;
      }
    }
    const m = buildLadder(book, myOrdersOf(p.ticker), { view: p.view, step: p.step, top: p.top, rows: p.rowCount, grid });
    // a side of the inside market has left the rows: follow it (a static ladder only when the trader scrolled)
    const bidOff = m.bestBid !== null && !m.rows.some((r) => r.isBestBid);
    const askOff = m.bestAsk !== null && !m.rows.some((r) => r.isBestAsk);
    if (followRef.current && (bidOff || askOff)) {
      const mid = midTicks(book) ?? 5000;
      const next = topForCenter(p.view === 'yes' ? mid : 10_000 - mid, p.step, p.rowCount, grid);
      // a spread wider than the rows has no window that shows both sides: paint the centred one
      if (next !== p.top) {
        setTop(next);
        return;
      }
    }
    model.current = m;
    if (m.stale !== staleRef.current) {
      staleRef.current = m.stale;
      setStale(m.stale);
    }
    const q = queueRef.current;
    const marks = localMarks(m.rows, localsOf(p.ticker), p.view, p.step, grid);
    const tr = trades.current;
    const vol = volumeAtPrice(tr.byPrice.values(), p.view, p.step, grid);
    const lastRow = tr.last ? tradeRow(tr.last, p.view, p.step, grid) : null;
    const pos = privateStore.getState().positions[p.ticker];
    const open = openPosition(pos?.position, pos?.exposure, null);
    const avgAt = open ? avgRow(open.avgYesTicks, p.view, p.step, grid) : null;
    for (let i = 0; i < rowEls.current.length; i++) {
      const els = rowEls.current[i];
      if (!els) continue;
      const r = m.rows[i];
      if (!r) {
        if (!els.last.hidden) els.row.style.visibility = 'hidden';
        els.last.hidden = true;
        continue;
      }
      // Each write only when its value changed: an equal textContent still replaces the text node
      // and dirties layout, and under a firehose most cells of most rows stay the same.
      const last = els.last;
      if (last.hidden) {
        els.row.style.visibility = '';
        last.hidden = false;
      }
      const cls = `ladder-row z-${r.zone}${r.isBestBid ? ' best-bid' : ''}${r.isBestAsk ? ' best-ask' : ''}${i === cursorRef.current ? ' cursor' : ''}${i === dropRef.current ? ' drop-target' : ''}${r.price === lastRow ? ' last-trade' : ''}${r.price === avgAt ? ' avg-open' : ''}`;
      if (last.cls !== cls) els.row.className = last.cls = cls;
      const price = fmtRowTicks(p.ticker, r.price, p.step);
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
      const bidBar = m.maxSize ? Math.round((r.bid / m.maxSize) * 100) : 0;
      if (last.bidBar !== bidBar && !painter) els.bidCell.style.setProperty('--d', String(bidBar / 100));
      last.bidBar = bidBar;
      const askBar = m.maxSize ? Math.round((r.ask / m.maxSize) * 100) : 0;
      if (last.askBar !== askBar && !painter) els.askCell.style.setProperty('--d', String(askBar / 100));
      last.askBar = askBar;
      // the running total shows on rows that hold a level: calm rows below the last one
      const cumBid = r.cumBid && r.bid ? fmtCenti(r.cumBid) : '';
      if (last.cumBid !== cumBid) setText(els.cumBid, (last.cumBid = cumBid));
      const cumAsk = r.cumAsk && r.ask ? fmtCenti(r.cumAsk) : '';
      if (last.cumAsk !== cumAsk) setText(els.cumAsk, (last.cumAsk = cumAsk));
      // the last trade's row shows its size beside the session volume there
      const v = vol.get(r.price);
      const volText = `${r.price === lastRow && tr.last ? `${fmtCenti(tr.last.centi)} · ` : ''}${v ? fmtCenti(v) : ''}`;
      if (last.vol !== volText) setText(els.vol, (last.vol = volText));
      const myBid = myCellText(r.myBid, r.myBidIds, q);
      if (last.myBid !== myBid) setMine(els.myBid, (last.myBid = myBid), 'bid');
      const myAsk = myCellText(r.myAsk, r.myAskIds, q);
      if (last.myAsk !== myAsk) setMine(els.myAsk, (last.myAsk = myAsk), 'ask');
      setLocal(els.myBid, marks.length ? marks.filter((x) => x.row === i && x.side === 'bid') : NO_MARKS);
      setLocal(els.myAsk, marks.length ? marks.filter((x) => x.row === i && x.side === 'ask') : NO_MARKS);
    }
    painter?.draw(rowEls.current);
  }, [queueRef, setAutoStep, setHasBook, setStale, setTop, followRef, trades, painterFor]);
  useEffect(() => {
    hasBookRef.current = false;
    autoStepRef.current = null;
    staleRef.current = false;
  }, [ticker]);

  const schedule = useCallback(() => {
    if (frame.current === null) frame.current = requestAnimationFrame(paint);
  }, [paint]);
  scheduleRef.current = schedule;

  useEffect(() => {
    const offBooks = booksStore.subscribe((s, prev) => {
      const t = params.current.ticker;
      if (t && s.byTicker.get(t) !== undefined && (s.version !== prev.version)) schedule();
    });
    const offPrivate = privateStore.subscribe((s, prev) => {
      if (s.orders !== prev.orders || s.positions !== prev.positions) schedule();
    });
    const offLocal = useTools.subscribe((s, prev) => {
      if (s.local !== prev.local) schedule();
    });
    return () => {
      offBooks();
      offPrivate();
      offLocal();
      if (frame.current !== null) cancelAnimationFrame(frame.current);
      frame.current = null;
    };
  }, [schedule]);

  /** The rows' geometry or look changed (columns, size, theme): the canvas measures and draws again. */
  const invalidateCanvas = useCallback(() => {
    painterRef.current?.painter?.invalidate();
    schedule();
  }, [schedule]);

  // structure changed: repaint once the rows exist (a scroll or a new market changes what the
  // rows show, which the canvas draws cell by cell; only rows added or dropped move its geometry)
  useEffect(() => {
    schedule();
  }, [ticker, view, step, top, cursor, dropRow, queueVersion, schedule]);
  useEffect(() => invalidateCanvas(), [rowCount, invalidateCanvas]);

  // the canvas follows the rows' size and the theme
  useEffect(() => {
    const host = canvasRef.current?.parentElement;
    if (!host) return undefined;
    const ro = new ResizeObserver(invalidateCanvas);
    ro.observe(host);
    const mo = new MutationObserver(invalidateCanvas);
    mo.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => {
      ro.disconnect();
      mo.disconnect();
    };
  }, [canvasRef, invalidateCanvas, ticker]);

  // One stable ref callback per row index: a new callback each render would make React detach
  // and re-attach every row on every re-render.
  const binders = useRef(new Map<number, (el: HTMLDivElement | null) => void>());
  const bindRow = useCallback((i: number) => {
    let bind = binders.current.get(i);
    if (!bind) {
      bind = (el: HTMLDivElement | null) => {
        rowEls.current[i] = el ? rowElsOf(el) : null;
      };
      binders.current.set(i, bind);
    }
    return bind;
  }, []);
  useEffect(() => {
    rowEls.current.length = rowCount;
  }, [rowCount]);

  return { model, rowEls, bindRow, schedule, dropRef, invalidateCanvas };
}
