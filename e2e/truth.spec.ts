// Display truth: every value the panels show is the exchange's, within two frames of the
// exchange's value settling, while a trader orders, amends, fills, cancels, engages the kill
// switch, scrolls and re-centres; on the default simulation and at a high simulation rate.
// `npm run truth -- --minutes N` runs the same harness longer (TRUTH_MINUTES, TRUTH_SIM_RATE).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { artifacts, expect, pageTest as test, startTerminal } from './fixtures';
import { realProblems, shot } from './helpers';
import { missing, runTruth } from './truth/run';

const minutes = Number(process.env.TRUTH_MINUTES ?? '0.5');
const highRate = Number(process.env.TRUTH_SIM_RATE ?? '1500');
const only = process.env.TRUTH_ONLY; // 'default' | 'high'
// past the time asked for, the run goes on until every panel was judged and the script went round
// once (a slow machine gets there later): at most this long
const graceMs = Number(process.env.TRUTH_GRACE_MS ?? '600000');
// a run of 5 minutes or more also holds a position through a settlement: the exchange's markets
// the simulation adds then close 2 minutes after they open and settle 20 s later
const settle = minutes >= 5;

const runs: { name: string; simRate?: number }[] = [
  { name: 'default', simRate: undefined },
  { name: 'high', simRate: highRate },
].filter((r) => !only || r.name === only);

for (const run of runs) {
  test(`display truth at the ${run.name} simulation rate${run.simRate ? ` (${run.simRate} commands/s)` : ''}`, async ({ page, problems }) => {
    // the run, its grace, and a start on a busy machine (the web host alone took 80 s at load 30)
    const timeout = minutes * 60_000 + graceMs + 420_000;
    test.setTimeout(timeout);
    // sampling stops in time for the report and the teardown, however long the start took
    const stopBy = Date.now() + timeout - 120_000;
    const t = await startTerminal({ sim: true, ...(run.simRate ? { simRate: run.simRate } : {}), ...(settle ? { simMarketMinutes: 2 } : {}) });
    try {
      const { judge, steps, samples, leg, health } = await runTruth(page, t.terminal, { ms: minutes * 60_000, graceMs, stopBy, settle, log: (l) => console.log(`[truth ${run.name}] ${l}`) });
      await shot(page, 'truth', `${run.name}-end`);
      const table = judge.table();
      console.log(`[truth ${run.name}] ${samples} samples over ${minutes} min at ${run.simRate ?? 'the default'} commands/s\n${table}\nsteps: ${steps.length}, failed: ${steps.filter((s) => s.includes('(failed')).join('; ') || 'none'}`);
      writeFileSync(path.join(artifacts, `truth-${run.name}.json`), JSON.stringify({ minutes, simRate: run.simRate ?? null, samples, settled: leg?.settledAt ? leg.ticker : null, panels: Object.fromEntries(judge.report), steps }, null, 2));
      // every panel was seen and judged, and the trader went through the whole script
      // a run that fell short says how it went (the page, the exchange, the step it was on)
      expect(missing(judge, steps, leg), `how the run went (newest last):\n${health.slice(-6).join('\n')}`).toEqual([]);
      expect(judge.totalWrong(), table).toBe(0);
      // the trader's every step went through (C after a scroll re-centres the ladder, among them)
      expect(steps.filter((s) => s.includes('(failed'))).toEqual([]);
      expect(realProblems(problems)).toEqual([]);
    } finally {
      await t.stop();
    }
  });
}
