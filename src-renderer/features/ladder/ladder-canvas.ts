// The ladder's ticking numbers and depth bars, drawn on one canvas over the rows.
//
// Under a busy book most of a ladder's cells change every frame (a size, and the running totals
// below it). As DOM text each change was a layout, a paint of its own layer and a new
// layerization of the whole page: with three ladders, a third of every frame. Here the paint
// writes the same texts into the DOM as before (they stay the ladder's truth for tests, screen
// readers and the truth harness, but are neither laid out nor painted: display none) and this
// canvas draws them: only the cells whose text, bar or row style changed, each cleared and drawn
// again. Colours and fonts are CSS's own, read from the cells (getComputedStyle) once per row
// style, so the theme and the stylesheet stay the one source of how a cell looks.
//
// The drawing goes to a detached buffer (an OffscreenCanvas: its context resolves fonts without
// an element's style) and each changed cell is copied onto the element's own 2D context in the
// same paint, so the page shows the numbers in the same frame as the rows' prices and styles.
// (The canvas was once handed to the buffer with transferControlToOffscreen: that canvas is
// presented by the compositor on its own frames, apart from the page's, and under load it showed
// sizes for hundreds of ms after the rows under them had moved to other prices: a re-centre, a
// scroll or a YES/NO switch left the old window's sizes beside the new prices, ghosts the truth
// harness saw on empty levels at 1,500 commands/s.)
import type { RowEls } from './row-els';

export type TextKind = 'bid' | 'ask' | 'cumBid' | 'cumAsk' | 'vol';
const KINDS: readonly TextKind[] = ['bid', 'ask', 'cumBid', 'cumAsk', 'vol'];

/** What one row shows, as far as the canvas draws it (a part of its element's paint cache). */
export type RowShown = Pick<RowEls['last'], 'hidden' | 'cls' | 'bid' | 'ask' | 'cumBid' | 'cumAsk' | 'vol' | 'bidBar' | 'askBar'>;

interface Span {
  /** the cell, cleared whole when it is drawn again */
  cellX: number;
  cellW: number;
  /** where its text sits (the text block inside the cell's padding) */
  textX: number;
  textW: number;
}

interface Geometry {
  width: number;
  height: number;
  dpr: number;
  /** each row's top and its cells' height (the row without its bottom border) */
  tops: number[];
  rowH: number;
  spans: Record<TextKind, Span>;
}

interface TextStyle {
  color: string;
  font: string;
  align: CanvasTextAlign;
  shown: boolean;
}

/** The 2D context calls the painter makes (a recording fake stands in for it in unit tests). */
export type Ctx2D = Pick<CanvasRenderingContext2D, 'clearRect' | 'fillRect' | 'fillText' | 'setTransform'> & {
  font: string;
  fillStyle: string | CanvasGradient | CanvasPattern;
  textAlign: CanvasTextAlign;
  textBaseline: CanvasTextBaseline;
  direction: CanvasDirection;
};

/** The element's own context (presented with the page's DOM), onto which the buffer's changed cells are copied. */
export interface ScreenTarget {
  surface: { width: number; height: number };
  ctx: Pick<CanvasRenderingContext2D, 'clearRect' | 'drawImage' | 'setTransform'> & { imageSmoothingEnabled: boolean };
  /** the buffer drawn on */
  source: CanvasImageSource;
}

interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

const textOf = (s: RowShown, k: TextKind) => s[k];
const EMPTY: RowShown = { hidden: true, cls: '', bid: '', ask: '', cumBid: '', cumAsk: '', vol: '', bidBar: 0, askBar: 0 };

/**
 * Draws rows onto `canvas` (a child of the rows' host, over the rows). `draw` is called at the end
 * of each ladder paint with the rows' elements; it draws only what changed since its last call.
 */
