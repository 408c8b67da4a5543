// Bundles the web host for `npm run start:web` (and the cold-start benchmark): out/host/cli.js
// (main's services + the web host), out/host/exchange.js (the embedded exchange, run as a child)
// and out/host/snapshot-worker-thread.js (the exchange's snapshot worker), Node ESM. Starting
// from bundles skips tsx's on-the-fly compilation of a few hundred modules on every start; the
// pure-JS dependencies are bundled too (fastify, ajv, zod, ws: some 600 files), as Node's ESM
// loader resolving, reading and compiling them one by one was most of a start before any of our
// code ran (the exchange's module load 750 ms of its 1.5 s to listening; bundled: listening
// 1.47-1.65 -> 1.17-1.27 s, 2.3-2.6 -> 1.9-2.0 s of CPU; host + exchange to "terminal ready"
// 2.03-2.16 -> 1.67-1.81 s, three starts each). The options (what stays in node_modules, and
// why) are in host-bundle.mjs, shared with the HTTP bench's exchange. The desktop shell's main is
// built by electron-vite, apart.
import { build } from 'esbuild';
import { hostBundleOptions } from './host-bundle.mjs';
import { cpSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// `--outdir <dir>` (inside the repository, so the bundles find node_modules): a private copy, as a
// test that starts the host from its bundles builds one of its own rather than race out/host
const at = process.argv.indexOf('--outdir');
const outdir = at >= 0 && process.argv[at + 1] ? process.argv[at + 1] : 'out/host';
const t0 = Date.now();
await build(
  hostBundleOptions(root, outdir, {
    cli: 'src-main/host/cli.ts',
    exchange: 'src-exchange/cli.ts',
    'snapshot-worker-thread': 'src-exchange/core/snapshot-worker-thread.ts',
    'recorder-store-thread': 'src-main/recorder/store-thread.ts',
    'strategy-thread': 'src-main/strategies/strategy-thread.ts',
  }),
);
// the example strategies are read at run time (the Strategies panel offers them)
cpSync(path.join(root, 'src-main/strategies/examples'), path.resolve(root, outdir, 'examples'), { recursive: true });
console.log(`web host bundled into ${outdir} in ${Date.now() - t0} ms`);
