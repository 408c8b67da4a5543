// The depth heatmap (Bookmap-style): price up the side, time along the bottom, the size resting at
// each price as colour, trades as bubbles sized by their count, the best bid and ask as lines, my
// resting orders as a band and my fills as diamonds. It shows its link group's market (as the
// ladder does), on the ladder's price rows; a click on a price centres that market's ladders on it.
// Live from main's book views (a replay feeds the same views), scrollable back through what the
// ring holds (its length is a setting, stated in the bar).
import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { useMarketInfo } from '../../hooks/useMarketInfo';
import { useAwaitFirstMarket, usePanelTicker } from '../../hooks/useLink';
import { fmtCount } from '../../lib/format';
import { fmtTicks } from '../../lib/ticks';
import { centiToCount } from '../../../src-shared/money';
import { useSession } from '../../stores/session';
import { Empty } from '../../ui/States';
import { clock } from './heat-canvas';
import { heatMinutes, MAX_MARKETS, seriesOf, startHeatHistory } from './heat-history';
import { BUCKET_MS, columnsFor } from './heat-model';
import { fitRowPx } from './heat-view';
import { useHeatInput, type HeatHover } from './useHeatInput';
import { useHeatPaint } from './useHeatPaint';

const COL_CHOICES = [1, 2, 3, 4, 6] as const;

/** "10 min" / "90 s": what a ring of this many buckets holds. */
function spanText(cols: number): string {
  const s = (cols * BUCKET_MS) / 1000;
  return s >= 60 ? `${Math.round(s / 6) / 10} min` : `${s} s`;
}

function HoverText({ ticker, hover, cursor }: { ticker: string; hover: HeatHover | null; cursor: number | null }) {
  if (!hover && cursor !== null)
    return (
      <span data-testid="heatmap-cursor">
        Cursor <strong className="num">{fmtTicks(ticker, cursor)}</strong> · Enter centres the ladder there
      </span>
    );
  if (!hover) return <span className="dim">Drag or wheel to scroll back · click a price to centre the ladder</span>;
  const size = hover.centi ? `${fmtCount(centiToCount(hover.centi))} ${hover.side === 'bid' ? 'bid' : 'offered'}` : 'nothing resting';
  return (
    <span className="num" data-testid="heatmap-hover">
      {fmtTicks(ticker, hover.price)} · {clock(hover.t)}.{String(hover.t % 1000).padStart(3, '0')} · {size}
      {hover.trades ? ` · ${hover.trades} trade${hover.trades === 1 ? '' : 's'}` : ''}
    </span>
  );
}

export function HeatmapPanel() {
  const ticker = usePanelTicker();
  const waitsIn = useAwaitFirstMarket(ticker);
  const info = useMarketInfo(ticker);
  const minutes = useSession(() => heatMinutes());
  const host = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [colPx, setColPx] = useState<number>(2);
  const [rowPx, setRowPx] = useState<number | null>(null);
  const [top, setTop] = useState<number | null>(null);
  const [endSeq, setEndSeq] = useState<number | null>(null);
  const [cursor, setCursor] = useState<number | null>(null);
  const [hasData, setHasData] = useState(false);

  // the app records from its start; a heatmap outside the app (a test, a popout) starts it too
  useEffect(() => startHeatHistory(), []);
  useEffect(() => {
    setTop(null);
    setEndSeq(null);
    setCursor(null);
    setHasData(false);
  }, [ticker]);
  const size = useBoxSize(host, ticker);

  const rows = rowPx ?? fitRowPx(size.h, 50);
  const { geometry } = useHeatPaint(canvasRef, { ticker, width: size.w, height: size.h, colPx, rowPx: rows, top, endSeq, cursor }, setHasData);
  const zoomRows = (d: 1 | -1) => setRowPx(Math.max(3, Math.min(16, rows + d * (rows >= 8 ? 2 : 1))));
  const input = useHeatInput({ ticker, geometry, endSeq, setEndSeq, setTop, cursor, setCursor, zoomRows });

  if (!ticker) {
    return (
      <div className="panel">
        <Empty>No market selected. Pick one in Markets (Alt+1, then Enter on a row){waitsIn ? `: the next pick there feeds this ${waitsIn} heatmap` : ''}.</Empty>
      </div>
    );
  }
  const cols = columnsFor(minutes);
  const s = seriesOf(ticker);
  const since = s?.time(s.firstSeq);
  const title = info.market.data?.market.title ?? info.market.data?.market.yes_sub_title;
  const live = endSeq === null;
  return (
    <div className="panel heatmap" data-ticker={ticker}>
      <HeatmapBar ticker={ticker} title={title} live={live} pausedAt={!live && s ? clock(s.time(endSeq) ?? 0) : null} onLive={() => setEndSeq(null)} following={top === null} onFollow={() => setTop(null)} colPx={colPx} setColPx={setColPx} width={size.w} zoomRows={zoomRows} cols={cols} since={since} />
      <div
        className="heatmap-body"
        ref={host}
        tabIndex={0}
        role="application"
        aria-label={`Depth heatmap of ${ticker}. Left and Right scroll through time, End returns to live, Up and Down move the price cursor, Enter centres the ladder there, + and - change the row height.`}
        onWheel={input.onWheel}
        onPointerDown={input.onPointerDown}
        onPointerMove={input.onPointerMove}
        onPointerUp={input.onPointerUp}
        onPointerLeave={() => input.setHover(null)}
        onKeyDown={input.onKeyDown}
      >
        {!hasData && (
          <div className="state u-pos-absolute-in-0-z-1-bg-var-bg-panel" role="status">
            <span className="spinner" aria-hidden="true" />
            Waiting for the book of {ticker}… (the history starts with it)
          </div>
        )}
        <canvas ref={canvasRef} className="heatmap-canvas" aria-hidden="true" />
      </div>
      <div className="heatmap-foot">
        <HoverText ticker={ticker} hover={input.hover} cursor={cursor} />
        <span className="heatmap-legend" aria-label="Legend">
          <span className="lg-bid">━ bid</span> <span className="lg-ask">━ ask</span> <span title="A bubble's size is the number of trades at that price in its 250 ms">○ trades</span> <span className="lg-mine">▬ my orders</span> <span>◆ my fills</span>
        </span>
      </div>
    </div>
  );
}

