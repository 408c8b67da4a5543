// Starting a strategy's worker thread (strategy-thread.ts): the bundle's sibling in a build
// (electron-vite and the web host's bundle emit it next to main); from the source (tsx, tests),
// bundled once per process with esbuild, or else through tsx's loader.
// Each thread gets a V8 heap cap of its own (Worker resourceLimits); the strategy's QuickJS heap
// is capped inside it by the sandbox.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

let bundled: URL | null | undefined;

/**
 * From the source (tsx, tests, benches): the thread bundled once per process with esbuild into
 * the temp directory (its one package, quickjs-emscripten, imported by absolute path), so each
 * strategy's thread starts from plain JavaScript instead of registering tsx and compiling the
 * module graph again (seconds per thread on a busy machine). Null when esbuild is not there.
 */
function bundledFromSource(source: URL): URL | null {
  if (bundled !== undefined) return bundled;
  bundled = null;
  try {
    // a dev dependency: looked up only here, never in a build (which ships strategy-thread.js)
    const esbuild = createRequire(import.meta.url)('esbuild') as { buildSync(o: Record<string, unknown>): { outputFiles: { text: string }[] } };
    const quickjs = pathToFileURL(createRequire(fileURLToPath(source)).resolve('quickjs-emscripten')).href;
    const r = esbuild.buildSync({ entryPoints: [fileURLToPath(source)], bundle: true, write: false, format: 'esm', platform: 'node', target: 'node20', logLevel: 'silent', external: ['quickjs-emscripten'] });
    const code = r.outputFiles[0]!.text.replaceAll('"quickjs-emscripten"', JSON.stringify(quickjs));
    const dir = mkdtempSync(path.join(tmpdir(), 'strategy-thread-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const out = path.join(dir, 'strategy-thread.mjs');
    writeFileSync(out, code, { mode: 0o600 });
    bundled = pathToFileURL(out);
  } catch {
    bundled = null;
  }
  return bundled;
}

/** A fresh thread for one strategy or one backtest, its V8 heap capped at `heapMb`. */
export function spawnStrategyThread(heapMb: number): Worker {
  const url = script();
  const resourceLimits = { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: Math.max(8, Math.round(heapMb / 8)), stackSizeMb: 4 };
  if (!url.pathname.endsWith('.ts')) return new Worker(url, { resourceLimits });
  const js = bundledFromSource(url);
  if (js) return new Worker(js, { resourceLimits });
  // the source (tsx, tests): Node will not start a worker from a .ts file, so the thread first
  // registers tsx's loader, then imports the script (as src-exchange/core/snapshot-worker.ts does)
  const tsxDir = path.dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
  const api = pathToFileURL(path.join(tsxDir, 'dist/esm/api/index.mjs')).href;
  const code = `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(url.href)}); })`;
  return new Worker(code, { eval: true, resourceLimits });
}
