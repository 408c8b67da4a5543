// `npm run mutation [-- <file.ts> ...]`: StrykerJS over the modules that guard money and orders
// (stryker.config.mjs), then the score per module from its JSON report; exits 1 when a module
// scores under 80%. Not part of npm test (minutes per module on two cores).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const files = process.argv.slice(2);
const env = { ...process.env, ...(files.length ? { MUTATE: files.join(',') } : {}) };
const run = spawnSync(path.join(root, 'node_modules', '.bin', 'stryker'), ['run', 'stryker.config.mjs'], { cwd: root, stdio: 'inherit', env });
if (run.status !== 0) process.exit(run.status ?? 1);

const report = JSON.parse(readFileSync(path.join(root, 'reports', 'mutation', 'mutation.json'), 'utf8'));
const FLOOR = 80;
let failed = false;
console.log('\nmutation score per module (killed + timed out) / (killed + timed out + survived + no coverage):');
for (const [file, data] of Object.entries(report.files)) {
  const n = (s) => data.mutants.filter((m) => m.status === s).length;
  const detected = n('Killed') + n('Timeout');
  const undetected = n('Survived') + n('NoCoverage');
  const score = detected + undetected === 0 ? 100 : (100 * detected) / (detected + undetected);
  const ok = score >= FLOOR;
  failed ||= !ok;
  console.log(`  ${ok ? 'ok  ' : 'LOW '} ${score.toFixed(1).padStart(5)}%  ${file}  (${detected} detected, ${n('Survived')} survived, ${n('NoCoverage')} not covered, ${n('CompileError') + n('RuntimeError')} invalid)`);
  for (const m of data.mutants.filter((x) => x.status === 'Survived' || x.status === 'NoCoverage').slice(0, 40)) {
    console.log(`        ${m.status.padEnd(10)} line ${m.location.start.line}: ${m.mutatorName} ${JSON.stringify(m.replacement ?? '').slice(0, 80)}`);
  }
}
process.exit(failed ? 1 : 0);
