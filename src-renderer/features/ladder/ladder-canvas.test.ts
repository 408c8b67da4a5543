// @vitest-environment jsdom
// The canvas that draws the ladder's numbers and bars: what it draws on the first paint, and that
// a later paint clears and draws again exactly the cells whose text, bar or row style changed. A
// level that empties must be wiped from the canvas (the ghost this ladder once showed in the DOM).
import { describe, expect, it } from 'vitest';
import { LadderCanvas, type Ctx2D, type ScreenTarget } from './ladder-canvas';
import type { RowEls } from './row-els';

type Call = { op: 'clearRect' | 'fillRect' | 'fillText' | 'setTransform'; args: unknown[]; font: string; fill: string; align: string };

function recordingCtx(): Ctx2D & { calls: Call[] } {
  const calls: Call[] = [];
  const ctx = {
    calls,
    font: '',
    fillStyle: '' as string | CanvasGradient | CanvasPattern,
    textAlign: 'start' as CanvasTextAlign,
    textBaseline: 'alphabetic' as CanvasTextBaseline,
    direction: 'inherit' as CanvasDirection,
    clearRect: (...args: number[]) => void calls.push({ op: 'clearRect', args, font: ctx.font, fill: String(ctx.fillStyle), align: ctx.textAlign }),
    fillRect: (...args: number[]) => void calls.push({ op: 'fillRect', args, font: ctx.font, fill: String(ctx.fillStyle), align: ctx.textAlign }),
    fillText: (...args: unknown[]) => void calls.push({ op: 'fillText', args, font: ctx.font, fill: String(ctx.fillStyle), align: ctx.textAlign }),
    setTransform: (...args: unknown[]) => void calls.push({ op: 'setTransform', args, font: ctx.font, fill: String(ctx.fillStyle), align: ctx.textAlign }),
  };
  return ctx as unknown as Ctx2D & { calls: Call[] };
}

const rect = (el: Element, x: number, y: number, w: number, h: number) =>
  Object.defineProperty(el, 'getBoundingClientRect', { configurable: true, value: () => ({ left: x, top: y, width: w, height: h, right: x + w, bottom: y + h, x, y, toJSON: () => ({}) }) });

// columns: cumBid 0-60, bid 60-140, price 140-190, ask 190-270, cumAsk 270-330, vol 330-380 (text blocks inset 6 px)
const COLS = { cumBid: [0, 60], bid: [60, 80], ask: [190, 80], cumAsk: [270, 60], vol: [330, 50] } as const;

function makeRows(n: number): { host: HTMLElement; rows: RowEls[] } {
  const host = document.createElement('div');
  rect(host, 0, 100, 380, n * 18);
  Object.defineProperty(host, 'clientWidth', { value: 380 });
  Object.defineProperty(host, 'clientHeight', { value: n * 18 });
  const rows: RowEls[] = [];
  for (let i = 0; i < n; i++) {
    const row = document.createElement('div');
    rect(row, 0, 100 + i * 18, 380, 18);
    const block = (kind: keyof typeof COLS) => {
      const cell = document.createElement('div');
      const [x, w] = COLS[kind];
      rect(cell, x, 100 + i * 18, w, 17);
      const span = document.createElement('span');
      rect(span, x + 6, 100 + i * 18, w - 12, 17);
      span.dataset.kind = kind;
      cell.appendChild(span);
      row.appendChild(cell);
      return { cell, span };
    };
    const cb = block('cumBid');
    const b = block('bid');
    const a = block('ask');
    const ca = block('cumAsk');
    const v = block('vol');
    rows.push({
      row,
      myBid: document.createElement('div'),
      bidQty: b.span,
      bidCell: b.cell,
      price: document.createElement('div'),
      askQty: a.span,
      askCell: a.cell,
      myAsk: document.createElement('div'),
      cumBid: cb.span,
      cumAsk: ca.span,
      vol: v.span,
      last: { hidden: false, cls: 'ladder-row z-bid', price: '', bid: '', ask: '', bidBar: 0, askBar: 0, cumBid: '', cumAsk: '', vol: '', myBid: '', myAsk: '' },
    });
  }
  return { host, rows };
}

