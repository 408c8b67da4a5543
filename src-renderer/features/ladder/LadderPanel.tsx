// The price ladder. React owns the structure (which market, view, step, how many rows); the
// levels are painted straight into fixed rows from the books store in requestAnimationFrame,
// so a book update never re-renders React.
import {
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type MouseEvent,
  type WheelEvent,
  type Dispatch,
  type SetStateAction,
} from 'react';
import type { OrderOrigin } from '../../../src-shared/ipc/contract';
import { restingOrdersIn, usePrivate } from '../../stores/private';
import { useTrading } from '../../stores/trading';
import { useMarket } from '../../stores/market';
import { fmtCount } from '../../lib/format';
import { fmtPx } from '../../lib/ticks';
import { useQueuePositions } from '../../hooks/useQueuePositions';
import { useMarketInfo } from '../../hooks/useMarketInfo';
import { cancelOrders, placeAt } from '../../services/trade';
import { privateStore } from '../../stores/private';
import { Empty } from '../../ui/States';
import { clampTop, flip, improvePrice, orderForClick, shiftRows, topForCenter, type Side, type View } from './ladder-model';
import { ladderGrid } from './ladder-grid';
import { ROW_PX, useLadderPaint } from './useLadderPaint';
import { RestingCount } from './RestingCount';
import { rowIndexOf, useLadderDrag, useLadderKeys, useLadderOrders } from './useLadderInput';
import { useAwaitFirstMarket, usePanelTicker } from '../../hooks/useLink';
import { useLadderCommands } from './useLadderCommands';
import { useTypedSize, type TypedSize } from './useTypedSize';
import { LadderToolbar, type StepChoice } from './LadderToolbar';