export class LadderCanvas {
  private geo: Geometry | null = null;
  private styles = new Map<string, TextStyle>();
  /** what the canvas shows per row index (null: nothing drawn yet, draw it whole) */
  private drawn: (RowShown | null)[] = [];
  private barColors: { bid: string; ask: string } | null = null;
  /** the context's font, fill and alignment as last set here (a context reads colours back normalised) */
  private cur = { font: '', fill: '', align: '' };

  constructor(
    /** the element on the page (its CSS size) and the surface drawn on (its pixel size: itself, or its OffscreenCanvas) */
    private readonly canvas: { el: HTMLCanvasElement; surface: { width: number; height: number } },
    private readonly host: HTMLElement,
    private readonly ctx: Ctx2D,
    /** reads an element's style (getComputedStyle in the page) */
    private readonly styleOf: (el: Element) => Pick<CSSStyleDeclaration, 'color' | 'fontStyle' | 'fontWeight' | 'fontSize' | 'fontFamily' | 'textAlign' | 'visibility' | 'paddingLeft' | 'paddingRight' | 'getPropertyValue'> = (el) => getComputedStyle(el),
    /** where the page shows it, when `ctx` draws on a buffer (see the top of this file) */
    private readonly screen?: ScreenTarget,
  ) {}

  /** The rows moved, resized, changed columns or theme: measure again and draw everything. */
  invalidate(): void {
    this.geo = null;
    this.styles.clear();
    this.barColors = null;
    this.drawn = [];
    this.cur = { font: '', fill: '', align: '' };
  }

  draw(rows: readonly (RowEls | null)[]): void {
    const first = rows.find((r): r is RowEls => r !== null);
    if (!first) return;
    /** cells cleared (and perhaps drawn) in the buffer: copied to the screen at the end; null: all of it */
    let dirty: Rect[] | null = [];
    if (!this.geo) {
      dirty = null;
      this.geo = this.measure(rows, first);
      this.drawn = [];
      this.ctx.setTransform(this.geo.dpr, 0, 0, this.geo.dpr, 0, 0);
      this.ctx.clearRect(0, 0, this.geo.width, this.geo.height);
      this.ctx.textBaseline = 'middle';
      // an 'inherit' direction (the default) makes every fillText resolve the canvas element's
      // style, and with the frame's cell writes pending that was a style recalc per ladder per frame
      this.ctx.direction = 'ltr';
    }
    const geo = this.geo;
    const texts: { kind: TextKind; i: number; text: string; style: TextStyle }[] = [];
    for (let i = 0; i < rows.length; i++) {
      const els = rows[i];
      const top = geo.tops[i];
      if (!els || top === undefined || Number.isNaN(top)) continue;
      const now = els.last;
      const was = this.drawn[i] ?? null;
      if (now.hidden) {
        if (was === null || !was.hidden) {
          this.clearRow(top);
          for (const kind of KINDS) dirty?.push({ x: geo.spans[kind].cellX, y: top, w: geo.spans[kind].cellW, h: geo.rowH });
        }
        this.drawn[i] = EMPTY;
        continue;
      }
      const restyled = was === null || was.hidden || was.cls !== now.cls;
      for (const kind of KINDS) {
        const text = textOf(now, kind);
        const barChanged = kind === 'bid' ? was?.bidBar !== now.bidBar : kind === 'ask' ? was?.askBar !== now.askBar : false;
        if (!restyled && !barChanged && was !== null && textOf(was, kind) === text) continue;
        const span = geo.spans[kind];
        this.ctx.clearRect(span.cellX, top, span.cellW, geo.rowH);
        dirty?.push({ x: span.cellX, y: top, w: span.cellW, h: geo.rowH });
        if (kind === 'bid' || kind === 'ask') this.bar(kind, span, top, kind === 'bid' ? now.bidBar : now.askBar);
        if (text) texts.push({ kind, i, text, style: this.styleFor(els, kind, now.cls) });
      }
      this.drawn[i] = { ...now };
    }
    // texts grouped by font, then colour: a context switches its font slowly
    texts.sort((a, b) => (a.style.font < b.style.font ? -1 : a.style.font > b.style.font ? 1 : a.style.color < b.style.color ? -1 : a.style.color > b.style.color ? 1 : 0));
    for (const t of texts) {
      if (!t.style.shown) continue;
      const span = geo.spans[t.kind];
      if (span.textW <= 0) continue;
      if (this.cur.font !== t.style.font) this.ctx.font = this.cur.font = t.style.font;
      if (this.cur.fill !== t.style.color) this.ctx.fillStyle = this.cur.fill = t.style.color;
      if (this.cur.align !== t.style.align) this.ctx.textAlign = this.cur.align = t.style.align;
      const x = t.style.align === 'right' ? span.textX + span.textW : t.style.align === 'center' ? span.textX + span.textW / 2 : span.textX;
      // a number wider than its cell is narrowed to fit, never spilt into the next cell
      this.ctx.fillText(t.text, x, geo.tops[t.i]! + geo.rowH / 2, span.textW);
    }
    this.present(dirty);
  }

