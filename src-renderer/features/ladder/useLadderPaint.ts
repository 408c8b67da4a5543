// The ladder's paint: levels go straight into the fixed rows from the books store, once per
// animation frame, so a book update never re-renders React (the model is ladder-model.ts; the
// writes into the rows' DOM are ladder-paint-rows.ts).
import { useCallback, useEffect, useRef, type Dispatch, type MutableRefObject, type RefObject, type SetStateAction } from 'react';
import type { BookView } from '../../../src-shared/ipc/contract';
import { booksStore } from '../../stores/books';
import { privateStore } from '../../stores/private';
import { ladderGrid } from './ladder-grid';
import { buildLadder, inferStep, midTicks, topForCenter, type LadderModel, type TickGrid, type View } from './ladder-model';
import { useTools } from '../../stores/tools';
import { useLadderTrades, type LadderTrades } from './useLadderVolume';
import { LadderCanvas, ladderSurface } from './ladder-canvas';
import { hideRows, myOrdersOf, paintRows, rowElsOf } from './ladder-paint-rows';
import type { RowEls } from './row-els';

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

interface PaintParams {
  ticker: string | null;
  view: View;
  step: number;
  top: number | null;
  rowCount: number;
}

/** The window that centres the inside market (an empty book centers on 0.50 until someone quotes). */
function centredTop(book: BookView, p: PaintParams, grid: TickGrid | undefined): number {
  const mid = midTicks(book) ?? 5000;
  return topForCenter(p.view === 'yes' ? mid : 10_000 - mid, p.step, p.rowCount, grid);
}

/**
 * The canvas painter is tied to the canvas element it draws on: a new element gets a new
 * painter (and an empty record of what it shows). No 2D context (jsdom): the DOM text shows.
 */
function useCanvasPainter(canvasRef: RefObject<HTMLCanvasElement | null>) {
  const painterRef = useRef<{ canvas: HTMLCanvasElement; painter: LadderCanvas | null } | null>(null);
  const painterFor = useCallback((): LadderCanvas | null => {
    const canvas = canvasRef.current;
    if (!canvas || !canvas.parentElement) return null;
    if (painterRef.current?.canvas === canvas) return painterRef.current.painter;
    const drawn = ladderSurface(canvas);
    const painter = drawn ? new LadderCanvas({ el: canvas, surface: drawn.surface }, canvas.parentElement, drawn.ctx, undefined, drawn.screen) : null;
    // the DOM numbers stop painting (they stay in the DOM, read by tests and screen readers)
    if (painter) canvas.parentElement.dataset.canvasText = '';
    painterRef.current = { canvas, painter };
    return painter;
  }, [canvasRef]);
  return { painterRef, painterFor };
}

