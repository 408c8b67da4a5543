// What a ladder's canvas shows over a text block. The ladder draws its sizes, running totals and
// volume on a canvas over the rows (src-renderer/features/ladder/ladder-canvas.ts) and keeps the
// texts in hidden blocks: a value is on screen only where the canvas has ink over its cell.
// Glyph pixels are near opaque; a depth bar is at most a quarter opaque: ink is a pixel more than
// half opaque. Installed once per page as `window.__ladderInk(panel)`, usable inside any evaluate.
import type { Page } from '@playwright/test';

export type InkOf = (block: Element | null) => boolean;

export async function installInkReader(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __ladderInk?: (panel: Element) => InkOf | null };
    if (w.__ladderInk) return;
    w.__ladderInk = (panel) => {
      const host = panel.querySelector<HTMLElement>('.ladder-rows[data-canvas-text]');
      const canvas = host?.querySelector<HTMLCanvasElement>('canvas.ladder-canvas');
      if (!host || !canvas) return null;
      const box = canvas.getBoundingClientRect();
      const width = Math.round(box.width);
      const height = Math.round(box.height);
      if (width === 0 || height === 0) return () => false;
      const copy = document.createElement('canvas');
      copy.width = width;
      copy.height = height;
      const ctx = copy.getContext('2d', { willReadFrequently: true });
      if (!ctx) return null;
      ctx.drawImage(canvas, 0, 0, width, height);
      const px = ctx.getImageData(0, 0, width, height).data;
      // a block is not laid out (display none): its cell is where the canvas draws it
      return (block) => {
        const cell = block?.parentElement;
        if (!cell) return false;
        const r = cell.getBoundingClientRect();
        const x0 = Math.max(0, Math.floor(r.left - box.left));
        const x1 = Math.min(width, Math.ceil(r.right - box.left));
        const y0 = Math.max(0, Math.floor(r.top - box.top));
        const y1 = Math.min(height, Math.ceil(r.bottom - box.top));
        for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (px[(y * width + x) * 4 + 3]! > 128) return true;
        return false;
      };
    };
  });
}
