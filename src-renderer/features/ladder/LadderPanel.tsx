// The price ladder. React owns the structure (which market, view, step, how many rows); the
// levels are painted straight into fixed rows from the books store in requestAnimationFrame,
// so a book update never re-renders React.
import { useId, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { usePrivate } from '../../stores/private';
import { useTrading } from '../../stores/trading';
import { useMarket } from '../../stores/market';
import { fmtCount } from '../../lib/format';
import { fmtPx } from '../../lib/ticks';
import { useMarketInfo } from '../../hooks/useMarketInfo';
import { Empty } from '../../ui/States';
import { useLadderPaint } from './useLadderPaint';
import { RestingCount } from './RestingCount';
import { useLadderDrag, useLadderKeys, useLadderOrders } from './useLadderInput';
import { useAwaitFirstMarket, usePanelTicker } from '../../hooks/useLink';
import { useTypedSize, type TypedSize } from './useTypedSize';
import { LadderToolbar } from './LadderToolbar';
import { useLadderViewport } from './useLadderViewport';
import { useLadderColumns } from './useLadderColumns';
import { useLadderQueue } from './useLadderQueue';
import { ladderPointer, useLadderActions } from './useLadderActions';
import { LadderGrid, LadderHead, MoreColumns, StaleMark } from './LadderRows';

export { ladderFit } from './useLadderColumns';

/** `compact`: no toolbar (the event ladders' columns carry their own title); rows, head and foot only. */
export function LadderPanel({ compact = false }: { compact?: boolean } = {}) {
  const ticker = usePanelTicker();
  const view = useTrading((s) => s.ladderView);
  const setView = useTrading((s) => s.setLadderView);
  const [dropRow, setDropRow] = useState<number | null>(null);
  const cols = useLadderColumns();
  // Alt+[ / Alt+] improve by this many rows (never crossing)
  const [improveBy, setImproveBy] = useState<number>(1);
  const typedSize = useTypedSize(ticker);
  const waitsIn = useAwaitFirstMarket(ticker);
  const info = useMarketInfo(ticker);
  const rowsHost = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const uid = useId();
  const { queueRef, queueVersion } = useLadderQueue(ticker);
  const vp = useLadderViewport(ticker, view, rowsHost, cols.setWidth);
  const { step, grid, rowCount, top, setTop, cursor, setCursor, scrollTo } = vp;

  const { model, bindRow, schedule, dropRef, invalidateCanvas } = useLadderPaint({ ticker, view, step, top, rowCount, cursor, dropRow, queueVersion, queueRef, setTop, setAutoStep: vp.setAutoStep, setHasBook: vp.setHasBook, setStale: vp.setStale, followRef: vp.followRef, canvasRef });
  // the optional columns move the cells under the canvas
  useLayoutEffect(() => invalidateCanvas(), [cols.cumShown, cols.volShown, compact, invalidateCanvas]);
  const orders = useLadderOrders({ ticker, view, model });
  const { ordersAt, moveOrders, moveLocal } = orders;
  // a size typed but not yet set with Enter: no order goes out at the old size
  const place = (side: 'bid' | 'ask', row: number) => {
    if (!typedSize.blocksOrders()) orders.place(side, row);
  };
  const { dragRef, onPointerDown, onPointerMove, onPointerUp } = useLadderDrag({ moveOrders, moveLocal, setDropRow, dropRef });
  const onKey = useLadderKeys({ rowsHost, top, cursor, rowCount, step, grid, setTop: scrollTo, setCursor, place, ordersAt, moveOrders, typedKey: typedSize.onKey });
  const { center, toggleFollow, claim, toggleView } = useLadderActions({ ticker, view, setView, step, grid, top, setTop, rowCount, setFollow: vp.setFollow, schedule, model, improveBy, blocksOrders: typedSize.blocksOrders });
  const { onClick, onWheel } = ladderPointer({ top, step, grid, scrollTo, setCursor, dragRef, ordersAt, place });

  const rowIndexes = useMemo(() => Array.from({ length: rowCount }, (_, i) => i), [rowCount]);

  if (!ticker) {
    return (
      <div className="panel">
        <Empty>No market selected. Pick one in Markets (Alt+1, then Enter on a row){waitsIn ? `: the next pick there feeds this ${waitsIn} ladder` : ''}.</Empty>
      </div>
    );
  }

  const title = info.market.data?.market.title ?? info.market.data?.market.yes_sub_title;

  return (
    <div className={`panel ladder${vp.stale ? ' is-stale' : ''}${compact ? ' ladder-compact' : ''}${cols.cumShown ? '' : ' no-cum'}${cols.volShown ? '' : ' no-vol'}${cols.narrow ? ' ladder-narrow' : ''}`} data-ticker={ticker} data-view={view} onFocus={claim} onPointerDownCapture={claim}>
      {compact && vp.stale && <StaleMark />}
      {!compact && (
        <LadderToolbar
          ticker={ticker}
          title={title}
          stale={vp.stale}
          view={view}
          onView={toggleView}
          stepChoice={vp.stepChoice}
          onStep={vp.chooseStep}
          follow={vp.follow}
          onFollow={toggleFollow}
          improveBy={improveBy}
          onImproveBy={setImproveBy}
          showCum={cols.cumShown}
          onCum={cols.onCum}
          showVol={cols.volShown}
          onVol={cols.onVol}
          onCenter={center}
        />
      )}
      <LadderHead view={view} />
      <LadderGrid hostRef={rowsHost} canvasRef={canvasRef} ticker={ticker} view={view} hasBook={vp.hasBook} rowIndexes={rowIndexes} uid={uid} bindRow={bindRow} handlers={{ onKeyDown: onKey, onClick, onPointerDown, onPointerMove, onPointerUp, onWheel }} />
      <LadderFoot ticker={ticker} typed={typedSize}>
        <MoreColumns gaveWay={cols.gaveWay} allColumns={cols.allColumns} onToggle={() => cols.setAllColumns((v) => !v)} />
      </LadderFoot>
    </div>
  );
}

function LadderFoot({ ticker, typed, children }: { ticker: string; typed: Pick<TypedSize, 'typed' | 'note'>; children?: ReactNode }) {
  const position = usePrivate((s) => s.positions[ticker]?.position);
  const last = useMarket((s) => s.trades[ticker]?.[0]);
  const size = useTrading((s) => s.draft.count);
  return (
    <div className="ladder-foot" aria-live="off">
      <span title="One size for the ladder and the ticket: the ticket's Count and this Size are the same value (typing either sets both)">
        Size <strong className="num" data-testid="ladder-size">{size || '—'}</strong> <span className="dim">= ticket</span>
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
      {children}
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
