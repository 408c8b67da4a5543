// Issue 34, "no number is ever cut": which of a table's columns give way, lowest rank first,
// so that the rest fit the width in view, and that width as the table's box resizes.
import { useLayoutEffect, useState } from 'react';

/** A column as the fit sees it: its fixed width (or the least a flexible one needs) and its drop rank. */
export interface FitColumn {
  id: string;
  size?: number | undefined;
  minWidth?: number | undefined;
  drop?: number | undefined;
}

const FLEX_MIN = 90;

const fitWidth = (c: FitColumn) => c.size ?? c.minWidth ?? FLEX_MIN;

/** The least width these columns take: the sized ones' sizes, the others' minimums. */
export function leastWidth(cols: readonly FitColumn[]): number {
  return cols.reduce((s, c) => s + fitWidth(c), 0);
}

/**
 * The columns to hide so that the rest fit `avail` px: the droppable ones, lowest rank first,
 * until the others' widths add up to no more than `avail`. Columns that always stay may still
 * be wider than `avail` (the table then scrolls).
 */
export function columnsToHide(cols: readonly FitColumn[], avail: number): string[] {
  let need = leastWidth(cols);
  const hidden: string[] = [];
  const droppable = cols.filter((c) => c.drop !== undefined).sort((a, b) => a.drop! - b.drop!);
  for (const c of droppable) {
    if (need <= avail) break;
    hidden.push(c.id);
    need -= fitWidth(c);
  }
  return hidden;
}

/** The inner width of the table's scroll box, followed as it resizes (null until measured). */
export function useAvailableWidth(ref: { current: HTMLElement | null }): number | null {
  const [w, setW] = useState<number | null>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    // what is in view of it: a panel whose other content is wider than the panel is clipped by
    // an ancestor, and the table's own box then runs past what shows
    const measure = () => {
      const box = el.getBoundingClientRect();
      let right = box.left + el.clientWidth;
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        if (getComputedStyle(a).overflowX === 'visible') continue;
        const r = a.getBoundingClientRect();
        right = Math.min(right, r.left + a.clientLeft + a.clientWidth);
      }
      setW(Math.floor(right - box.left) || null);
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    const panel = el.closest('[data-panel]');
    if (panel) ro.observe(panel);
    return () => ro.disconnect();
  }, [ref]);
  return w;
}