/** `compact`: no toolbar (the event ladders' columns carry their own title); rows, head and foot only. */
export function LadderPanel({ compact = false }: { compact?: boolean } = {}) {
  const ticker = usePanelTicker();
  const view = useTrading((s) => s.ladderView);
  const setView = useTrading((s) => s.setLadderView);
  const [stepChoice, setStepChoice] = useState<StepChoice>('auto');
  const [autoStep, setAutoStep] = useState<number | null>(null);
  const step = stepChoice === 'auto' ? (autoStep ?? 100) : stepChoice;
  // the market's price grid (read with its market row): every row, scroll and click is a price it takes
  const grid = ladderGrid(ticker, view);
  const [rowCount, setRowCount] = useState(30);
  const [top, setTop] = useState<number | null>(null);
  const [cursor, setCursor] = useState<number | null>(null);
  const [stale, setStale] = useState(false);
  const [hasBook, setHasBook] = useState(false);
  const [dropRow, setDropRow] = useState<number | null>(null);
  const [queueVersion, setQueueVersion] = useState(0);
  // optional columns: cumulative depth and session volume at price, both on by default
  const [showCum, setShowCum] = useState(true);
  const [showVol, setShowVol] = useState(true);
  // Alt+[ / Alt+] improve by this many rows (never crossing)
  const [improveBy, setImproveBy] = useState<number>(1);
  const typedSize = useTypedSize(ticker);
  const waitsIn = useAwaitFirstMarket(ticker);
  const info = useMarketInfo(ticker);
  const rowsHost = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  // each ticking cell is named by its text block (aria-labelledby reads a hidden block's text too:
  // drawn by the canvas, the blocks are hidden and a screen reader still reads every number)
  const uid = useId();
  const queueRef = useRef<Map<string, string>>(new Map());
  // follows the inside market by default; the trader's own scrolling makes it static until Center
  const [follow, setFollow] = useState(true);
  const followRef = useRef(true);
  followRef.current = follow;
  const scrollTo: Dispatch<SetStateAction<number | null>> = (v) => {
    setFollow(false);
    setTop((prev) => {
      const next = typeof v === 'function' ? v(prev) : v;
      return next === null ? null : clampTop(next, step, rowCount, grid);
    });
  };

  const resting = usePrivate((s) => (ticker ? restingOrdersIn(s, ticker).length : 0));
  // the same source as the Orders panel's Queue column (one query for every panel)
  const queueMarkets = useMemo(() => (ticker && resting > 0 ? [ticker] : []), [ticker, resting]);
  const queue = useQueuePositions(queueMarkets);
  useEffect(() => {
    queueRef.current = new Map(queue);
    setQueueVersion((v) => v + 1);
  }, [queue]);

  // a new market starts centered, following, with its own step
  useEffect(() => {
    setFollow(true);
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

  const { model, bindRow, schedule, dropRef, invalidateCanvas } = useLadderPaint({ ticker, view, step, top, rowCount, cursor, dropRow, queueVersion, queueRef, setTop, setAutoStep, setHasBook, setStale, followRef, canvasRef });
  // the optional columns move the cells under the canvas
  useLayoutEffect(() => invalidateCanvas(), [showCum, showVol, compact, invalidateCanvas]);
  const orders = useLadderOrders({ ticker, view, model });
  const { ordersAt, moveOrders, moveLocal } = orders;
  // a size typed but not yet set with Enter: no order goes out at the old size
  const place = (side: Side, row: number) => {
    if (!typedSize.blocksOrders()) orders.place(side, row);
  };
  const { dragRef, onPointerDown, onPointerMove, onPointerUp } = useLadderDrag({ moveOrders, moveLocal, setDropRow, dropRef });
  const onKey = useLadderKeys({ rowsHost, top, cursor, rowCount, step, grid, setTop: scrollTo, setCursor, place, ordersAt, moveOrders, typedKey: typedSize.onKey });

  const center = useCallback(() => {
    setFollow(true);
    setTop(null);
    schedule();
  }, [schedule]);
  // C and V act on the ladder the trader last focused or touched (several may be open)
  // Alt+[ / Alt+]: `improveBy` rows better than the painted inside (the price the ladder shows), never crossing
  const improve = (side: Side, origin: OrderOrigin) => {
    const m = model.current;
    if (!ticker || !m || typedSize.blocksOrders()) return;
    const price = improvePrice(m.bestBid, m.bestAsk, side, improveBy, step, grid);
    if (price === null) return;
    const o = orderForClick(view, side, price);
    void placeAt(ticker, o.side, o.priceTicks, undefined, origin).catch(() => undefined);
  };
  const cancelSide = (side: Side, origin: OrderOrigin) => {
    if (!ticker) return;
    const yesSide = view === 'yes' ? side : flip(side);
    const mine = restingOrdersIn(privateStore.getState(), ticker).filter((o) => o.side === yesSide);
    if (mine.length) void cancelOrders(mine, origin);
  };
  const claim = useLadderCommands({ center, toggleView: () => setView(view === 'yes' ? 'no' : 'yes'), improve, cancelSide });

  const toggleView = (v: View) => {
    if (v === view) return;
    // keep the same prices on screen: mirror the window
    if (top !== null) setTop(topForCenter(10_000 - shiftRows(top, -Math.floor(rowCount / 2), step, grid), step, rowCount, ladderGrid(ticker, v)));
    setView(v);
  };


  const onClick = (e: MouseEvent) => {
    const cell = (e.target as HTMLElement).closest('[data-cell]') as HTMLElement | null;
    const i = rowIndexOf(e.target);
    if (!cell || i === null || dragRef.current?.moved) return;
    if ((e.target as HTMLElement).closest('.ladder-local')) return; // a local mark is dragged, never clicked through
    setCursor(i);
    const kind = cell.dataset.cell;
    if (kind === 'mybid' || kind === 'myask') {
      const side: Side = kind === 'mybid' ? 'bid' : 'ask';
      const mine = ordersAt(i, side);
      if (mine.length) void cancelOrders(mine, 'ladder');
      else place(side, i);
    } else if (kind === 'bid' || kind === 'ask') place(kind, i);
  };

  const onWheel = (e: WheelEvent) => {
    if (top === null) return;
    const rows = Math.sign(e.deltaY) * 3;
    scrollTo(shiftRows(top, -rows, step, grid));
  };

  const rowIndexes = useMemo(() => Array.from({ length: rowCount }, (_, i) => i), [rowCount]);

  if (!ticker) {
    return (
      <div className="panel">
        <Empty>No market selected. Pick one in Markets (Alt+1, then Enter on a row){waitsIn ? `: the next pick there feeds this ${waitsIn} ladder` : ''}.</Empty>
      </div>
    );
  }

  const title = info.market.data?.market.title ?? info.market.data?.market.yes_sub_title;
  const sideLabel = (s: 'bid' | 'ask') => (view === 'yes' ? (s === 'bid' ? 'YES bids' : 'YES offers') : s === 'bid' ? 'NO bids' : 'NO offers');

  return (
    <div className={`panel ladder${stale ? ' is-stale' : ''}${compact ? ' ladder-compact' : ''}${showCum ? '' : ' no-cum'}${showVol ? '' : ' no-vol'}`} data-ticker={ticker} data-view={view} onFocus={claim} onPointerDownCapture={claim}>
      {compact && stale && (
        <span className="stale-mark" role="status" title="The book may be out of date: main is resyncing it">
          ⚠ STALE
        </span>
      )}
      {!compact && (
        <LadderToolbar
          ticker={ticker}
          title={title}
          stale={stale}
          view={view}
          onView={toggleView}
          stepChoice={stepChoice}
          onStep={(v) => {
            setStepChoice(v);
            setTop(null);
          }}
          follow={follow}
          onFollow={() => {
            setFollow((f) => !f);
            schedule();
          }}
          improveBy={improveBy}
          onImproveBy={setImproveBy}
          showCum={showCum}
          onCum={() => setShowCum((v) => !v)}
          showVol={showVol}
          onVol={() => setShowVol((v) => !v)}
          onCenter={center}
        />
      )}
      <div className="ladder-head" aria-hidden="true">
        <div className="c-cumbid" title="Cumulative bid depth: everything bid at this price or better">Σ</div>
        <div>Mine</div>
        <div title={sideLabel('bid')}>Bids</div>
        <div title={view === 'yes' ? 'YES price' : 'NO price'}>{view === 'yes' ? 'YES' : 'NO'}</div>
        <div title={sideLabel('ask')}>Offers</div>
        <div>Mine</div>
        <div className="c-cumask" title="Cumulative offer depth: everything offered at this price or better">Σ</div>
        <div className="c-vol" title="Volume traded at this price this session; the last trade's row shows its size first">Vol</div>
      </div>
      <div
        className="ladder-rows"
        ref={rowsHost}
        tabIndex={0}
        data-autofocus
        role="grid"
        aria-label={`Price ladder for ${ticker}, ${view.toUpperCase()} view. Up and Down move, [ bids and ] offers at the row, Delete cancels my orders there, Shift+Up/Down moves them, digits then Enter set the size.`}
        data-typed-size
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
            {/* each ticking text sits in its own contained block (.v, .qty): a new number lays
                out that block alone, never the row's grid (see the ladder's CSS) */}
            <div data-cell="cumbid" className="c-cumbid num" role="gridcell" aria-labelledby={`${uid}${i}cb`}>
              <span className="v" id={`${uid}${i}cb`} />
            </div>
            <div data-cell="mybid" className="c-mybid" role="gridcell" />
            <div data-cell="bid" className="c-bid" role="gridcell" title="Click to bid here" aria-labelledby={`${uid}${i}b`}>
              <span className="qty" id={`${uid}${i}b`} />
            </div>
            {/* the price changes only when the rows move (scroll, re-centre): its text stays in the cell */}
            <div data-cell="price" className="c-price" role="gridcell" />
            <div data-cell="ask" className="c-ask" role="gridcell" title="Click to offer here" aria-labelledby={`${uid}${i}a`}>
              <span className="qty" id={`${uid}${i}a`} />
            </div>
            <div data-cell="myask" className="c-myask" role="gridcell" />
            <div data-cell="cumask" className="c-cumask num" role="gridcell" aria-labelledby={`${uid}${i}ca`}>
              <span className="v" id={`${uid}${i}ca`} />
            </div>
            <div data-cell="vol" className="c-vol num" role="gridcell" aria-labelledby={`${uid}${i}v`}>
              <span className="v" id={`${uid}${i}v`} />
            </div>
          </div>
        ))}
        {/* the rows' numbers and depth bars, drawn (ladder-canvas.ts); clicks go through to the cells */}
        <canvas ref={canvasRef} className="ladder-canvas" aria-hidden="true" />
      </div>
      <LadderFoot ticker={ticker} typed={typedSize} />
    </div>
  );
}