/** Repaints on a batch that changed this ladder's market, my orders or positions, or the local orders; drops a pending frame on unmount. */
function useRepaintOnStores(params: MutableRefObject<PaintParams>, frame: MutableRefObject<number | null>, schedule: () => void) {
  useEffect(() => {
    const offBooks = booksStore.subscribe((s, prev) => {
      const t = params.current.ticker;
      // only a batch that changed this ladder's market repaints it
      if (t && s.version !== prev.version && (!s.changed || s.changed.has(t)) && s.byTicker.get(t) !== undefined) schedule();
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
  }, [schedule, params, frame]);
}

/** The canvas follows the rows' size, the theme and the text size. */
function useCanvasFollowsHost(canvasRef: RefObject<HTMLCanvasElement | null>, invalidateCanvas: () => void, ticker: string | null) {
  useEffect(() => {
    const host = canvasRef.current?.parentElement;
    if (!host) return undefined;
    const ro = new ResizeObserver(invalidateCanvas);
    ro.observe(host);
    const mo = new MutationObserver(invalidateCanvas);
    mo.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme', 'data-font-px'] });
    return () => {
      ro.disconnect();
      mo.disconnect();
    };
  }, [canvasRef, invalidateCanvas, ticker]);
}

/**
 * One stable ref callback per row index: a new callback each render would make React detach
 * and re-attach every row on every re-render.
 */
function useRowBinder(rowEls: MutableRefObject<(RowEls | null)[]>, rowCount: number) {
  const binders = useRef(new Map<number, (el: HTMLDivElement | null) => void>());
  const bindRow = useCallback(
    (i: number) => {
      let bind = binders.current.get(i);
      if (!bind) {
        bind = (el: HTMLDivElement | null) => {
          rowEls.current[i] = el ? rowElsOf(el) : null;
        };
        binders.current.set(i, bind);
      }
      return bind;
    },
    [rowEls],
  );
  useEffect(() => {
    rowEls.current.length = rowCount;
  }, [rowCount, rowEls]);
  return bindRow;
}

interface PaintFrameInput extends Pick<LadderPaintInput, 'ticker' | 'queueRef' | 'followRef' | 'setTop' | 'setAutoStep' | 'setHasBook' | 'setStale'> {
  params: MutableRefObject<PaintParams>;
  frame: MutableRefObject<number | null>;
  rowEls: MutableRefObject<(RowEls | null)[]>;
  model: MutableRefObject<LadderModel | null>;
  cursorRef: MutableRefObject<number | null>;
  dropRef: MutableRefObject<number | null>;
  trades: MutableRefObject<LadderTrades>;
  painterFor: () => LadderCanvas | null;
}

/**
 * One frame's paint: the book of the market in `params` into the rows (or, when the window must
 * move first, the new top; React renders and the next frame paints). What the book told React
 * (a first book, its step, stale) is said once each, and forgotten with a new market.
 */
function usePaintFrame({ ticker, params, frame, rowEls, model, cursorRef, dropRef, queueRef, trades, painterFor, followRef, setTop, setAutoStep, setHasBook, setStale }: PaintFrameInput) {
  const hasBookRef = useRef(false);
  const autoStepRef = useRef<number | null>(null);
  const staleRef = useRef(false);
  const paint = useCallback(() => {
    frame.current = null;
    const p = params.current;
    if (!p.ticker) return;
    const painter = painterFor();
    const book = booksStore.getState().byTicker.get(p.ticker);
    if (!book) {
      hideRows(rowEls.current);
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
      setTop(centredTop(book, p, grid));
      return;
    }
    const m = buildLadder(book, myOrdersOf(p.ticker), { view: p.view, step: p.step, top: p.top, rows: p.rowCount, grid });
    // a side of the inside market has left the rows: follow it (a static ladder only when the trader scrolled)
    const bidOff = m.bestBid !== null && !m.rows.some((r) => r.isBestBid);
    const askOff = m.bestAsk !== null && !m.rows.some((r) => r.isBestAsk);
    if (followRef.current && (bidOff || askOff)) {
      const next = centredTop(book, p, grid);
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
    paintRows(rowEls.current, m, { ticker: p.ticker, view: p.view, step: p.step, grid, cursor: cursorRef.current, drop: dropRef.current, queue: queueRef.current, trades: trades.current, canvas: !!painter });
    painter?.draw(rowEls.current);
  }, [queueRef, setAutoStep, setHasBook, setStale, setTop, followRef, trades, painterFor, params, frame, rowEls, model, cursorRef, dropRef]);
  useEffect(() => {
    hasBookRef.current = false;
    autoStepRef.current = null;
    staleRef.current = false;
  }, [ticker]);
  return paint;
}

/** Paints the rows in animation frames; returns the model of the last paint, the row binder and `schedule`. */
export function useLadderPaint({ ticker, view, step, top, rowCount, cursor, dropRow, queueVersion, queueRef, setTop, setAutoStep, setHasBook, setStale, followRef, canvasRef }: LadderPaintInput) {
  const rowEls = useRef<(RowEls | null)[]>([]);
  const model = useRef<LadderModel | null>(null);
  const frame = useRef<number | null>(null);
  const params = useRef<PaintParams>({ ticker, view, step, top, rowCount });
  params.current = { ticker, view, step, top, rowCount };
  const cursorRef = useRef<number | null>(null);
  const dropRef = useRef<number | null>(null);
  cursorRef.current = cursor;
  dropRef.current = dropRow;
  const scheduleRef = useRef<() => void>(() => undefined);
  const onTrades = useCallback(() => scheduleRef.current(), []);
  const trades = useLadderTrades(ticker, onTrades);
  const { painterRef, painterFor } = useCanvasPainter(canvasRef);

  const paint = usePaintFrame({ ticker, params, frame, rowEls, model, cursorRef, dropRef, queueRef, trades, painterFor, followRef, setTop, setAutoStep, setHasBook, setStale });

  const schedule = useCallback(() => {
    if (frame.current === null) frame.current = requestAnimationFrame(paint);
  }, [paint]);
  scheduleRef.current = schedule;
  useRepaintOnStores(params, frame, schedule);

  /** The rows' geometry or look changed (columns, size, theme): the canvas measures and draws again. */
  const invalidateCanvas = useCallback(() => {
    painterRef.current?.painter?.invalidate();
    schedule();
  }, [schedule, painterRef]);

  // structure changed: repaint once the rows exist (a scroll or a new market changes what the
  // rows show, which the canvas draws cell by cell; only rows added or dropped move its geometry)
  useEffect(() => {
    schedule();
  }, [ticker, view, step, top, cursor, dropRow, queueVersion, schedule]);
  useEffect(() => invalidateCanvas(), [rowCount, invalidateCanvas]);
  useCanvasFollowsHost(canvasRef, invalidateCanvas, ticker);
  const bindRow = useRowBinder(rowEls, rowCount);

  return { model, rowEls, bindRow, schedule, dropRef, invalidateCanvas };
}
