// The heatmap's drawing, on a 2D canvas. The heat (resting size per price, per time bucket) is kept
// in an offscreen cache one column per bucket: a bucket that closes shifts the cache left and adds
// its column; history is drawn again only when the geometry, the colour scale or the scrolled
// position changes. The closed columns' lines (best bid and ask) and marks (trades, my orders and
// fills) are kept the same way, in two transparent layers at the screen's pixels. Each frame blits
// the heat (its open column, the book as it stands, drawn into it), the lines layer and the open
// column's lines, the marks layer and the open column's marks, then the axes: a frame draws one
// column's shapes, not a path through every column and a bubble per trade on screen (those were
// most of the heatmap's cost a frame). Colours of the text and lines are CSS's own (read when the
// theme changes).
import type { HeatColumn, HeatSeries } from './heat-model';
import { heatOf, scaleTop } from './heat-model';
import { AXIS_W, TIME_H, heatHeight, heatWidth, rowOf, rowsShown, slots, xOfSeq, yOfPrice, type HeatGeometry } from './heat-view';

/** RGBA stops of the heat scale (dark blue for a little, through cyan and yellow, to red and white for the most). */
const STOPS: [number, number, number, number][] = [
  [0, 20, 40, 110],
  [0.3, 25, 110, 210],
  [0.5, 0, 200, 220],
  [0.7, 250, 230, 60],
  [0.88, 255, 130, 20],
  [1, 255, 250, 240],
];

/** 256 colours as little-endian RGBA words (for ImageData's Uint32 view). */
export function heatPalette(): Uint32Array {
  const out = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    const f = i / 255;
    let k = 1;
    while (k < STOPS.length - 1 && STOPS[k]![0] < f) k++;
    const [f0, r0, g0, b0] = STOPS[k - 1]!;
    const [f1, r1, g1, b1] = STOPS[k]!;
    const u = f1 === f0 ? 0 : (f - f0) / (f1 - f0);
    const mix = (a: number, b: number) => Math.round(a + (b - a) * u);
    out[i] = (255 << 24) | (mix(b0, b1) << 16) | (mix(g0, g1) << 8) | mix(r0, r1);
  }
  return out;
}

export interface HeatTheme {
  bg: string;
  text: string;
  dim: string;
  grid: string;
  bid: string;
  ask: string;
  mine: string;
  trade: string;
}

export interface HeatFrame {
  series: HeatSeries;
  g: HeatGeometry;
  /** the seq drawn in the rightmost slot */
  endSeq: number;
  live: boolean;
  /** labels of YES prices, e.g. "0.45" */
  fmtPrice: (ticks: number) => string;
  /** the price under the pointer or the keyboard cursor */
  cursor: number | null;
}

type Surface = HTMLCanvasElement | OffscreenCanvas;
type Ctx = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;

interface Layer {
  surface: Surface;
  ctx: Ctx;
}

function makeSurface(w: number, h: number): Layer | null {
  const surface: Surface = typeof OffscreenCanvas !== 'undefined' ? new OffscreenCanvas(w, h) : Object.assign(document.createElement('canvas'), { width: w, height: h });
  const ctx = surface.getContext('2d') as Ctx | null;
  return ctx ? { surface, ctx } : null;
}

/** The heat of one column into `img` (colPx wide, the heat's height), background where nothing rests. */
function columnPixels(col: HeatColumn | undefined, g: HeatGeometry, top: number, img: ImageData, sums: Float64Array, palette: Uint32Array, bgWord: number): void {
  const px = new Uint32Array(img.data.buffer);
  px.fill(bgWord);
  if (!col) return;
  sums.fill(0);
  const rows = sums.length;
  const add = (flat: ArrayLike<number>, side: 'bid' | 'ask') => {
    for (let i = 0; i < flat.length; i += 2) {
      const r = (g.top - rowOf(flat[i]!, g.step, side)) / g.step;
      if (r >= 0 && r < rows) sums[r]! += flat[i + 1]!;
    }
  };
  add(col.bids, 'bid');
  add(col.asks, 'ask');
  const w = img.width;
  const h = img.height;
  for (let r = 0; r < rows; r++) {
    const size = sums[r]!;
    if (size <= 0) continue;
    const word = palette[Math.max(24, Math.round(heatOf(size, top) * 255))]!;
    const y0 = r * g.rowPx;
    const y1 = Math.min(h, y0 + g.rowPx);
    for (let y = y0; y < y1; y++) px.fill(word, y * w, y * w + w);
  }
}

