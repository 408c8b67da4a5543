// The price ladder. React owns the structure (which market, view, step, how many rows); the
// levels are painted straight into fixed rows from the books store in requestAnimationFrame,
// so a book update never re-renders React.
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
  type PointerEvent as ReactPointerEvent,
  type WheelEvent,
} from 'react';
import { centiToCount, countToCenti, dollarsToTicks, ticksToDollars } from '../../../src-shared/money';
import { booksStore } from '../../stores/books';
import { privateStore, restingOrdersIn, usePrivate } from '../../stores/private';
import { useTrading } from '../../stores/trading';
import { useMarket } from '../../stores/market';
import { useCommand } from '../../lib/commands';
import { fmtCount, fmtPrice } from '../../lib/format';
import { useRest } from '../../hooks/useRest';
import { useMarketInfo } from '../../hooks/useMarketInfo';
import { amendPrice, cancelOrders, placeAt } from '../../services/trade';
import { Empty } from '../../ui/States';
import { buildLadder, inferStep, midTicks, orderForClick, topForCenter, type LadderModel, type MyOrderLite, type Side, type View } from './ladder-model';

const ROW_PX = 18;

interface RowEls {
  row: HTMLDivElement;
  myBid: HTMLElement;
  bidQty: HTMLElement;
  bidBar: HTMLElement;
  price: HTMLElement;
  askQty: HTMLElement;
  askBar: HTMLElement;
  myAsk: HTMLElement;
}

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

