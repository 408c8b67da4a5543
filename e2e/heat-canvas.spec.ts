// The depth heatmap's painter keeps what it drew: the heat, the best bid / ask lines and the marks
// (trades, my orders, my fills) of closed columns live in offscreen layers that shift left when a
// bucket closes, and a frame draws only the open column's shapes over them. This spec proves that
// the kept drawing is the drawing: in Chromium, at device pixel ratios 1 and 2, one painter draws
// every frame of a few hundred buckets of a wandering book with trades, fills and resting orders
// (the cache path), a fresh painter draws the last frame once (the whole redraw), and the two
// canvases must be the same pixels, exactly (it found the layers cut the bubbles of a column that
// closed at the heat's right edge: they now keep a margin there). Only the left edge may differ: the kept layers still hold the
// parts of shapes whose column has scrolled out of view (a bubble's right half), which a whole
// redraw of the columns in view does not draw.
import { test, expect } from '@playwright/test';
import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function painterBundle(): Promise<string> {
  const out = await build({
    stdin: {
      contents: "export { HeatPainter } from './src-renderer/features/heatmap/heat-canvas';\nexport { HeatSeries } from './src-renderer/features/heatmap/heat-model';\n",
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    format: 'iife',
    globalName: 'Heat',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  return out.outputFiles[0]!.text;
}

interface Outcome {
  frames: number;
  columnsDrawn: number;
  compared: number;
  differing: number;
  firstDiff: string | null;
  inked: number;
  /** the largest difference of one channel anywhere compared */
  maxOff: number;
}

for (const dpr of [1, 2]) {
  test(`heatmap painter at device pixel ratio ${dpr}: frames drawn from its kept layers equal a whole redraw`, async ({ browser }) => {
    const context = await browser.newContext({ deviceScaleFactor: dpr, viewport: { width: 800, height: 600 } });
    const page = await context.newPage();
    await page.setContent('<!doctype html><body style="margin:0;background:#000"></body>');
    await page.addScriptTag({ content: await painterBundle() });
    const r = await page.evaluate((): Outcome => {
      type Api = typeof import('../src-renderer/features/heatmap/heat-canvas') & typeof import('../src-renderer/features/heatmap/heat-model');
      const H = (globalThis as unknown as { Heat: Api }).Heat;
      const theme = { bg: '#13161b', text: '#d6dae0', dim: '#8a929e', grid: '#3a414d', bid: '#3fb27f', ask: '#e5635b', mine: '#c7a3ff', trade: 'rgba(255,255,255,0.85)' };
      const g = { width: 420, height: 320, colPx: 3, rowPx: 6, step: 100, top: 6500 };
      const canvasOf = () => {
        const c = document.createElement('canvas');
        c.style.width = `${g.width}px`;
        c.style.height = `${g.height}px`;
        document.body.append(c);
        return c;
      };
      const a = canvasOf();
      const b = canvasOf();
      const painterA = new H.HeatPainter(a, a.getContext('2d')!, theme);
      const painterB = new H.HeatPainter(b, b.getContext('2d')!, theme);
      const series = new H.HeatSeries(2400, 250);
      // a deterministic wandering book: 10 levels a side around a mid that drifts between 0.40 and 0.50
      let seed = 7;
      const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
      let mid = 4500;
      let frames = 0;
      const frame = () => {
        const f = { series, g, endSeq: series.lastSeq, live: true, fmtPrice: (t: number) => (t / 10_000).toFixed(2), cursor: null };
        if (painterA.needs(f)) {
          painterA.draw(f);
          frames++;
        }
        return f;
      };
      let last: ReturnType<typeof frame> | null = null;
      const t0 = 1_700_000_000_000;
      for (let k = 0; k < 320; k++) {
        const now = t0 + k * 250;
        mid = Math.max(4000, Math.min(5000, mid + Math.round((rnd() - 0.5) * 3) * 100));
        const bids: number[] = [];
        const asks: number[] = [];
        for (let i = 1; i <= 10; i++) {
          bids.push(mid - i * 100, Math.round(rnd() * 500_000) + 100);
          asks.push(mid + i * 100, Math.round(rnd() * 500_000) + 100);
        }
        series.book({ yesBids: bids, yesAsks: asks, stale: false }, now + 10);
        frame();
        if (rnd() < 0.7) series.trade(mid + (rnd() < 0.5 ? -100 : 100), 100, now + 60);
        if (rnd() < 0.3) series.trade(mid + 100, 200, now + 70);
        frame();
        if (k % 9 === 0) series.fill(mid - 100, rnd() < 0.5 ? 1 : -1, 100, now + 120);
        if (k % 40 < 20) series.mine([mid - 300, 1, mid + 400, -1], now + 130);
        else series.mine([], now + 130);
        last = frame();
      }
      painterB.draw(last!);
      const pa = a.getContext('2d')!.getImageData(0, 0, a.width, a.height).data;
      const pb = b.getContext('2d')!.getImageData(0, 0, b.width, b.height).data;
      const dpr = a.width / g.width;
      const edge = Math.ceil(16 * dpr);
      let compared = 0;
      let differing = 0;
      let inked = 0;
      let firstDiff: string | null = null;
      let maxOff = 0;
      const TOLERANCE = 0;
      const bg = [0x13, 0x16, 0x1b];
      for (let y = 0; y < a.height; y++) {
        for (let x = edge; x < a.width; x++) {
          const i = (y * a.width + x) * 4;
          compared++;
          if (pa[i] !== bg[0] || pa[i + 1] !== bg[1] || pa[i + 2] !== bg[2]) inked++;
          const off = Math.max(Math.abs(pa[i]! - pb[i]!), Math.abs(pa[i + 1]! - pb[i + 1]!), Math.abs(pa[i + 2]! - pb[i + 2]!), Math.abs(pa[i + 3]! - pb[i + 3]!));
          if (off > maxOff) maxOff = off;
          if (off > TOLERANCE) {
            differing++;
            firstDiff ??= `(${x}, ${y}): kept ${[pa[i], pa[i + 1], pa[i + 2], pa[i + 3]].join(',')} vs redrawn ${[pb[i], pb[i + 1], pb[i + 2], pb[i + 3]].join(',')}`;
          }
        }
      }
      return { frames, columnsDrawn: painterA.columnsDrawn, compared, differing, firstDiff, inked, maxOff };
    });
    await context.close();
    // the run scrolled (320 buckets, 121 slots) and the painter kept its drawing: far fewer heat
    // columns drawn than a whole redraw a frame would have drawn
    expect(r.frames).toBeGreaterThan(600);
    expect(r.columnsDrawn).toBeLessThan(r.frames * 3);
    expect(r.inked / r.compared, 'the canvas shows heat').toBeGreaterThan(0.2);
    expect(r.differing, `${r.differing} of ${r.compared} pixels differ; first ${r.firstDiff}`).toBe(0);
    console.log(`dpr ${dpr}: ${r.frames} frames, ${r.columnsDrawn} heat columns drawn, ${r.compared} pixels compared, largest channel difference ${r.maxOff}`);
  });
}