/** The CSS colour as a little-endian RGBA word. */
function cssWord(ctx: Ctx, css: string): number {
  ctx.fillStyle = '#000';
  ctx.fillStyle = css;
  const hex = String(ctx.fillStyle);
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return 0xff000000;
  return (255 << 24) | (parseInt(m[3]!, 16) << 16) | (parseInt(m[2]!, 16) << 8) | parseInt(m[1]!, 16);
}

export class HeatPainter {
  private readonly palette = heatPalette();
  private cache: Layer | null = null;
  /** the closed columns' best bid / ask lines and their marks, transparent, in device pixels */
  private lines: Layer | null = null;
  private marks: Layer | null = null;
  private img: ImageData | null = null;
  private sums = new Float64Array(0);
  /** what the cache holds: its geometry and scale, and the seq in its rightmost slot */
  private key = '';
  private cacheEnd = 0;
  private drawnVersion = -1;
  private drawnCursor: number | null = null;
  private cachedSeries: HeatSeries | null = null;
  private bgWord = 0xff000000;
  /** columns drawn into the cache (for tests and the bench: a live frame draws one or two) */
  columnsDrawn = 0;

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly ctx: CanvasRenderingContext2D,
    private theme: HeatTheme,
  ) {}

  setTheme(theme: HeatTheme): void {
    this.theme = theme;
    this.key = '';
  }

  /** Geometry or look changed: the cache is drawn again at the next frame. */
  invalidate(): void {
    this.key = '';
  }

  /** Whether a frame would show something new. */
  needs(f: HeatFrame): boolean {
    return f.series !== this.cachedSeries || f.series.version !== this.drawnVersion || f.cursor !== this.drawnCursor || this.key !== this.keyOf(f);
  }

  private keyOf(f: HeatFrame): string {
    const g = f.g;
    // a bubble's radius follows the most trades at a price in a bucket: the marks are drawn again when it grows
    const dpr = globalThis.devicePixelRatio || 1;
    return `${g.width}x${g.height}@${dpr}|${g.colPx}|${g.rowPx}|${g.step}|${g.top}|${scaleTop(f.series.maxCenti)}|${f.series.maxTrades}|${f.live ? 'live' : `at${f.endSeq}`}`;
  }

  draw(f: HeatFrame): void {
    const { g } = f;
    const dpr = globalThis.devicePixelRatio || 1;
    const w = Math.round(g.width * dpr);
    const h = Math.round(g.height * dpr);
    if (this.canvas.width !== w || this.canvas.height !== h) {
      this.canvas.width = w;
      this.canvas.height = h;
    }
    this.updateCache(f, dpr);
    const ctx = this.ctx;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.imageSmoothingEnabled = false;
    ctx.fillStyle = this.theme.bg;
    ctx.fillRect(0, 0, g.width, g.height);
    const W = heatWidth(g);
    const H = heatHeight(g);
    if (this.cache) ctx.drawImage(this.cache.surface, 0, 0);
    // the open column's shapes (live only: a paused view shows closed columns alone)
    const open = f.live && f.endSeq === f.series.lastSeq ? f.endSeq : null;
    ctx.save();
    ctx.beginPath();
    ctx.rect(0, 0, W, H);
    ctx.clip();
    const [dw, dh] = [Math.round(W * dpr), Math.round(H * dpr)];
    if (this.lines) ctx.drawImage(this.lines.surface, 0, 0, dw, dh, 0, 0, W, H);
    if (open !== null) this.strokeSteps(ctx, f, open, open);
    if (this.marks) ctx.drawImage(this.marks.surface, 0, 0, dw, dh, 0, 0, W, H);
    if (open !== null) this.drawMarks(ctx, f, open, open);
    ctx.restore();
    this.drawPriceAxis(f);
    this.drawTimeAxis(f);
    this.drawnVersion = f.series.version;
    this.drawnCursor = f.cursor;
  }

  /** Brings the cache to the frame: shifted by the columns closed since, or drawn whole. */
  private updateCache(f: HeatFrame, dpr: number): void {
    const { g, series } = f;
    const W = Math.max(1, heatWidth(g));
    const H = Math.max(1, heatHeight(g));
    const key = this.keyOf(f);
    const n = slots(g);
    let from: number;
    if (key !== this.key || f.series !== this.cachedSeries || !this.cache || (f.live && f.endSeq - this.cacheEnd >= n)) {
      if (!this.cache || this.cache.surface.width !== W || this.cache.surface.height !== H) this.cache = makeSurface(W, H);
      if (!this.cache) return;
      this.img = new ImageData(g.colPx, H);
      this.sums = new Float64Array(rowsShown(g));
      this.bgWord = cssWord(this.cache.ctx, this.theme.bg);
      this.cache.ctx.fillStyle = this.theme.bg;
      this.cache.ctx.fillRect(0, 0, W, H);
      this.lines = overlay(this.lines, W, H, dpr);
      this.marks = overlay(this.marks, W, H, dpr);
      from = f.endSeq - n + 1;
      this.key = key;
      this.cachedSeries = series;
    } else if (f.live && f.endSeq > this.cacheEnd) {
      // buckets closed: move the history left, draw from the one that was open
      const d = f.endSeq - this.cacheEnd;
      shiftLeft(this.cache, d * g.colPx); // CSS px; its new columns are drawn below
      for (const layer of [this.lines, this.marks]) if (layer) shiftLeft(layer, d * g.colPx * dpr);
      from = this.cacheEnd;
    } else from = f.live ? f.endSeq : f.endSeq + 1; // live: only the open column changes
    const top = scaleTop(series.maxCenti);
    for (let s = Math.max(from, series.firstSeq); s <= f.endSeq; s++) {
      const col = series.column(s);
      if (!col || !this.img) continue;
      columnPixels(col, g, top, this.img, this.sums, this.palette, this.bgWord);
      this.cache.ctx.putImageData(this.img, xOfSeq(s, f.endSeq, g), 0);
      this.columnsDrawn++;
    }
    // the closed columns new to the view get their shapes in the layers (the open one is drawn each frame)
    const a = Math.max(from, series.firstSeq, f.endSeq - n + 1);
    const b = Math.min(f.live ? f.endSeq - 1 : f.endSeq, series.lastSeq);
    if (a <= b && this.lines && this.marks) {
      this.strokeSteps(this.lines.ctx, f, a, b);
      this.drawMarks(this.marks.ctx, f, a, b);
    }
    this.cacheEnd = f.endSeq;
  }

  private visible(f: HeatFrame): [number, number] {
    return [Math.max(f.series.firstSeq, f.endSeq - slots(f.g) + 1), Math.min(f.endSeq, f.series.lastSeq)];
  }

  /**
   * The best bid and ask of columns a..b as step lines: each column a flat stroke across it, joined
   * to the column before by a vertical one (square caps close the corners where strokes meet). One
   * stroke a column and side, so a column looks the same drawn alone (a frame's open column, a
   * bucket that just closed) or with the rest (a whole redraw).
   */
  private strokeSteps(ctx: Ctx, f: HeatFrame, a: number, b: number): void {
    const { g, series } = f;
    const half = g.rowPx / 2;
    const [first] = this.visible(f);
    const yAt = (s: number, side: 'bid' | 'ask'): number | null => {
      const col = series.column(s);
      const best = side === 'bid' ? col?.bids[0] : col?.asks[0];
      return best === undefined ? null : yOfPrice(rowOf(best, g.step, side), g) + half;
    };
    ctx.lineWidth = 2;
    ctx.lineCap = 'square';
    ctx.lineJoin = 'miter';
    for (let s = a; s <= b; s++) {
      const x = xOfSeq(s, f.endSeq, g);
      for (const side of ['bid', 'ask'] as const) {
        const y = yAt(s, side);
        if (y === null) continue;
        const prev = s > first ? yAt(s - 1, side) : null;
        ctx.beginPath();
        ctx.moveTo(x, prev ?? y);
        ctx.lineTo(x, y);
        ctx.lineTo(x + g.colPx, y);
        ctx.strokeStyle = side === 'bid' ? this.theme.bid : this.theme.ask;
        ctx.stroke();
      }
    }
  }

  /** Columns a..b's marks, a column at a time: my resting orders as a band, trades as bubbles sized by their count, my fills as diamonds. */
  private drawMarks(ctx: Ctx, f: HeatFrame, a: number, b: number): void {
    const { g, series } = f;
    const half = g.rowPx / 2;
    const maxR = Math.max(4, Math.min(14, g.rowPx * 1.6));
    for (let s = a; s <= b; s++) {
      const col = series.column(s);
      if (!col) continue;
      const x = xOfSeq(s, f.endSeq, g);
      const mid = x + g.colPx / 2;
      ctx.fillStyle = this.theme.mine;
      for (let i = 0; i < col.mine.length; i += 2) ctx.fillRect(x, yOfPrice(rowOf(col.mine[i]!, g.step, col.mine[i + 1] === 1 ? 'bid' : 'ask'), g) + half - 1.5, g.colPx, 3);
      ctx.lineWidth = 1;
      for (let i = 0; i < col.trades.length; i += 3) {
        const r = 2 + (maxR - 2) * Math.sqrt(col.trades[i + 1]! / Math.max(1, series.maxTrades));
        ctx.beginPath();
        ctx.arc(mid, yOfPrice(Math.round(col.trades[i]! / g.step) * g.step, g) + half, r, 0, Math.PI * 2);
        ctx.fillStyle = 'rgba(255,255,255,0.28)';
        ctx.fill();
        ctx.strokeStyle = this.theme.trade;
        ctx.stroke();
      }
      for (let i = 0; i < col.fills.length; i += 3) diamond(ctx, mid, yOfPrice(Math.round(col.fills[i]! / g.step) * g.step, g) + half, 6, col.fills[i + 1] === 1 ? this.theme.bid : this.theme.ask, this.theme.text);
    }
  }

  private drawPriceAxis(f: HeatFrame): void {
    const { g } = f;
    const ctx = this.ctx;
    const x0 = heatWidth(g);
    const H = heatHeight(g);
    ctx.fillStyle = this.theme.bg;
    ctx.fillRect(x0, 0, AXIS_W, g.height);
    ctx.fillStyle = this.theme.grid;
    ctx.fillRect(x0, 0, 1, H);
    const every = Math.max(1, Math.ceil(16 / g.rowPx));
    const latest = f.series.latest();
    const marks = new Map<number, string>();
    if (latest?.bids[0] !== undefined) marks.set(rowOf(latest.bids[0], g.step, 'bid'), this.theme.bid);
    if (latest?.asks[0] !== undefined) marks.set(rowOf(latest.asks[0], g.step, 'ask'), this.theme.ask);
    if (f.cursor !== null) marks.set(f.cursor, this.theme.text);
    ctx.font = '11px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'left';
    const rows = rowsShown(g);
    // a grid label gives way to a marked price (best bid, best ask, cursor) and to the axis' end
    const markYs = [...marks.keys()].map((p) => yOfPrice(p, g) + g.rowPx / 2);
    for (let r = 0; r < rows; r++) {
      const price = g.top - r * g.step;
      const mark = marks.get(price);
      const onGrid = Math.round(price / g.step) % every === 0;
      if (!mark && !onGrid) continue;
      const y = r * g.rowPx + g.rowPx / 2;
      if (!mark && (y + 6 > H || markYs.some((my) => Math.abs(my - y) < 13))) continue;
      if (mark) {
        ctx.fillStyle = mark;
        ctx.fillRect(x0 + 1, y - 7, AXIS_W - 1, 14);
        ctx.fillStyle = this.theme.bg;
      } else ctx.fillStyle = this.theme.dim;
      ctx.fillText(f.fmtPrice(price), x0 + 5, y);
    }
    if (f.cursor !== null) {
      ctx.fillStyle = this.theme.text;
      ctx.globalAlpha = 0.5;
      ctx.fillRect(0, yOfPrice(f.cursor, g) + g.rowPx / 2, x0, 1);
      ctx.globalAlpha = 1;
    }
  }

  private drawTimeAxis(f: HeatFrame): void {
    const { g, series } = f;
    const ctx = this.ctx;
    const y0 = heatHeight(g);
    ctx.fillStyle = this.theme.bg;
    ctx.fillRect(0, y0, g.width, TIME_H);
    ctx.fillStyle = this.theme.grid;
    ctx.fillRect(0, y0, heatWidth(g), 1);
    const bucketMs = series.bucketMs;
    const steps = [1000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000];
    const every = steps.find((ms) => (ms / bucketMs) * g.colPx >= 72) ?? 600_000;
    const [a, b] = this.visible(f);
    ctx.font = '10px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'center';
    for (let s = a; s <= b; s++) {
      const t = series.time(s);
      if (t === undefined || t % every !== 0) continue;
      const x = xOfSeq(s, f.endSeq, g);
      if (x < 28 || x > heatWidth(g) - 28) continue;
      ctx.fillStyle = this.theme.grid;
      ctx.fillRect(x, y0, 1, 4);
      ctx.fillStyle = this.theme.dim;
      ctx.fillText(clock(t, every < 60_000), x, y0 + TIME_H / 2 + 1);
    }
  }
}

