// `npm run truth [-- --minutes N] [-- --sim-rate R] [-- --only default|high]`: the display-truth
// harness of e2e/truth.spec.ts run longer. It builds the renderer, runs the spec with the given
// length, and prints per panel: samples, values checked, in flight, wrong values, longest wrong.
import { spawnSync } from 'node:child_process';
import { readFileSync, existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: { minutes: { type: 'string', default: '10' }, 'sim-rate': { type: 'string', default: '1500' }, only: { type: 'string', default: 'high' }, 'no-build': { type: 'boolean', default: false } },
});
const minutes = Number(values.minutes);
if (!(minutes > 0)) {
  console.error(`--minutes must be a positive number, got ${values.minutes}`);
  process.exit(2);
}
const env = { ...process.env, TRUTH_MINUTES: String(minutes), TRUTH_SIM_RATE: values['sim-rate'], ...(values.only === 'both' ? {} : { TRUTH_ONLY: values.only }) };
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
if (!values['no-build']) {
  const b = spawnSync(npx, ['vite', 'build', '--config', 'src-renderer/vite.config.ts', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (b.status !== 0) process.exit(b.status ?? 1);
}
for (const name of ['default', 'high']) rmSync(path.join(root, 'e2e', 'artifacts', `truth-${name}.json`), { force: true });
const r = spawnSync(npx, ['playwright', 'test', '--config', 'e2e/playwright.config.ts', 'e2e/truth.spec.ts', '--reporter=line'], { cwd: root, stdio: 'inherit', env });
for (const name of ['default', 'high']) {
  const file = path.join(root, 'e2e', 'artifacts', `truth-${name}.json`);
  if (!existsSync(file)) continue;
  const rep = JSON.parse(readFileSync(file, 'utf8'));
  console.log(`\n${name} rate (${rep.simRate ?? 'default'} commands/s), ${rep.minutes} min, ${rep.samples} samples`);
  if (rep.settled) console.log(`held through a settlement: ${rep.settled} (its Positions row and today's P&L judged after it settled)`);
  console.log('panel       samples  values  in flight  wrong  longest wrong');
  for (const [panel, p] of Object.entries(rep.panels)) {
    console.log(`${panel.padEnd(11)} ${String(p.samples).padStart(7)} ${String(p.values).padStart(7)} ${String(p.transient).padStart(10)} ${String(p.wrong).padStart(6)}  ${p.wrong ? `${Math.round(p.longestWrongMs)} ms` : '-'}`);
  }
}
process.exit(r.status ?? 1);
