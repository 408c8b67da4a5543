// `npm run fuzz [-- --rest <n>] [--ws <n>] [--seed <n>]`: the full fuzz run (100,000 REST
// requests and 20,000 stream frames by default) against a fresh exchange on 127.0.0.1. Prints
// the answers by status and every failure with the request that caused it; exits 1 on any.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startExchange } from '../server';
import { fuzzRest, fuzzWs, type FuzzReport } from './fuzz';
import { withKeys } from '../../src-shared/credentials';

const { values } = parseArgs({ options: { rest: { type: 'string', default: '100000' }, ws: { type: 'string', default: '20000' }, seed: { type: 'string', default: String(Date.now() % 1_000_000) } } });
const seed = Number(values.seed);
const dataDir = mkdtempSync(path.join(tmpdir(), 'fuzz-'));
const ex = await startExchange({ dataDir, port: 0, sim: false, rateLimits: false });
const trader = withKeys(ex.credentials).accounts.find((a) => a.name === 'trader')!;
const show = (name: string, r: FuzzReport) => {
  console.log(`${name}: ${r.sent} sent in ${r.seconds.toFixed(0)} s; answers ${JSON.stringify(r.byStatus)}; failures ${r.failures.length}`);
  for (const f of r.failures) console.log(`  FAIL ${f.what}\n    request: ${f.request}\n    answer: ${f.answer}`);
};
console.log(`fuzz seed ${seed} (repeat with --seed ${seed})`);
const rest = await fuzzRest(ex, trader, Number(values.rest), seed);
show('REST', rest);
const ws = await fuzzWs(ex, trader, Number(values.ws), seed);
show('WebSocket', ws);
await ex.close();
rmSync(dataDir, { recursive: true, force: true });
process.exit(rest.failures.length + ws.failures.length > 0 ? 1 : 0);