/** CSS as the painter reads it: bids right-aligned, a bid row's size green, an offer row's red. */
const styleOf = (el: Element) => {
  const kind = (el as HTMLElement).dataset.kind ?? '';
  const cls = el.parentElement?.parentElement?.className ?? '';
  const color = kind === 'bid' && cls.includes('z-bid') ? 'rgb(63, 178, 127)' : kind === 'ask' && cls.includes('z-ask') ? 'rgb(229, 99, 91)' : 'rgb(214, 218, 224)';
  return {
    color,
    fontStyle: 'normal',
    fontWeight: cls.includes('last-trade') && kind === 'vol' ? '600' : '400',
    fontSize: kind === 'bid' || kind === 'ask' ? '12px' : '11px',
    fontFamily: 'sans-serif',
    textAlign: kind === 'ask' || kind === 'cumAsk' ? 'left' : 'right',
    visibility: 'visible',
    // the cells' padding (the text blocks themselves are not laid out)
    paddingLeft: kind ? '0px' : '6px',
    paddingRight: kind ? '0px' : '6px',
    getPropertyValue: (name: string) => (name === '--bid-bar' ? 'rgba(0, 255, 0, 0.2)' : name === '--ask-bar' ? 'rgba(255, 0, 0, 0.2)' : ''),
  } as unknown as CSSStyleDeclaration;
};

function setup(n = 3) {
  const { host, rows } = makeRows(n);
  const canvas = document.createElement('canvas');
  const surface = { width: 0, height: 0 };
  const ctx = recordingCtx();
  const painter = new LadderCanvas({ el: canvas, surface }, host, ctx, styleOf);
  const show = (i: number, patch: Partial<RowEls['last']>) => {
    Object.assign(rows[i]!.last, patch);
    rows[i]!.row.className = rows[i]!.last.cls;
  };
  const texts = () => ctx.calls.filter((c) => c.op === 'fillText').map((c) => ({ text: c.args[0], x: c.args[1], y: c.args[2], font: c.font, fill: c.fill, align: c.align }));
  const clears = () => ctx.calls.filter((c) => c.op === 'clearRect').map((c) => c.args);
  return { rows, painter, ctx, surface, canvas, show, texts, clears };
}

