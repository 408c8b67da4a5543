// The ladder's fixed structure: its column head and its rows of empty cells, which the paint
// (useLadderPaint.ts) fills from the books store without React.
import type { DOMAttributes, RefObject } from 'react';
import type { View } from './ladder-model';

export function LadderHead({ view }: { view: View }) {
  const sideLabel = (s: 'bid' | 'ask') => (view === 'yes' ? (s === 'bid' ? 'YES bids' : 'YES offers') : s === 'bid' ? 'NO bids' : 'NO offers');
  return (
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
  );
}

type RowBinder = (i: number) => (el: HTMLDivElement | null) => void;
type GridHandlers = Pick<DOMAttributes<HTMLDivElement>, 'onKeyDown' | 'onClick' | 'onPointerDown' | 'onPointerMove' | 'onPointerUp' | 'onWheel'>;

export interface LadderGridProps {
  hostRef: RefObject<HTMLDivElement | null>;
  canvasRef: RefObject<HTMLCanvasElement | null>;
  ticker: string;
  view: View;
  hasBook: boolean;
  rowIndexes: number[];
  uid: string;
  bindRow: RowBinder;
  /** the keys, clicks, drags and wheel on the rows */
  handlers: GridHandlers;
}

/** The focusable grid of rows, with the canvas that draws their numbers over them. */
export function LadderGrid({ hostRef, canvasRef, ticker, view, hasBook, rowIndexes, uid, bindRow, handlers }: LadderGridProps) {
  return (
    <div
      className="ladder-rows"
      ref={hostRef}
      tabIndex={0}
      data-autofocus
      role="grid"
      aria-label={`Price ladder for ${ticker}, ${view.toUpperCase()} view. Up and Down move, [ bids and ] offers at the row, Delete cancels my orders there, Shift+Up/Down moves them, digits then Enter set the size.`}
      data-typed-size
      {...handlers}
    >
      {!hasBook && (
        <div className="state u-pos-absolute-in-0-z-1-bg-var-bg-panel" role="status">
          <span className="spinner" aria-hidden="true" />
          Waiting for the book of {ticker}…
        </div>
      )}
      <LadderRowList rowIndexes={rowIndexes} uid={uid} bindRow={bindRow} />
      {/* the rows' numbers and depth bars, drawn (ladder-canvas.ts); clicks go through to the cells */}
      <canvas ref={canvasRef} className="ladder-canvas" aria-hidden="true" />
    </div>
  );
}

/**
 * The rows, each bound to the paint. Each ticking cell is named by its text block (aria-labelledby
 * reads a hidden block's text too: drawn by the canvas, the blocks are hidden and a screen reader
 * still reads every number); `uid` keeps the ids of several ladders apart.
 */
export function LadderRowList({ rowIndexes, uid, bindRow }: { rowIndexes: number[]; uid: string; bindRow: RowBinder }) {
  return (
    <>
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
    </>
  );
}

/** The foot's button that shows the columns that gave way at this width anyway (or lets them give way again). */
export function MoreColumns({ gaveWay, allColumns, onToggle }: { gaveWay: string[]; allColumns: boolean; onToggle: () => void }) {
  if (!(gaveWay.length > 0 || allColumns)) return null;
  return (
    <button
      type="button"
      className="btn btn-sm btn-ghost more-cols"
      aria-pressed={allColumns}
      onClick={onToggle}
      title={allColumns ? 'Let Σ and Vol give way again at this width' : `${gaveWay.join(' and ')} give way at this width so no number is cut: click to show them anyway, or widen the ladder`}
    >
      {allColumns ? 'Fit columns' : `+${gaveWay.join(' ')}`}
    </button>
  );
}

/** The compact ladder's stale flag (the full one's toolbar carries its own). */
export function StaleMark() {
  return (
    <span className="stale-mark" role="status" title="The book may be out of date: main is resyncing it">
      ⚠ STALE
    </span>
  );
}
