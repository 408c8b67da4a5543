// The renderer bench's cold start (bench/renderer.bench.ts, section `start`): `npm run start:web`'s
// bundles started cold, host spawn to the first painted ladder, against a blank page spawned and
// loaded in the same browser; then the memory of main + exchange + renderer.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext } from 'playwright';
import { childPids, figure, rssBytes } from '../lib';
import { own, stopChild, waitFor } from '../procs';
import { spawnHost } from '../spawn-host';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface ColdStartOptions {
  /** the browser's flags, the firehose section's */
  chromiumArgs: string[];
  pageTimeoutMs: number;
  /** records a target and prints whether it was met (the bench's exit status counts them) */
  target: (name: string, ok: boolean) => void;
}

interface StartFigures {
  listening: number;
  pageLoaded: number;
  firstLadder: number;
  mainRss: number;
  exchangeRss: number;
  heap: number;
  /** the peer: a bare node HTTP server spawned and its blank page loaded, in the same browser */
  blankPage: number;
}

const BLANK_SERVER = "require('http').createServer((q, s) => s.end('<!doctype html><title>blank</title>')).listen(0, '127.0.0.1', function () { console.log(this.address().port) })";

/**
 * The peer of the first ladder: the same start, bare: a node process spawned that serves a blank
 * page, and that page loaded in a new page of the same browser (spawn to load), as the ladder's
 * start is timed from the host's spawn.
 */
async function blankPageLoad(browser: BrowserContext): Promise<number> {
  const page = await browser.newPage();
  const t0 = performance.now();
  const child = own(spawn(process.execPath, ['-e', BLANK_SERVER], { stdio: ['ignore', 'pipe', 'inherit'] }));
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (b: Buffer) => resolve(b.toString().trim()));
    child.once('exit', () => reject(new Error('the blank page server ended before listening')));
  });
  await page.goto(`http://127.0.0.1:${port}/`, { waitUntil: 'load' });
  const ms = performance.now() - t0;
  await page.close();
  await stopChild(child);
  return ms;
}

/** A start whose ladder never showed sizes: reported as a missed target with what the screen showed. */
class StuckStart extends Error {}

/**
 * One start of `npm run start:web`'s bundles on `dataDir` (no --port: the last start's, as a
 * trader runs it), the page in the browser profile `profileDir` (the trader's browser keeps the
 * page's storage: its selected market): host process start to the first painted ladder; then memory.
 */
async function startOnce(dataDir: string, profileDir: string, o: ColdStartOptions): Promise<StartFigures> {
  // the trader's browser is already open (its launch is not the terminal's start)
  const browser = await chromium.launchPersistentContext(profileDir, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: o.chromiumArgs,
    timeout: o.pageTimeoutMs,
    viewport: { width: 1600, height: 1000 },
  });
  const page = await browser.newPage();
  page.setDefaultTimeout(o.pageTimeoutMs);
  await page.addInitScript({ content: 'window.__name = (f) => f;' });
  const t0 = performance.now();
  // a slow machine (the first start signs and provisions with RSA) is waited for, with progress
  const host = spawnHost(['--data-dir', dataDir]);
  const child = host.child;
  const url = await host.url();
  const listening = performance.now() - t0;
  await page.goto(url, { waitUntil: 'load' });
  const pageLoaded = performance.now() - t0;
  // the first painted size, read every frame (polling: 'raf'); a slow start is waited for while
  // the host is alive and still printing (progress below), never against a fixed deadline
  const painted = page.waitForFunction(() => [...document.querySelectorAll('[data-panel="ladder"] [data-cell="bid"] .qty')].some((q) => (q.textContent ?? '') !== ''), undefined, { timeout: 0, polling: 'raf' });
  let done = false;
  void painted.then(() => (done = true), () => (done = true));
  try {
    // the host's console goes quiet once it is ready: three quiet minutes with a ready host and no
    // sized ladder is a stuck screen, not a slow machine
    await waitFor('the first ladder with sizes', () => done || undefined, { child, stallMs: 180_000, progress: () => host.lines.length, status: () => `host: ${host.lines.at(-1) ?? '(quiet)'}` });
  } catch (e) {
    const shot = path.join(root, 'e2e', 'artifacts', 'bench-renderer-start-stuck.png');
    await page.screenshot({ path: shot }).catch(() => undefined);
    const ladderText = await page.evaluate(() => (document.querySelector('[data-panel="ladder"]')?.textContent ?? '(no ladder panel)').slice(0, 200)).catch(() => '(page gone)');
    await browser.close().catch(() => undefined);
    await stopChild(child);
    throw new StuckStart(`${(e as Error).message}; the ladder shows: ${ladderText}; screenshot ${shot}`);
  }
  await painted;
  const firstLadder = performance.now() - t0;
  await page.waitForTimeout(3000);
  // memory: the host (main) and its exchange child from /proc, the renderer's JS heap from CDP
  const hostPid = child.pid!;
  const mainRss = rssBytes(hostPid);
  const exchangeRss = childPids(hostPid).reduce((s, p) => s + rssBytes(p), 0);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const metrics = (await cdp.send('Performance.getMetrics')).metrics;
  const heap = metrics.find((m) => m.name === 'JSHeapTotalSize')?.value ?? 0;
  await stopChild(child);
  const blankPage = await blankPageLoad(browser);
  await browser.close();
  return { listening, pageLoaded, firstLadder, mainRss, exchangeRss, heap, blankPage };
}