interface HeatmapBarProps {
  ticker: string;
  title: string | undefined;
  live: boolean;
  pausedAt: string | null;
  onLive: () => void;
  following: boolean;
  onFollow: () => void;
  colPx: number;
  setColPx: (px: number) => void;
  width: number;
  zoomRows: (d: 1 | -1) => void;
  cols: number;
  since: number | undefined;
}

/** The heatmap's bar: the market, Live / Paused, Follow price, time span, row height and the history it keeps. */
function HeatmapBar({ ticker, title, live, pausedAt, onLive, following, onFollow, colPx, setColPx, width, zoomRows, cols, since }: HeatmapBarProps) {
  return (
    <div className="panel-bar heatmap-bar">
      <span className="heatmap-name" title={title ? `${ticker} — ${title}` : ticker}>
        <strong>{ticker}</strong>
      </span>
      <button type="button" className="btn btn-sm" aria-pressed={live} onClick={onLive} title="Back to the newest bucket, following it (End)">
        {live ? '● Live' : '▶ Live'}
      </button>
      {pausedAt !== null && <span className="heatmap-paused num">Paused at {pausedAt}</span>}
      <button type="button" className="btn btn-sm" onClick={onFollow} aria-pressed={following} title="Keep the inside market in view (the prices follow it)">
        Follow price
      </button>
      <label className="check" title="Width of one 250 ms bucket on screen">
        <span className="dim">Time</span>
        <select aria-label="Pixels per bucket" value={colPx} onChange={(e) => setColPx(Number(e.target.value))}>
          {COL_CHOICES.map((c) => (
            <option key={c} value={c}>
              {spanText(Math.floor(Math.max(0, width - 56) / c))}
            </option>
          ))}
        </select>
      </label>
      <span className="heatmap-zoom" role="group" aria-label="Row height">
        <button type="button" className="btn btn-sm" onClick={() => zoomRows(-1)} aria-label="Smaller rows (-)">
          −
        </button>
        <button type="button" className="btn btn-sm" onClick={() => zoomRows(1)} aria-label="Taller rows (+)">
          +
        </button>
      </span>
      <span className="dim heatmap-held" data-testid="heatmap-held" title={`History ${spanText(cols)} a market: a ring of ${cols.toLocaleString()} buckets of ${BUCKET_MS} ms (Settings: Heatmap history), kept for up to ${MAX_MARKETS} linked markets; older buckets are dropped.`}
        data-columns={cols}>
        History {spanText(cols)}
        {since !== undefined ? ` · since ${clock(since)}` : ''}
      </span>
    </div>
  );
}

/** The element's client size, kept up to date (measured again when `key` changes: a new body is mounted). */
function useBoxSize(host: RefObject<HTMLDivElement | null>, key: unknown): { w: number; h: number } {
  const [size, setSize] = useState({ w: 0, h: 0 });
  useLayoutEffect(() => {
    const el = host.current;
    if (!el) return undefined;
    const measure = () => setSize((s) => (s.w === el.clientWidth && s.h === el.clientHeight ? s : { w: el.clientWidth, h: el.clientHeight }));
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [host, key]);
  return size;
}
