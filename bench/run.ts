// `npm run bench`: runs every bench/*.bench.ts in its own process (so one bench's JIT
// state and garbage do not colour the next) and summarises which targets were met.
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const dir = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
if (files.length === 0) {
  console.error('no benchmarks matched');
  process.exit(1);
}
const summary: string[] = [];
for (const f of files) {
  console.log(`\n# ${f}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--expose-gc', path.join(dir, f)], { stdio: 'inherit' });
  summary.push(`${f}: ${r.status === 0 ? 'all targets met' : r.status === 2 ? 'some targets MISSED' : `failed (exit ${r.status})`}`);
}
console.log('\n# summary');
for (const s of summary) console.log(`  ${s}`);