/**
 * Room kept right of the heat in a layer (CSS px): a column's shapes reach past it (a bubble's
 * radius is at most 14 px, a diamond's 6), and a column closes next to the heat's right edge, so
 * what it draws there must be kept for when it has moved left.
 */
const LAYER_MARGIN = 16;

/** A transparent layer over the heat (w x h CSS px, and LAYER_MARGIN to its right) at the screen's pixels, drawn in CSS px; cleared. */
function overlay(layer: Layer | null, w: number, h: number, dpr: number): Layer | null {
  const W = Math.max(1, Math.round((w + LAYER_MARGIN) * dpr));
  const H = Math.max(1, Math.round(h * dpr));
  const out = layer && layer.surface.width === W && layer.surface.height === H ? layer : makeSurface(W, H);
  if (!out) return null;
  out.ctx.setTransform(1, 0, 0, 1, 0, 0);
  out.ctx.clearRect(0, 0, W, H);
  out.ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  return out;
}

/** Moves a surface's pixels `dx` of its own px left; what comes in on the right is clear. */
function shiftLeft(layer: Layer, dx: number): void {
  const c = layer.ctx;
  const { width: W, height: H } = layer.surface;
  c.save();
  c.setTransform(1, 0, 0, 1, 0, 0);
  c.globalCompositeOperation = 'copy';
  c.drawImage(layer.surface, -dx, 0);
  c.globalCompositeOperation = 'source-over';
  c.clearRect(Math.max(0, W - dx), 0, dx, H);
  c.restore();
}

function diamond(ctx: Ctx, x: number, y: number, r: number, fill: string, edge: string): void {
  ctx.beginPath();
  ctx.moveTo(x, y - r);
  ctx.lineTo(x + r, y);
  ctx.lineTo(x, y + r);
  ctx.lineTo(x - r, y);
  ctx.closePath();
  ctx.fillStyle = fill;
  ctx.fill();
  ctx.strokeStyle = edge;
  ctx.lineWidth = 1.5;
  ctx.stroke();
}

const pad = (n: number) => String(n).padStart(2, '0');
/** A local wall-clock time, "14:05:30" (or "14:05" on a minute grid). */
export function clock(t: number, seconds = true): string {
  const d = new Date(t);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}${seconds ? `:${pad(d.getSeconds())}` : ''}`;
}
