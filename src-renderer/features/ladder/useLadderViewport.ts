// The ladder's window on the price grid: which market rows it shows (step, top, how many rows),
// the cursor, whether it follows the inside market, and what the book told it (stale, first book).
import { useEffect, useLayoutEffect, useRef, useState, type Dispatch, type RefObject, type SetStateAction } from 'react';
import { clampTop, topForCenter, type View } from './ladder-model';
import { ladderGrid } from './ladder-grid';
import { ladderRowPx } from '../../lib/ui-scale';
import { useSession } from '../../stores/session';
import type { StepChoice } from './LadderToolbar';
import { onLadderCentre } from '../../stores/ladder-centre';

export function useLadderViewport(ticker: string | null, view: View, rowsHost: RefObject<HTMLDivElement | null>, setWidth: Dispatch<SetStateAction<number | null>>) {
  const [stepChoice, setStepChoice] = useState<StepChoice>('auto');
  const [autoStep, setAutoStep] = useState<number | null>(null);
  const step = stepChoice === 'auto' ? (autoStep ?? 100) : stepChoice;
  // the market's price grid (read with its market row): every row, scroll and click is a price it takes
  const grid = ladderGrid(ticker, view);
  const [rowCount, setRowCount] = useState(30);
  // the rows' height follows the text size (Settings): as many rows as fit whole at that height
  const rowPx = useSession((s) => ladderRowPx(s.settings.fontPx));
  const [top, setTop] = useState<number | null>(null);
  const [cursor, setCursor] = useState<number | null>(null);
  const [stale, setStale] = useState(false);
  const [hasBook, setHasBook] = useState(false);
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

  // a row spacing picked by hand re-centres the rows at that spacing
  const chooseStep = (v: StepChoice) => {
    setStepChoice(v);
    setTop(null);
  };

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
      const n = Math.max(5, Math.floor(el.clientHeight / rowPx));
      setRowCount((prev) => (prev === n ? prev : n));
      setWidth(el.clientWidth || null);
    });
    ro.observe(el);
    return () => ro.disconnect();
    // the rows host (a ref) and the width setter never change: a new market or row height observes again
  }, [ticker, rowsHost, setWidth, rowPx]);

  // another panel (the depth heatmap) asks this market's ladders to centre on a price
  useEffect(
    () =>
      onLadderCentre((r) => {
        if (r.ticker !== ticker) return;
        setFollow(false);
        setTop(topForCenter(view === 'yes' ? r.yesTicks : 10_000 - r.yesTicks, step, rowCount, grid));
      }),
    [ticker, view, step, rowCount, grid],
  );

  return { stepChoice, chooseStep, setAutoStep, step, grid, rowCount, top, setTop, cursor, setCursor, stale, setStale, hasBook, setHasBook, follow, setFollow, followRef, scrollTo };
}