/**
 * `npm run start:web`'s path from its bundles, cold (no process running, a new browser): the
 * first start ever on a new data directory (which provisions accounts, keys and the catalog once),
 * then the start a trader makes every day, on that same directory. The target is judged on the
 * everyday start; both are printed.
 */
export async function coldStart(o: ColdStartOptions): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-start-'));
  const profileDir = mkdtempSync(path.join(tmpdir(), 'bench-start-browser-'));
  let first: StartFigures;
  let again: StartFigures;
  try {
    first = await startOnce(dataDir, profileDir, o);
    again = await startOnce(dataDir, profileDir, o);
  } catch (e) {
    if (!(e instanceof StuckStart)) throw e;
    console.log(`\n## cold start of the web host: the first ladder never showed sizes\n  ${e.message}`);
    o.target('a cold start paints a ladder with sizes', false);
    return;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(profileDir, { recursive: true, force: true });
  }
  const mb = (b: number) => (b / 2 ** 20).toFixed(0);
  console.log(`\n## cold start of the web host from its bundles (out/host, as npm run start:web runs it; embedded exchange, seeded catalog) to the first painted ladder`);
  console.log("  the browser is already open (its own launch is not counted), one profile for both starts (a trader's browser, which keeps the page's storage); t0 = the host process spawned");
  for (const [label, f] of [['first start (new data directory: provisions accounts and catalog)', first], ['everyday start (existing data directory)', again]] as const) {
    console.log(`  ${label}: host listening ${f.listening.toFixed(0)} ms, page loaded ${f.pageLoaded.toFixed(0)} ms, first ladder with sizes ${f.firstLadder.toFixed(0)} ms`);
  }
  const totalMb = (again.mainRss + again.exchangeRss + again.heap) / 2 ** 20;
  console.log(`  memory (everyday start, 3 s after the first ladder): main ${mb(again.mainRss)} MB RSS, exchange ${mb(again.exchangeRss)} MB RSS, renderer JS heap ${mb(again.heap)} MB; total ${totalMb.toFixed(0)} MB (built bundles)`);
  const vsBlank = again.firstLadder / again.blankPage;
  console.log(`  peer: a bare node server spawned and its blank page loaded in the same browser: ${again.blankPage.toFixed(0)} ms; first ladder / blank page ${vsBlank.toFixed(2)}x`);
  figure('startup_first_ladder_ms', again.firstLadder, 'ms (everyday start, built bundles; peer: a blank page spawned and loaded in the same browser)', again.blankPage, vsBlank);
  figure('startup_first_run_ms', first.firstLadder, 'ms (first start on a new data directory)');
  figure('memory_total_mb', totalMb, 'MB (main + exchange RSS + renderer JS heap, built bundles)');
  o.target('startup_first_ladder_ms <= 2000', again.firstLadder <= 2000);
  o.target('memory_total_mb <= 400', totalMb <= 400);
}
