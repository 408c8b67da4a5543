// The heatmap's frames: drawn in requestAnimationFrame when the history changed (a book, a trade,
// a bucket closing) or the view did (size, zoom, scroll, theme), never on a timer of its own.
import { useCallback, useEffect, useRef, type MutableRefObject, type RefObject } from 'react';
import { fmtTicks } from '../../lib/ticks';
import { HeatPainter, type HeatFrame, type HeatTheme } from './heat-canvas';
import { followTop } from './heat-follow';
import { onHeatChange, seriesOf } from './heat-history';
import { inferStep, slots, xOfSeq, type HeatGeometry } from './heat-view';

export interface HeatViewState {
  ticker: string | null;
  width: number;
  height: number;
  colPx: number;
  rowPx: number;
  /** the top row the trader scrolled to (null: follows the market) */
  top: number | null;
  /** the seq in the rightmost slot (null: live) */
  endSeq: number | null;
  cursor: number | null;
}

function themeOf(el: Element): HeatTheme {
  const css = getComputedStyle(el);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    bg: v('--bg-panel', '#13161b'),
    text: v('--text', '#d6dae0'),
    dim: v('--text-dim', '#8a929e'),
    grid: v('--border-strong', '#3a414d'),
    bid: v('--bid', '#3fb27f'),
    ask: v('--ask', '#e5635b'),
    mine: v('--mine', '#c7a3ff'),
    trade: 'rgba(255,255,255,0.85)',
  };
}

/** The canvas's geometry attributes, for the display-truth harness (written only when they change). */
function mark(canvas: HTMLCanvasElement, g: HeatGeometry, liveX: number | null): void {
  const attrs: Record<string, string> = { top: String(g.top), step: String(g.step), rowPx: String(g.rowPx), colPx: String(g.colPx), liveX: liveX === null ? '' : String(liveX) };
  for (const [k, v] of Object.entries(attrs)) if (canvas.dataset[k] !== v) canvas.dataset[k] = v;
}

export function useHeatPaint(canvasRef: RefObject<HTMLCanvasElement | null>, view: HeatViewState, setHasData: (v: boolean) => void) {
  const viewRef = useRef(view);
  viewRef.current = view;
  const painter = useRef<{ canvas: HTMLCanvasElement; p: HeatPainter | null } | null>(null);
  const stepRef = useRef<number | null>(null);
  const followRef = useRef<number | null>(null);
  /** the geometry of the last frame (the input hooks read it) */
  const geometry: MutableRefObject<HeatGeometry | null> = useRef(null);
  const frame = useRef<number | null>(null);
  const hasData = useRef<boolean | null>(null);

  const painterFor = useCallback((): HeatPainter | null => {
    const canvas = canvasRef.current;
    if (!canvas) return null;
    if (painter.current?.canvas === canvas) return painter.current.p;
    const ctx = canvas.getContext('2d');
    painter.current = { canvas, p: ctx ? new HeatPainter(canvas, ctx, themeOf(canvas)) : null };
    return painter.current.p;
  }, [canvasRef]);

  const paint = useCallback(() => {
    frame.current = null;
    const v = viewRef.current;
    const s = seriesOf(v.ticker);
    const latest = s?.latest();
    if (hasData.current !== (latest !== undefined)) {
      hasData.current = latest !== undefined;
      setHasData(hasData.current);
    }
    if (!s || !latest || v.width <= 0 || v.height <= 0) return;
    stepRef.current ??= inferStep(latest.bids, latest.asks);
    const base = { width: v.width, height: v.height, colPx: v.colPx, rowPx: v.rowPx, step: stepRef.current };
    followRef.current = v.top ?? followTop(followRef.current, latest, base);
    const g: HeatGeometry = { ...base, top: followRef.current };
    geometry.current = g;
    const live = v.endSeq === null;
    const f: HeatFrame = { series: s, g, endSeq: live ? s.lastSeq : v.endSeq!, live, fmtPrice: (t) => fmtTicks(v.ticker, t), cursor: v.cursor };
    const canvas = canvasRef.current;
    if (canvas) mark(canvas, g, live ? xOfSeq(s.lastSeq, s.lastSeq, g) : null);
    const p = painterFor();
    if (p?.needs(f)) p.draw(f);
  }, [canvasRef, painterFor, setHasData]);

  const schedule = useCallback(() => {
    if (frame.current === null) frame.current = requestAnimationFrame(paint);
  }, [paint]);

  useEffect(() => {
    stepRef.current = null;
    followRef.current = null;
    hasData.current = null;
  }, [view.ticker]);

  useEffect(() => {
    const off = onHeatChange(schedule);
    const mo = new MutationObserver(() => {
      const p = painterFor();
      if (p && canvasRef.current) p.setTheme(themeOf(canvasRef.current));
      schedule();
    });
    mo.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => {
      off();
      mo.disconnect();
      if (frame.current !== null) cancelAnimationFrame(frame.current);
      frame.current = null;
    };
  }, [schedule, painterFor, canvasRef]);

  // the view changed: draw (the painter tells a new geometry from its key)
  useEffect(() => {
    schedule();
  }, [view.ticker, view.width, view.height, view.colPx, view.rowPx, view.top, view.endSeq, view.cursor, schedule]);

  return { geometry, schedule, shown: (g: HeatGeometry) => slots(g) };
}
