// Bundles the web host for `npm run start:web` (and the cold-start benchmark): out/host/cli.js
// (main's services + the web host), out/host/exchange.js (the embedded exchange, run as a child)
// and out/host/snapshot-worker-thread.js (the exchange's snapshot worker), Node ESM with the
// dependencies left in node_modules, as electron-vite builds the desktop shell's main. Starting
// from bundles skips tsx's on-the-fly compilation of a few hundred modules on every start.
import { build } from 'esbuild';
import { cpSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// `--outdir <dir>` (inside the repository, so the bundles find node_modules): a private copy, as a
// test that starts the host from its bundles builds one of its own rather than race out/host
const at = process.argv.indexOf('--outdir');
const outdir = at >= 0 && process.argv[at + 1] ? process.argv[at + 1] : 'out/host';
const t0 = Date.now();
await build({
  absWorkingDir: root,
  entryPoints: {
    cli: 'src-main/host/cli.ts',
    exchange: 'src-exchange/cli.ts',
    'snapshot-worker-thread': 'src-exchange/core/snapshot-worker-thread.ts',
    'recorder-store-thread': 'src-main/recorder/store-thread.ts',
    'strategy-thread': 'src-main/strategies/strategy-thread.ts',
  },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
});
// the example strategies are read at run time (the Strategies panel offers them)
cpSync(path.join(root, 'src-main/strategies/examples'), path.resolve(root, outdir, 'examples'), { recursive: true });
console.log(`web host bundled into ${outdir} in ${Date.now() - t0} ms`);