export function LadderPanel() {
  const ticker = useTrading((s) => s.ticker);
  const view = useTrading((s) => s.ladderView);
  const setView = useTrading((s) => s.setLadderView);
  const [stepChoice, setStepChoice] = useState<'auto' | 1 | 10 | 100>('auto');
  const [autoStep, setAutoStep] = useState<number | null>(null);
  const step = stepChoice === 'auto' ? (autoStep ?? 100) : stepChoice;
  const [rowCount, setRowCount] = useState(30);
  const [top, setTop] = useState<number | null>(null);
  const [cursor, setCursor] = useState<number | null>(null);
  const [stale, setStale] = useState(false);
  const [hasBook, setHasBook] = useState(false);
  const [dropRow, setDropRow] = useState<number | null>(null);
  const [queueVersion, setQueueVersion] = useState(0);
  const info = useMarketInfo(ticker);
  const rowsHost = useRef<HTMLDivElement>(null);
  const rowEls = useRef<(RowEls | null)[]>([]);
  const model = useRef<LadderModel | null>(null);
  const frame = useRef<number | null>(null);
  const queueRef = useRef<Map<string, string>>(new Map());
  const params = useRef({ ticker, view, step, top, rowCount });
  params.current = { ticker, view, step, top, rowCount };
  const hasBookRef = useRef(false);
  const autoStepRef = useRef<number | null>(null);
  const staleRef = useRef(false);
  const cursorRef = useRef<number | null>(null);
  const dropRef = useRef<number | null>(null);
  cursorRef.current = cursor;
  dropRef.current = dropRow;

  const resting = usePrivate((s) => (ticker ? restingOrdersIn(s, ticker).length : 0));
  const queue = useRest('getQueuePositions', ticker ? { query: { market_tickers: ticker } } : undefined, {
    enabled: !!ticker && resting > 0,
    refetchInterval: 3000,
    staleTime: 2000,
  });
  useEffect(() => {
    const m = new Map<string, string>();
    for (const q of queue.data?.queue_positions ?? []) m.set(q.order_id, q.queue_position);
    queueRef.current = m;
    setQueueVersion((v) => v + 1);
  }, [queue.data]);

  // a new market starts centered, with its own step
  useEffect(() => {
    setTop(null);
    setAutoStep(null);
    setCursor(null);
    setHasBook(false);
    setStale(false);
  }, [ticker]);

  useLayoutEffect(() => {
    const el = rowsHost.current;
    if (!el) return undefined;
    const ro = new ResizeObserver(() => {
      const n = Math.max(5, Math.floor(el.clientHeight / ROW_PX));
      setRowCount((prev) => (prev === n ? prev : n));
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [ticker]);

  const paint = useCallback(() => {
    frame.current = null;
    const p = params.current;
    if (!p.ticker) return;
    const book = booksStore.getState().byTicker.get(p.ticker);
    if (book) {
      if (!hasBookRef.current) {
        hasBookRef.current = true;
        setHasBook(true);
      }
      if (autoStepRef.current === null) {
        autoStepRef.current = inferStep(book);
        setAutoStep(autoStepRef.current);
      }
    }
    if (p.top === null) {
      if (!book) return;
      // an empty book centers on 0.50 until someone quotes
      const mid = midTicks(book) ?? 5000;
      setTop(topForCenter(p.view === 'yes' ? mid : 10_000 - mid, p.step, p.rowCount));
      return;
    }
    const m = buildLadder(book, myOrdersOf(p.ticker), { view: p.view, step: p.step, top: p.top, rows: p.rowCount });
    model.current = m;
    if (m.stale !== staleRef.current) {
      staleRef.current = m.stale;
      setStale(m.stale);
    }
    const q = queueRef.current;
    for (let i = 0; i < rowEls.current.length; i++) {
      const els = rowEls.current[i];
      if (!els) continue;
      const r = m.rows[i];
      if (!r) {
        els.row.style.visibility = 'hidden';
        continue;
      }
      els.row.style.visibility = '';
      els.row.className = `ladder-row z-${r.zone}${r.isBestBid ? ' best-bid' : ''}${r.isBestAsk ? ' best-ask' : ''}${i === cursorRef.current ? ' cursor' : ''}${i === dropRef.current ? ' drop-target' : ''}`;
      els.price.textContent = priceLabel(r.price, p.step);
      els.bidQty.textContent = r.bid ? fmtCount(centiToCount(r.bid)) : '';
      els.askQty.textContent = r.ask ? fmtCount(centiToCount(r.ask)) : '';
      els.bidBar.style.width = m.maxSize ? `${Math.round((r.bid / m.maxSize) * 100)}%` : '0';
      els.askBar.style.width = m.maxSize ? `${Math.round((r.ask / m.maxSize) * 100)}%` : '0';
      setMine(els.myBid, myCellText(r.myBid, r.myBidIds, q), 'bid');
      setMine(els.myAsk, myCellText(r.myAsk, r.myAskIds, q), 'ask');
    }
  }, []);
  useEffect(() => {
    hasBookRef.current = false;
    autoStepRef.current = null;
    staleRef.current = false;
  }, [ticker]);

  const schedule = useCallback(() => {
    if (frame.current === null) frame.current = requestAnimationFrame(paint);
  }, [paint]);

  useEffect(() => {
    const offBooks = booksStore.subscribe((s, prev) => {
      const t = params.current.ticker;
      if (t && s.byTicker.get(t) !== undefined && (s.version !== prev.version)) schedule();
    });
    const offPrivate = privateStore.subscribe((s, prev) => {
      if (s.orders !== prev.orders) schedule();
    });
    return () => {
      offBooks();
      offPrivate();
      if (frame.current !== null) cancelAnimationFrame(frame.current);
      frame.current = null;
    };
  }, [schedule]);

  // structure changed: repaint once the rows exist
  useEffect(() => {
    schedule();
  }, [ticker, view, step, top, rowCount, cursor, dropRow, queueVersion, schedule]);

  const center = useCallback(() => {
    setTop(null);
    schedule();
  }, [schedule]);
  useCommand('ladder.center', center);
  useCommand('ladder.toggleView', () => setView(view === 'yes' ? 'no' : 'yes'));

  const toggleView = (v: View) => {
    if (v === view) return;
    // keep the same prices on screen: mirror the window
    if (top !== null) setTop(topForCenter(10_000 - (top - Math.floor(rowCount / 2) * step), step, rowCount));
    setView(v);
  };

  const place = (viewSide: Side, rowIndex: number) => {
    const r = model.current?.rows[rowIndex];
    if (!r || !ticker) return;
    const o = orderForClick(view, viewSide, r.price);
    void placeAt(ticker, o.side, o.priceTicks).catch(() => undefined);
  };

  const ordersAt = (rowIndex: number, viewSide: Side | 'both') => {
    const r = model.current?.rows[rowIndex];
    if (!r) return [];
    const ids = viewSide === 'bid' ? r.myBidIds : viewSide === 'ask' ? r.myAskIds : [...r.myBidIds, ...r.myAskIds];
    const all = privateStore.getState().orders;
    return ids.map((id) => all[id]).filter((o): o is NonNullable<typeof o> => !!o);
  };

  const moveOrders = (fromRow: number, viewSide: Side | 'both', toRow: number) => {
    const target = model.current?.rows[toRow];
    if (!target || fromRow === toRow) return;
    const yesPrice = view === 'yes' ? target.price : 10_000 - target.price;
    for (const o of ordersAt(fromRow, viewSide)) void amendPrice(o, yesPrice);
  };

  const rowIndexOf = (el: EventTarget | null): number | null => {
    const rowEl = (el as HTMLElement | null)?.closest?.('[data-row]');
    return rowEl ? Number((rowEl as HTMLElement).dataset.row) : null;
  };

  const onClick = (e: MouseEvent) => {
    const cell = (e.target as HTMLElement).closest('[data-cell]') as HTMLElement | null;
    const i = rowIndexOf(e.target);
    if (!cell || i === null || dragRef.current?.moved) return;
    setCursor(i);
    const kind = cell.dataset.cell;
    if (kind === 'mybid' || kind === 'myask') {
      const side: Side = kind === 'mybid' ? 'bid' : 'ask';
      const mine = ordersAt(i, side);
      if (mine.length) void cancelOrders(mine, 'ladder');
      else place(side, i);
    } else if (kind === 'bid' || kind === 'ask') place(kind, i);
  };

  const dragRef = useRef<{ from: number; side: Side; moved: boolean } | null>(null);
  const onPointerDown = (e: ReactPointerEvent) => {
    const mine = (e.target as HTMLElement).closest('.mine') as HTMLElement | null;
    const i = rowIndexOf(e.target);
    if (!mine || i === null || e.button !== 0) return;
    dragRef.current = { from: i, side: mine.dataset.side === 'ask' ? 'ask' : 'bid', moved: false };
  };
  const onPointerMove = (e: ReactPointerEvent) => {
    const d = dragRef.current;
    if (!d) return;
    const el = document.elementFromPoint(e.clientX, e.clientY);
    const i = rowIndexOf(el);
    if (i !== null && i !== d.from && !d.moved) {
      d.moved = true;
      // capture only once it is a drag: a plain click must still reach the cell (to cancel)
      (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
    }
    if (d.moved) setDropRow(i);
  };
  const onPointerUp = (e: ReactPointerEvent) => {
    const d = dragRef.current;
    if (!d) return;
    if ((e.currentTarget as HTMLElement).hasPointerCapture(e.pointerId)) (e.currentTarget as HTMLElement).releasePointerCapture(e.pointerId);
    const to = dropRef.current;
    setDropRow(null);
    if (d.moved && to !== null) moveOrders(d.from, d.side, to);
    // let the click that follows see `moved`, then forget the drag
    setTimeout(() => {
      dragRef.current = null;
    }, 0);
  };

  const onWheel = (e: WheelEvent) => {
    if (top === null) return;
    const rows = Math.sign(e.deltaY) * 3;
    setTop(Math.max(step * rowCount, Math.min(Math.floor(9999 / step) * step, top - rows * step)));
  };

  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.target !== rowsHost.current || top === null) return;
    const cur = cursor ?? Math.floor(rowCount / 2);
    const moveCursor = (n: number) => {
      const next = cur + n;
      if (next < 0) setTop(top - next * step);
      else if (next >= rowCount) setTop(top - (next - rowCount + 1) * step);
      setCursor(Math.max(0, Math.min(rowCount - 1, next)));
    };
    if ((e.key === 'ArrowUp' || e.key === 'ArrowDown') && e.shiftKey) {
      e.preventDefault();
      const dir = e.key === 'ArrowUp' ? -1 : 1;
      moveOrders(cur, 'both', cur + dir);
      moveCursor(dir);
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      moveCursor(-1);
    } else if (e.key === 'ArrowDown') {
      e.preventDefault();
      moveCursor(1);
    } else if (e.key === 'PageUp') {
      e.preventDefault();
      setTop(top + Math.floor(rowCount / 2) * step);
    } else if (e.key === 'PageDown') {
      e.preventDefault();
      setTop(top - Math.floor(rowCount / 2) * step);
    } else if (e.key === '[') {
      e.preventDefault();
      place('bid', cur);
    } else if (e.key === ']') {
      e.preventDefault();
      place('ask', cur);
    } else if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault();
      void cancelOrders(ordersAt(cur, 'both'), 'ladder');
    }
  };

  const rowIndexes = useMemo(() => Array.from({ length: rowCount }, (_, i) => i), [rowCount]);
  const bindRow = (i: number) => (el: HTMLDivElement | null) => {
    if (!el) {
      rowEls.current[i] = null;
      return;
    }
    const q = (sel: string) => el.querySelector(sel) as HTMLElement;
    rowEls.current[i] = {
      row: el,
      myBid: q('[data-cell="mybid"]'),
      bidQty: q('[data-cell="bid"] .qty'),
      bidBar: q('[data-cell="bid"] .bar'),
      price: q('[data-cell="price"]'),
      askQty: q('[data-cell="ask"] .qty'),
      askBar: q('[data-cell="ask"] .bar'),
      myAsk: q('[data-cell="myask"]'),
    };
  };
  useEffect(() => {
    rowEls.current.length = rowCount;
  }, [rowCount]);

  if (!ticker) {
    return (
      <div className="panel">
        <Empty>No market selected. Pick one in Markets (Alt+1, then Enter on a row).</Empty>
      </div>
    );
  }

  const title = info.market.data?.market.title ?? info.market.data?.market.yes_sub_title;
  const sideLabel = (s: 'bid' | 'ask') => (view === 'yes' ? (s === 'bid' ? 'YES bids' : 'YES offers') : s === 'bid' ? 'NO bids' : 'NO offers');

  return (
    <div className={`panel ladder${stale ? ' is-stale' : ''}`}>
      <div className="panel-bar">
        <strong className="nowrap">{ticker}</strong>
        {title && <span className="dim grow u-ov-hidden-to-ellipsis-ws-nowrap" title={title}>{title}</span>}
        {!title && <span className="grow" />}
        {stale && (
          <span className="stale-mark" role="status" title="The book may be out of date: main is resyncing it">
            ⚠ STALE
          </span>
        )}
        <div className="seg" role="group" aria-label="Ladder view">
          <button type="button" aria-pressed={view === 'yes'} onClick={() => toggleView('yes')}>
            YES
          </button>
          <button type="button" aria-pressed={view === 'no'} onClick={() => toggleView('no')}>
            NO
          </button>
        </div>
        <label className="check" title="Row spacing">
          <span className="sr-only">Row spacing</span>
          <select value={String(stepChoice)} onChange={(e) => { const v = e.target.value; setStepChoice(v === 'auto' ? 'auto' : (Number(v) as 1 | 10 | 100)); setTop(null); }}>
            <option value="auto">auto</option>
            <option value="100">0.01</option>
            <option value="10">0.001</option>
            <option value="1">0.0001</option>
          </select>
        </label>
        <button type="button" className="btn btn-sm" onClick={center} title="Center on the inside market (C)">
          Center
        </button>
      </div>
      <div className="ladder-head" aria-hidden="true">
        <div>Mine</div>
        <div>{sideLabel('bid')}</div>
        <div>{view === 'yes' ? 'YES price' : 'NO price'}</div>
        <div>{sideLabel('ask')}</div>
        <div>Mine</div>
      </div>
      <div
        className="ladder-rows"
        ref={rowsHost}
        tabIndex={0}
        data-autofocus
        role="grid"
        aria-label={`Price ladder for ${ticker}, ${view.toUpperCase()} view. Up and Down move, [ bids and ] offers at the row, Delete cancels my orders there, Shift+Up/Down moves them.`}
        onKeyDown={onKey}
        onClick={onClick}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onWheel={onWheel}
      >
        {!hasBook && (
          <div className="state u-pos-absolute-in-0-z-1-bg-var-bg-panel" role="status">
            <span className="spinner" aria-hidden="true" />
            Waiting for the book of {ticker}…
          </div>
        )}
        {rowIndexes.map((i) => (
          <div key={i} className="ladder-row" data-row={i} ref={bindRow(i)} role="row">
            <div data-cell="mybid" className="c-mybid" role="gridcell" />
            <div data-cell="bid" className="c-bid" role="gridcell" title="Click to bid here">
              <span className="bar" />
              <span className="qty" />
            </div>
            <div data-cell="price" className="c-price" role="gridcell" />
            <div data-cell="ask" className="c-ask" role="gridcell" title="Click to offer here">
              <span className="bar" />
              <span className="qty" />
            </div>
            <div data-cell="myask" className="c-myask" role="gridcell" />
          </div>
        ))}
      </div>
      <LadderFoot ticker={ticker} />
    </div>
  );
}

/** "0.53" on a cent ladder, "0.531" or "0.5312" on finer ones: exact, from the tick string. */
function priceLabel(ticks: number, step: number): string {
  const text = ticksToDollars(ticks);
  return step % 100 === 0 ? text.slice(0, -2) : step % 10 === 0 ? text.slice(0, -1) : text;
}

function setMine(cell: HTMLElement, text: string, side: Side) {
  if (!text) {
    if (cell.firstChild) cell.textContent = '';
    return;
  }
  let tag = cell.firstElementChild as HTMLElement | null;
  if (!tag) {
    tag = document.createElement('span');
    tag.className = 'mine';
    tag.dataset.side = side;
    tag.title = 'My resting orders here: click to cancel, drag to another price to move';
    cell.appendChild(tag);
  }
  if (tag.textContent !== text) tag.textContent = text;
}

function LadderFoot({ ticker }: { ticker: string }) {
  const position = usePrivate((s) => s.positions[ticker]?.position);
  const restingCount = usePrivate((s) => restingOrdersIn(s, ticker).length);
  const last = useMarket((s) => s.trades[ticker]?.[0]);
  const size = useTrading((s) => s.draft.count);
  return (
    <div className="ladder-foot" aria-live="off">
      <span>
        Size <strong className="num">{size || '—'}</strong>
      </span>
      <span>
        Position <strong className="num">{position ? fmtCount(position) : '0'}</strong>
        {position && position.startsWith('-') ? ' (NO)' : ''}
      </span>
      <span>Resting {restingCount}</span>
      {last && (
        <span>
          Last {fmtPrice(last.yes_price_dollars)} × {fmtCount(last.count_fp)} ({last.taker_side === 'yes' ? 'buyer' : last.taker_side === 'no' ? 'seller' : last.taker_side} took)
        </span>
      )}
    </div>
  );
}