describe('the ladder canvas', () => {
  it('draws every shown number at its cell, aligned as the CSS says, with its bar, and sizes the canvas to the rows', () => {
    const t = setup();
    t.show(0, { bid: '1,250', bidBar: 50, cumBid: '1,250', cls: 'ladder-row z-bid' });
    t.show(1, { ask: '40', askBar: 10, cumAsk: '40', vol: '7', cls: 'ladder-row z-ask' });
    t.painter.draw(t.rows);
    expect(t.surface).toEqual({ width: 380 * (globalThis.devicePixelRatio || 1), height: 54 * (globalThis.devicePixelRatio || 1) });
    expect(t.texts()).toEqual(
      expect.arrayContaining([
        // a bid: right edge of its text block (60 + 6 + 68), mid-row, 12 px, green
        { text: '1,250', x: 134, y: 8.5, font: 'normal 400 12px sans-serif', fill: 'rgb(63, 178, 127)', align: 'right' },
        { text: '1,250', x: 54, y: 8.5, font: 'normal 400 11px sans-serif', fill: 'rgb(214, 218, 224)', align: 'right' },
        // an offer: left edge of its block, second row
        { text: '40', x: 196, y: 26.5, font: 'normal 400 12px sans-serif', fill: 'rgb(229, 99, 91)', align: 'left' },
        { text: '40', x: 276, y: 26.5, font: 'normal 400 11px sans-serif', fill: 'rgb(214, 218, 224)', align: 'left' },
        { text: '7', x: 374, y: 26.5, font: 'normal 400 11px sans-serif', fill: 'rgb(214, 218, 224)', align: 'right' },
      ]),
    );
    expect(t.texts()).toHaveLength(5);
    const bars = t.ctx.calls.filter((c) => c.op === 'fillRect').map((c) => ({ args: c.args, fill: c.fill }));
    // the bid bar grows from the cell's inner (right) edge, the offer bar from its left edge
    expect(bars).toEqual([
      { args: [100, 2, 40, 13], fill: 'rgba(0, 255, 0, 0.2)' },
      { args: [190, 20, 8, 13], fill: 'rgba(255, 0, 0, 0.2)' },
    ]);
  });

  it('draws again only the cells that changed', () => {
    const t = setup();
    t.show(0, { bid: '1,250', bidBar: 50, cumBid: '1,250' });
    t.show(1, { bid: '300', bidBar: 12, cumBid: '1,550' });
    t.painter.draw(t.rows);
    t.ctx.calls.length = 0;
    t.painter.draw(t.rows);
    expect(t.ctx.calls).toEqual([]);
    t.show(1, { bid: '310' });
    t.painter.draw(t.rows);
    expect(t.clears()).toEqual([[60, 18, 80, 17]]);
    expect(t.texts().map((x) => x.text)).toEqual(['310']);
    // a bar alone changes: its cell is cleared, the bar and the same text drawn again
    t.ctx.calls.length = 0;
    t.show(1, { bidBar: 30 });
    t.painter.draw(t.rows);
    expect(t.clears()).toEqual([[60, 18, 80, 17]]);
    expect(t.ctx.calls.filter((c) => c.op === 'fillRect').map((c) => c.args)).toEqual([[116, 20, 24, 13]]);
    expect(t.texts().map((x) => x.text)).toEqual(['310']);
  });

  it('wipes a level that empties, and a row that leaves the ladder', () => {
    const t = setup();
    t.show(0, { bid: '1,250', bidBar: 50, cumBid: '1,250' });
    t.show(2, { ask: '9', askBar: 100, cumAsk: '9' });
    t.painter.draw(t.rows);
    t.ctx.calls.length = 0;
    t.show(0, { bid: '', bidBar: 0, cumBid: '' });
    t.painter.draw(t.rows);
    expect(t.clears()).toEqual([
      [60, 0, 80, 17],
      [0, 0, 60, 17],
    ]);
    expect(t.texts()).toEqual([]);
    expect(t.ctx.calls.some((c) => c.op === 'fillRect')).toBe(false);
    t.ctx.calls.length = 0;
    t.show(2, { hidden: true });
    t.painter.draw(t.rows);
    // every cell of the row, and nothing drawn in it
    expect(t.clears()).toEqual([
      [60, 36, 80, 17],
      [190, 36, 80, 17],
      [0, 36, 60, 17],
      [270, 36, 60, 17],
      [330, 36, 50, 17],
    ]);
    expect(t.texts()).toEqual([]);
  });

  it('a row whose style changes is drawn again in its new colours; the same style is read once', () => {
    let reads = 0;
    const counting = (el: Element) => {
      reads++;
      return styleOf(el);
    };
    const ctx = recordingCtx();
    const { host, rows } = makeRows(2);
    const painter = new LadderCanvas({ el: document.createElement('canvas'), surface: { width: 0, height: 0 } }, host, ctx, counting);
    Object.assign(rows[0]!.last, { bid: '5', cls: 'ladder-row z-ask' });
    rows[0]!.row.className = 'ladder-row z-ask';
    painter.draw(rows);
    expect(ctx.calls.find((c) => c.op === 'fillText')?.fill).toBe('rgb(214, 218, 224)');
    Object.assign(rows[0]!.last, { cls: 'ladder-row z-bid' });
    rows[0]!.row.className = 'ladder-row z-bid';
    ctx.calls.length = 0;
    painter.draw(rows);
    expect(ctx.calls.filter((c) => c.op === 'fillText').map((c) => [c.args[0], c.fill])).toEqual([['5', 'rgb(63, 178, 127)']]);
    const before = reads;
    Object.assign(rows[1]!.last, { bid: '6', cls: 'ladder-row z-bid' });
    rows[1]!.row.className = 'ladder-row z-bid';
    painter.draw(rows);
    // bars' colours and this row's style were already read: no new style read
    expect(reads).toBe(before);
  });

  it('after invalidate (resize, columns, theme) it measures again and draws everything', () => {
    const t = setup();
    t.show(0, { bid: '1', cumBid: '1' });
    t.show(1, { ask: '2', cumAsk: '2' });
    t.painter.draw(t.rows);
    t.ctx.calls.length = 0;
    t.painter.invalidate();
    t.painter.draw(t.rows);
    expect(t.clears()[0]).toEqual([0, 0, 380, 54]);
    expect(t.texts().map((x) => x.text).sort()).toEqual(['1', '1', '2', '2']);
  });

  it('clears cells on whole pixels: a fractional edge cleared in part piled a bar into an opaque line', () => {
    const t = setup();
    // the bid column at 60.4..140.7 px (a grid of fractions)
    rect(t.rows[0]!.bidCell, 60.4, 100, 80.3, 17);
    t.show(0, { bid: '5', bidBar: 100 });
    t.painter.draw(t.rows);
    t.ctx.calls.length = 0;
    t.show(0, { bidBar: 50 });
    t.painter.draw(t.rows);
    const dpr = globalThis.devicePixelRatio || 1;
    for (const [x, , w] of t.clears() as number[][]) {
      expect(Number.isInteger(x! * dpr), `clear starts at ${x}`).toBe(true);
      expect(Number.isInteger((x! + w!) * dpr), `clear ends at ${x! + w!}`).toBe(true);
    }
    expect(t.clears()).toEqual([[60, 0, 81, 17]]);
  });

  it('shows each changed cell on the element in the same paint: the buffer is copied, cell by cell, before draw returns', () => {
    const { host, rows } = makeRows(3);
    const ctx = recordingCtx();
    const screenCalls: { op: string; args: unknown[] }[] = [];
    const source = { buffer: true } as unknown as CanvasImageSource;
    const screenSurface = { width: 0, height: 0 };
    const screen: ScreenTarget = {
      surface: screenSurface,
      source,
      ctx: {
        imageSmoothingEnabled: true,
        clearRect: (...args: number[]) => void screenCalls.push({ op: 'clearRect', args }),
        drawImage: ((...args: unknown[]) => void screenCalls.push({ op: 'drawImage', args })) as CanvasRenderingContext2D['drawImage'],
        setTransform: ((...args: unknown[]) => void screenCalls.push({ op: 'setTransform', args })) as CanvasRenderingContext2D['setTransform'],
      },
    };
    const painter = new LadderCanvas({ el: document.createElement('canvas'), surface: { width: 0, height: 0 } }, host, ctx, styleOf, screen);
    Object.assign(rows[1]!.last, { bid: '300', bidBar: 12, cumBid: '300' });
    painter.draw(rows);
    const dpr = globalThis.devicePixelRatio || 1;
    // measured: the element sized as the buffer, and the whole buffer shown
    expect(screenSurface).toEqual({ width: 380 * dpr, height: 54 * dpr });
    expect(screenCalls.filter((c) => c.op !== 'setTransform')).toEqual([
      { op: 'clearRect', args: [0, 0, 380, 54] },
      { op: 'drawImage', args: [source, 0, 0, 380 * dpr, 54 * dpr, 0, 0, 380, 54] },
    ]);
    screenCalls.length = 0;
    painter.draw(rows);
    expect(screenCalls).toEqual([]);
    // a level empties: its cells are wiped in the buffer and shown wiped in the same draw
    Object.assign(rows[1]!.last, { bid: '', bidBar: 0, cumBid: '' });
    painter.draw(rows);
    expect(screenCalls).toEqual([
      { op: 'clearRect', args: [60, 18, 80, 17] },
      { op: 'drawImage', args: [source, 60 * dpr, 18 * dpr, 80 * dpr, 17 * dpr, 60, 18, 80, 17] },
      { op: 'clearRect', args: [0, 18, 60, 17] },
      { op: 'drawImage', args: [source, 0, 18 * dpr, 60 * dpr, 17 * dpr, 0, 18, 60, 17] },
    ]);
  });
});