  /** Copies the buffer's changed cells (null: all of it) onto the element, in this same paint. */
  private present(dirty: Rect[] | null): void {
    const s = this.screen;
    const geo = this.geo;
    if (!s || !geo) return;
    const d = geo.dpr;
    const copy = (r: Rect) => {
      if (r.w <= 0 || r.h <= 0) return;
      s.ctx.clearRect(r.x, r.y, r.w, r.h);
      s.ctx.drawImage(s.source, Math.round(r.x * d), Math.round(r.y * d), Math.round(r.w * d), Math.round(r.h * d), r.x, r.y, r.w, r.h);
    };
    if (dirty === null) copy({ x: 0, y: 0, w: geo.width, h: geo.height });
    else for (const r of dirty) copy(r);
  }

  private clearRow(top: number): void {
    const geo = this.geo!;
    for (const kind of KINDS) this.ctx.clearRect(geo.spans[kind].cellX, top, geo.spans[kind].cellW, geo.rowH);
  }

  /** A depth bar: the cell's share of the largest level, at the cell's inner edge (as the DOM's cell background was). */
  private bar(kind: 'bid' | 'ask', span: Span, top: number, pct: number): void {
    if (pct <= 0) return;
    const colors = (this.barColors ??= {
      bid: this.styleOf(this.host).getPropertyValue('--bid-bar').trim() || 'rgba(63, 178, 127, 0.22)',
      ask: this.styleOf(this.host).getPropertyValue('--ask-bar').trim() || 'rgba(229, 99, 91, 0.22)',
    });
    const w = (span.cellW * Math.min(pct, 100)) / 100;
    if (this.cur.fill !== colors[kind]) this.ctx.fillStyle = this.cur.fill = colors[kind];
    this.ctx.fillRect(kind === 'bid' ? span.cellX + span.cellW - w : span.cellX, top + 2, w, this.geo!.rowH - 4);
  }

  private styleFor(els: RowEls, kind: TextKind, cls: string): TextStyle {
    const key = `${kind}|${cls}`;
    let s = this.styles.get(key);
    if (!s) {
      const block = textEl(els, kind);
      const cs = this.styleOf(block);
      s = {
        color: cs.color,
        font: `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`,
        align: cs.textAlign === 'right' || cs.textAlign === 'end' ? 'right' : cs.textAlign === 'center' ? 'center' : 'left',
        // the block itself is hidden (the canvas draws it): a column the trader hides hides its cell
        shown: this.styleOf(block.parentElement ?? block).visibility !== 'hidden',
      };
      if (this.styles.size > 256) this.styles.clear();
      this.styles.set(key, s);
    }
    return s;
  }

