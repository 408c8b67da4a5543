// Section 2's child processes (the exchange and its bare fastify peer) run from esbuild bundles
// built with the web host's own options (scripts/host-bundle.mjs), as `npm run start:web` and the
// desktop shell run the exchange: plain `node exchange.js`, not under tsx (which compiles on the
// fly and keeps names: a `__name` call for every closure made on the hot path, 0.5% of the
// exchange's samples in a profile). Four alternating pairs on 2026-12-01 put the two within this
// machine's noise (exchange CPU per request, medians of 3 runs each: bundled 214, 209, 196, 182
// us; under tsx 264, 208, 213, 175 us), so the change is for faithfulness, not a figure. Built
// once per bench process, in about a second, into out/bench-children (inside the repository, so
// the bundles find node_modules).
import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { hostBundleOptions } from '../../scripts/host-bundle.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const OUT = path.join(ROOT, 'out', 'bench-children');

/** The children this section starts, by their source's file name in this folder. */
const ENTRIES = {
  'exchange-child': 'bench/exchange-http/exchange-child.ts',
  'bare-fastify': 'bench/exchange-http/bare-fastify.ts',
  // the exchange's snapshot worker, found beside its bundle as in out/host
  'snapshot-worker-thread': 'src-exchange/core/snapshot-worker-thread.ts',
};

let built: Promise<void> | undefined;

/** The bundle of `file` (e.g. 'exchange-child.ts'), built on first use. */
export async function childBundle(file: string): Promise<string> {
  const name = path.basename(file, '.ts');
  if (!(name in ENTRIES)) throw new Error(`no bundle is built for ${file}: add it to ENTRIES in bench/exchange-http/bundle.ts`);
  built ??= build(hostBundleOptions(ROOT, OUT, ENTRIES)).then(() => undefined);
  await built;
  return path.join(OUT, `${name}.js`);
}
