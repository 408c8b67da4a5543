// The ladder's optional columns (cumulative depth Σ and session volume Vol): on by default, and
// shown as far as the ladder's width lets them (they give way before a number is cut, issue 34).
import { useState } from 'react';

/**
 * Which optional columns a ladder this wide shows: Vol goes first, then Σ, so the price, the
 * sizes and my orders' tags ("5 · q51") keep the room their numbers need (null: not measured yet).
 */
export function ladderFit(width: number | null): { vol: boolean; cum: boolean; narrow: boolean } {
  if (width === null) return { vol: true, cum: true, narrow: false };
  return { vol: width >= LADDER_FULL_PX, cum: width >= LADDER_CUM_PX, narrow: width < LADDER_CUM_PX };
}
/** the widths (px) from which Vol, and Σ, fit beside the rest */
const LADDER_FULL_PX = 470;
const LADDER_CUM_PX = 400;

export function useLadderColumns() {
  // optional columns: cumulative depth and session volume at price, both on by default
  const [showCum, setShowCum] = useState(true);
  const [showVol, setShowVol] = useState(true);
  // ...as far as the ladder's width lets them: they give way before a number is cut (issue 34)
  const [width, setWidth] = useState<number | null>(null);
  const [allColumns, setAllColumns] = useState(false);
  const fits = ladderFit(width);
  const cumShown = showCum && (allColumns || fits.cum);
  const volShown = showVol && (allColumns || fits.vol);
  const gaveWay = [showCum && !cumShown ? 'Σ' : '', showVol && !volShown ? 'Vol' : ''].filter(Boolean);
  // a column that gave way is shown anyway by its toggle; otherwise the toggle turns it on or off
  const onCum = () => (showCum && !cumShown ? setAllColumns(true) : setShowCum((v) => !v));
  const onVol = () => (showVol && !volShown ? setAllColumns(true) : setShowVol((v) => !v));
  return { setWidth, allColumns, setAllColumns, narrow: fits.narrow && !allColumns, cumShown, volShown, gaveWay, onCum, onVol };
}