  private measure(rows: readonly (RowEls | null)[], first: RowEls): Geometry {
    const box = this.host.getBoundingClientRect();
    const dpr = globalThis.devicePixelRatio || 1;
    const width = this.host.clientWidth;
    const height = this.host.clientHeight;
    const snap = (v: number) => Math.round(v * dpr) / dpr;
    const w = Math.max(1, Math.round(width * dpr));
    const h = Math.max(1, Math.round(height * dpr));
    if (this.canvas.surface.width !== w) this.canvas.surface.width = w;
    if (this.canvas.surface.height !== h) this.canvas.surface.height = h;
    if (this.screen) {
      // the element: sized, then its transform set again (a new size resets its context)
      if (this.screen.surface.width !== w) this.screen.surface.width = w;
      if (this.screen.surface.height !== h) this.screen.surface.height = h;
      this.screen.ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      this.screen.ctx.imageSmoothingEnabled = false;
    }
    this.canvas.el.style.width = `${width}px`;
    this.canvas.el.style.height = `${height}px`;
    // the text sits in the cell's content box (its block is not laid out: display none)
    const spanOf = (kind: TextKind): Span => {
      const cellEl = textEl(first, kind).parentElement ?? textEl(first, kind);
      const cell = cellEl.getBoundingClientRect();
      const cs = this.styleOf(cellEl);
      const padL = Number.parseFloat(cs.paddingLeft) || 0;
      const padR = Number.parseFloat(cs.paddingRight) || 0;
      // A cell is cleared on whole device pixels: a clear at a fractional edge only partly clears
      // the edge pixels, and a bar drawn there frame after frame piled up into an opaque line (the
      // truth harness saw it as a size on an empty level). Neighbouring cells share their edge.
      const x0 = snap(cell.left - box.left);
      const x1 = snap(cell.right - box.left);
      return { cellX: x0, cellW: x1 - x0, textX: cell.left - box.left + padL, textW: Math.max(0, cell.width - padL - padR) };
    };
    const spans = { bid: spanOf('bid'), ask: spanOf('ask'), cumBid: spanOf('cumBid'), cumAsk: spanOf('cumAsk'), vol: spanOf('vol') };
    const rowH = snap(first.bidCell.getBoundingClientRect().height);
    const tops = rows.map((r) => (r ? snap(r.row.getBoundingClientRect().top - box.top) : Number.NaN));
    return { width, height, dpr, tops, rowH, spans };
  }
}

function textEl(els: RowEls, kind: TextKind): HTMLElement {
  switch (kind) {
    case 'bid':
      return els.bidQty;
    case 'ask':
      return els.askQty;
    case 'cumBid':
      return els.cumBid;
    case 'cumAsk':
      return els.cumAsk;
    case 'vol':
      return els.vol;
  }
}

/**
 * The surface and 2D context the ladder draws on, and the element's own context it is shown
 * through (see the top of this file), or null where the page has none (jsdom in unit tests: there
 * the ladder keeps painting its numbers as DOM text, as it did before the canvas). The drawing
 * goes to a detached OffscreenCanvas where there is one: a context on the element resolves its
 * font against the element's style, and with the frame's cell writes pending every font set was a
 * style recalc; a detached one has no element to ask. Its cells are copied onto the element's
 * context, which the page presents with the rows themselves. Without OffscreenCanvas the ladder
 * draws on the element's context directly.
 */
export function ladderSurface(canvas: HTMLCanvasElement): { surface: { width: number; height: number }; ctx: Ctx2D; screen?: ScreenTarget } | null {
  if (typeof navigator !== 'undefined' && /jsdom/i.test(navigator.userAgent)) return null;
  try {
    const screenCtx = canvas.getContext('2d');
    if (!screenCtx) return null;
    if (typeof OffscreenCanvas === 'function') {
      const buffer = new OffscreenCanvas(1, 1);
      const ctx = buffer.getContext('2d');
      if (ctx) return { surface: buffer, ctx: ctx as unknown as Ctx2D, screen: { surface: canvas, ctx: screenCtx, source: buffer } };
    }
    return { surface: canvas, ctx: screenCtx };
  } catch {
    return null;
  }
}
