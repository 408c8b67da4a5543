// The heatmap's pointer and keys: drag or wheel along time to scroll back through the session
// (End or the Live button returns), wheel over the price axis to move the prices, click a price
// (or Enter on the keyboard cursor) to centre the linked ladders on it.
import { useRef, useState, type Dispatch, type KeyboardEvent, type MutableRefObject, type PointerEvent, type SetStateAction, type WheelEvent } from 'react';
import { centreLadders } from '../../stores/ladder-centre';
import { seriesOf } from './heat-history';
import { sizeAt } from './heat-model';
import { heatHeight, heatWidth, priceAtY, scrolledEnd, seqAtX, slots, type HeatGeometry } from './heat-view';

export interface HeatHover {
  price: number;
  t: number;
  side: 'bid' | 'ask' | null;
  centi: number;
  trades: number;
}

export interface HeatInputArgs {
  ticker: string | null;
  geometry: MutableRefObject<HeatGeometry | null>;
  endSeq: number | null;
  setEndSeq: Dispatch<SetStateAction<number | null>>;
  setTop: Dispatch<SetStateAction<number | null>>;
  cursor: number | null;
  setCursor: Dispatch<SetStateAction<number | null>>;
  zoomRows: (d: 1 | -1) => void;
}

const ROWS_PER_NOTCH = 3;

export function useHeatInput(a: HeatInputArgs) {
  const [hover, setHover] = useState<HeatHover | null>(null);
  const drag = useRef<{ x: number; y: number; end: number | null; moved: boolean } | null>(null);

  /** scroll `cols` columns back (negative: forward); null end = live */
  const scrollBy = (cols: number, from: number | null = a.endSeq) => {
    const s = seriesOf(a.ticker);
    const g = a.geometry.current;
    if (!s || !g) return;
    a.setEndSeq(scrolledEnd(from, cols, s.firstSeq, s.lastSeq, slots(g)));
  };
  const scrollPrice = (rows: number) => {
    const g = a.geometry.current;
    if (g) a.setTop((t) => (t ?? g.top) + rows * g.step);
  };
  const centre = (price: number) => {
    a.setCursor(price);
    if (a.ticker) centreLadders({ ticker: a.ticker, yesTicks: price });
  };
  const local = (e: { clientX: number; clientY: number; currentTarget: Element }) => {
    const r = e.currentTarget.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };

  const onWheel = (e: WheelEvent<HTMLElement>) => {
    const g = a.geometry.current;
    if (!g) return;
    const { x } = local(e);
    const d = Math.abs(e.deltaX) > Math.abs(e.deltaY) ? e.deltaX : e.deltaY;
    if (!d) return;
    if (x >= heatWidth(g)) scrollPrice(-Math.sign(d) * ROWS_PER_NOTCH);
    else scrollBy(-Math.sign(d) * Math.max(8, Math.round(slots(g) / 8)));
  };

  const hoverAt = (x: number, y: number) => {
    const g = a.geometry.current;
    const s = seriesOf(a.ticker);
    if (!g || !s || x >= heatWidth(g) || y >= heatHeight(g)) return setHover(null);
    const seq = seqAtX(x, a.endSeq ?? s.lastSeq, g);
    const col = s.column(seq);
    if (!col) return setHover(null);
    const price = priceAtY(y, g);
    const at = sizeAt(col, price);
    let trades = 0;
    for (let i = 0; i < col.trades.length; i += 3) if (Math.round(col.trades[i]! / g.step) * g.step === price) trades += col.trades[i + 1]!;
    setHover((h) => (h && h.price === price && h.t === col.t && h.centi === at.centi && h.trades === trades ? h : { price, t: col.t, side: at.side, centi: at.centi, trades }));
  };

  const onPointerDown = (e: PointerEvent<HTMLElement>) => {
    const { x, y } = local(e);
    drag.current = { x, y, end: a.endSeq, moved: false };
    e.currentTarget.setPointerCapture?.(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent<HTMLElement>) => {
    const { x, y } = local(e);
    const d = drag.current;
    const g = a.geometry.current;
    if (d && g && (d.moved || Math.abs(x - d.x) > 4)) {
      d.moved = true;
      scrollBy(Math.round((x - d.x) / g.colPx), d.end);
    }
    hoverAt(x, y);
  };
  const onPointerUp = (e: PointerEvent<HTMLElement>) => {
    const d = drag.current;
    drag.current = null;
    const g = a.geometry.current;
    if (!d || d.moved || !g) return;
    const { y } = local(e);
    if (y < heatHeight(g)) centre(priceAtY(y, g));
  };

  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    const g = a.geometry.current;
    if (g) onHeatKey(e, g, a, { scrollBy, scrollPrice, centre });
  };

  return { hover, setHover, onWheel, onPointerDown, onPointerMove, onPointerUp, onKeyDown };
}

/** The heatmap's keys: arrows scroll time (Shift: ten times) and move the price cursor, End returns to live, PageUp/PageDown move the prices, Enter centres the ladders, + and - zoom. */
function onHeatKey(
  e: KeyboardEvent<HTMLElement>,
  g: HeatGeometry,
  a: HeatInputArgs,
  act: { scrollBy: (cols: number) => void; scrollPrice: (rows: number) => void; centre: (price: number) => void },
): void {
  const big = e.shiftKey ? 10 : 1;
  const cursorFrom = a.cursor ?? priceAtY(heatHeight(g) / 2, g);
  const keys: Record<string, () => void> = {
    ArrowLeft: () => act.scrollBy(Math.max(4, Math.round(slots(g) / 10)) * big),
    ArrowRight: () => act.scrollBy(-Math.max(4, Math.round(slots(g) / 10)) * big),
    End: () => a.setEndSeq(null),
    ArrowUp: () => a.setCursor(cursorFrom + g.step * big),
    ArrowDown: () => a.setCursor(cursorFrom - g.step * big),
    PageUp: () => act.scrollPrice(10),
    PageDown: () => act.scrollPrice(-10),
    Enter: () => act.centre(cursorFrom),
    '+': () => a.zoomRows(1),
    '=': () => a.zoomRows(1),
    '-': () => a.zoomRows(-1),
  };
  const run = keys[e.key];
  if (!run || e.altKey || e.ctrlKey || e.metaKey) return;
  e.preventDefault();
  e.stopPropagation();
  run();
}
