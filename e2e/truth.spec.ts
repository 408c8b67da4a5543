// Display truth: every value the panels show is the exchange's, within two frames of the
// exchange's value settling, while a trader orders, amends, fills, cancels, engages the kill
// switch, scrolls and re-centres; on the default simulation and at a high simulation rate.
// `npm run truth -- --minutes N` runs the same harness longer (TRUTH_MINUTES, TRUTH_SIM_RATE).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { artifacts, expect, startTerminal, test, watchConsole } from './fixtures';
import { realProblems, shot } from './helpers';
import { runTruth } from './truth/run';

const minutes = Number(process.env.TRUTH_MINUTES ?? '0.5');
const highRate = Number(process.env.TRUTH_SIM_RATE ?? '1500');
const only = process.env.TRUTH_ONLY; // 'default' | 'high'

const runs: { name: string; simRate?: number }[] = [
  { name: 'default', simRate: undefined },
  { name: 'high', simRate: highRate },
].filter((r) => !only || r.name === only);

for (const run of runs) {
  test(`display truth at the ${run.name} simulation rate${run.simRate ? ` (${run.simRate} commands/s)` : ''}`, async ({ page }) => {
    test.setTimeout(minutes * 60_000 + 180_000);
    const problems = watchConsole(page);
    const t = await startTerminal({ sim: true, ...(run.simRate ? { simRate: run.simRate } : {}) });
    try {
      const { judge, steps, samples } = await runTruth(page, t.terminal, { ms: minutes * 60_000, log: (l) => console.log(`[truth ${run.name}] ${l}`) });
      await shot(page, 'truth', `${run.name}-end`);
      const table = judge.table();
      console.log(`[truth ${run.name}] ${samples} samples over ${minutes} min at ${run.simRate ?? 'the default'} commands/s\n${table}\nsteps: ${steps.length}, failed: ${steps.filter((s) => s.includes('(failed')).join('; ') || 'none'}`);
      writeFileSync(path.join(artifacts, `truth-${run.name}.json`), JSON.stringify({ minutes, simRate: run.simRate ?? null, samples, panels: Object.fromEntries(judge.report), steps }, null, 2));
      // every panel was seen and judged
      for (const [panel, r] of judge.report) expect(r.values, `${panel} never judged`).toBeGreaterThan(0);
      expect(judge.totalWrong(), table).toBe(0);
      // the trader's every step went through (C after a scroll re-centres the ladder, among them)
      expect(steps.filter((s) => s.includes('(failed'))).toEqual([]);
      expect(realProblems(problems)).toEqual([]);
    } finally {
      await t.stop();
    }
  });
}
