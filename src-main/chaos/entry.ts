// How the chaos runs and the tests start the exchange or the web host as a process of their own.
// `npm test` bundles both (scripts/build-host.mjs into out/host) before its unit + integration
// stage and says so with TEST_BUNDLES=1: a start then runs the bundles, as `npm run start:web`
// does (the bundled host runs the bundled exchange too), and skips tsx's compilation and loader
// hooks over a few hundred modules (an exchange's start: 3.5 -> 2.2 s of CPU). Anywhere else
// (vitest or the chaos CLI by hand, where out/host may be missing or older than the source) it
// runs the source under tsx. test-support/entry.ts hands it to the tests.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * node's arguments that run the exchange's or the web host's command line (its own flags follow):
 * the bundles when `bundles` (by default: `npm test` built them for this run, TEST_BUNDLES=1),
 * else the source under tsx. The e2e fixture passes its own E2E_HOST_BUNDLE.
 */
export function entryArgs(what: 'exchange' | 'host', bundles = process.env.TEST_BUNDLES === '1'): string[] {
  if (bundles) return [path.join(root, 'out/host', what === 'host' ? 'cli.js' : 'exchange.js')];
  return ['--import', 'tsx', path.join(root, what === 'host' ? 'src-main/host/cli.ts' : 'src-exchange/cli.ts')];
}