function LadderFoot({ ticker, typed }: { ticker: string; typed: Pick<TypedSize, 'typed' | 'note'> }) {
  const position = usePrivate((s) => s.positions[ticker]?.position);
  const last = useMarket((s) => s.trades[ticker]?.[0]);
  const size = useTrading((s) => s.draft.count);
  return (
    <div className="ladder-foot" aria-live="off">
      <span>
        Size <strong className="num" data-testid="ladder-size">{size || '—'}</strong>
      </span>
      {typed.typed !== null && (
        <span className="ladder-typed" data-testid="ladder-typed" role="status">
          Typing size <strong className="num">{typed.typed || '…'}</strong> · Enter sets · Esc abandons
        </span>
      )}
      {typed.note && (
        <span className={typed.note.kind === 'error' ? 'neg' : 'dim'} data-testid="ladder-typed-note" role={typed.note.kind === 'error' ? 'alert' : 'status'}>
          {typed.note.text}
        </span>
      )}
      <span>
        Position <strong className="num">{position ? fmtCount(position) : '0'}</strong>
        {position && position.startsWith('-') ? ' (NO)' : ''}
      </span>
      <span>
        Resting <RestingCount ticker={ticker} />
      </span>
      <span
        className="dim"
        data-testid="ladder-held"
        title="If this terminal closes: order groups and exchange-side limits stay in force at the exchange; local stops, take-profits and trailing stops (dashed marks) do not fire until it runs again."
      >
        Exchange-held: groups, limits · local STP/TP/TRL: only while running
      </span>
      {last && (
        <span>
          Last {fmtPx(ticker, last.yes_price_dollars)} × {fmtCount(last.count_fp)} ({last.taker_side === 'yes' ? 'buyer' : last.taker_side === 'no' ? 'seller' : last.taker_side} took)
        </span>
      )}
    </div>
  );
}
