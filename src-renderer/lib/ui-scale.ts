// The UI's text size (Settings → Text size, Alt+Shift+= / Alt+Shift+-): every font size in the
// stylesheet is `calc(Npx * var(--fs, 1))`, and the controls and rows that hold one line of text
// grow with it; the ladder's rows get a whole-pixel height (--ladder-row) so its canvas cells stay
// on the pixel grid, and the ladder counts its rows with the same figure.
import type { Settings } from '../../src-shared/ipc/contract';

export type FontPx = NonNullable<Settings['fontPx']>;
export const FONT_SIZES: readonly FontPx[] = [12, 13, 14, 16];
export const DEFAULT_FONT_PX: FontPx = 12;
export const FONT_LABELS: Record<FontPx, string> = { 12: 'Small (12 px, default)', 13: 'Medium (13 px)', 14: 'Large (14 px)', 16: 'Extra large (16 px)' };

/** The ladder's row height at the default text size (the stylesheet's --ladder-row fallback). */
export const LADDER_ROW_PX = 18;
/** The ladder's row height at a text size, in whole pixels. */
export const ladderRowPx = (px: FontPx = DEFAULT_FONT_PX): number => Math.round((LADDER_ROW_PX * px) / DEFAULT_FONT_PX);

/** The next size up or down (the same at either end). */
export function stepFont(px: FontPx | undefined, dir: 1 | -1): FontPx {
  const i = FONT_SIZES.indexOf(px ?? DEFAULT_FONT_PX);
  return FONT_SIZES[Math.max(0, Math.min(FONT_SIZES.length - 1, (i < 0 ? 0 : i) + dir))]!;
}

/** Applies a text size to the page: the stylesheet's scale and the ladder's row height. */
export function applyFontSize(px: FontPx = DEFAULT_FONT_PX, root: HTMLElement = document.documentElement): void {
  root.style.setProperty('--fs', String(px / DEFAULT_FONT_PX));
  root.style.setProperty('--ladder-row', `${ladderRowPx(px)}px`);
  root.dataset.fontPx = String(px);
}
