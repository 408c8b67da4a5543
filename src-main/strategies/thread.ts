// Starting a strategy's worker thread (strategy-thread.ts): the source under tsx and tests, the
// bundle's sibling in a build (electron-vite and the web host's bundle emit it next to main).
// Each thread gets a V8 heap cap of its own (Worker resourceLimits); the strategy's QuickJS heap
// is capped inside it by the sandbox.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

function script(): URL {
  const candidates = [
    new URL('./strategy-thread.ts', import.meta.url),
    new URL('./strategy-thread.js', import.meta.url),
    new URL('../strategy-thread.js', import.meta.url),
  ].flatMap((u) => [new URL(u.href.replace('/app.asar/', '/app.asar.unpacked/')), u]);
  const found = candidates.find((u) => u.protocol === 'file:' && existsSync(fileURLToPath(u)));
  if (!found) throw new Error('the strategy thread script is missing from this build');
  return found;
}

/** A fresh thread for one strategy or one backtest, its V8 heap capped at `heapMb`. */
export function spawnStrategyThread(heapMb: number): Worker {
  const url = script();
  const resourceLimits = { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: Math.max(8, Math.round(heapMb / 8)), stackSizeMb: 4 };
  if (!url.pathname.endsWith('.ts')) return new Worker(url, { resourceLimits });
  // the source (tsx, tests): Node will not start a worker from a .ts file, so the thread first
  // registers tsx's loader, then imports the script (as src-exchange/core/snapshot-worker.ts does)
  const tsxDir = path.dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
  const api = pathToFileURL(path.join(tsxDir, 'dist/esm/api/index.mjs')).href;
  const code = `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(url.href)}); })`;
  return new Worker(code, { eval: true, resourceLimits });
}
