// README "How to add a risk limit", followed once with a dummy limit on copies (under the
// git-ignored test-results/) of src-shared and the gate, store and Risk panel: step 1 alone does
// not compile in the gate and the panel, steps 1-3 do; the copied store loads a profile saved
// without the dummy (its limits and kill switch as stored, the dummy at its default); the copied
// gate counts raising it as loosening. Taking the edits back restores each file byte for byte. The
// recipe must name every file that keys a record by `keyof RiskLimits`.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CopyTree, ROOT, applyEdits, namedFiles, readmeSection, sourceFiles } from '../../test-support/recipe-copies';
import { DEFAULT_RISK_LIMITS } from '../../src-shared/ipc/risk';

const KEY = 'maxDummyRecipe';
const RISK = 'src-shared/ipc/risk.ts';
const GATE = 'src-main/risk/gate.ts';
const STORE = 'src-main/risk/store.ts';
const PANEL = 'src-renderer/features/risk/RiskPanel.tsx';
const STORE_TEST = 'src-main/risk/store.test.ts';
const GATE_TEST = 'src-main/risk/gate.test.ts';
const CODE = 'max_dummy_recipe';
const EDITS: Record<string, [RegExp, string][]> = {
  [RISK]: [
    [/(export const RiskLimits = z\n {2}\.object\(\{\n)/, `$1    ${KEY}: z.number().int().min(1).max(100),\n`],
    [/(export const DEFAULT_RISK_LIMITS: RiskLimits = \{\n)/, `$1  ${KEY}: 7,\n`],
  ],
  [GATE]: [
    [/(export type RiskCode =\n)/, `$1  | '${CODE}'\n`],
    [/(const LOOSER_WHEN_LARGER: Record<keyof RiskLimits, boolean> = \{\n)/, `$1  ${KEY}: true,\n`],
  ],
  [STORE_TEST]: [[/(const STORED: RiskLimits = \{\n)/, `$1  ${KEY}: 9,\n`]],
  [PANEL]: [[/(const LIMIT_FIELDS: Record<LimitKey, LimitField> = \{\n)/, `$1  ${KEY}: { label: 'Dummy limit', hint: 'recipe test', int: true },\n`]],
};
const removeDummy = (text: string) =>
  text
    .replace(`    ${KEY}: z.number().int().min(1).max(100),\n`, '')
    .replace(`  ${KEY}: 7,\n`, '')
    .replace(`  | '${CODE}'\n`, '')
    .replace(`  ${KEY}: true,\n`, '')
    .replace(`  ${KEY}: 9,\n`, '')
    .replace(`  ${KEY}: { label: 'Dummy limit', hint: 'recipe test', int: true },\n`, '');

let dir: string;
beforeAll(() => {
  mkdirSync(join(ROOT, 'test-results'), { recursive: true });
  dir = mkdtempSync(join(ROOT, 'test-results', 'risk-recipe-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('README: how to add a risk limit', () => {
  it('names files that exist, and every file that keys a record by keyof RiskLimits', () => {
    const named = namedFiles(readmeSection('## How to add a risk limit'));
    for (const f of [RISK, GATE, STORE, PANEL, STORE_TEST, GATE_TEST]) expect(named).toContain(f);
    const section = readmeSection('## How to add a risk limit');
    for (const step of ['`RiskCode` union', '`STORED` literal', 'table of limits and defaults']) expect(section).toContain(step);
    // the table step 6 adds a row to
    expect(readmeSection('## Risk limits, kill switch, audit journal')).toMatch(/\| limit \| default \|\n\|---\|---\|\n\| contracts per order \| 1,000 \|/);
    for (const f of named) expect(() => readFileSync(join(ROOT, f)), `${f} exists`).not.toThrow();
    const keyed = sourceFiles('src-shared', 'src-main', 'src-renderer', 'src-exchange').filter((f) =>
      /Record<keyof RiskLimits\b|type (\w+) = keyof RiskLimits;[\s\S]*Record<\1\b/.test(readFileSync(join(ROOT, f), 'utf8')),
    );
    expect(keyed.length).toBeGreaterThanOrEqual(2);
    for (const f of keyed) expect(named, `the recipe names ${f} (it keys a record by keyof RiskLimits)`).toContain(f);
  });

  it('a dummy limit added by the recipe compiles only when every place lists it, keeps saved profiles, and goes back byte for byte', { timeout: 600_000 }, async () => {
    const tree = new CopyTree(join(dir, 'with'), ['src-shared', 'src-renderer', GATE, STORE, STORE_TEST]);
    const original = Object.fromEntries([RISK, GATE, PANEL, STORE_TEST].map((f) => [f, readFileSync(join(ROOT, f), 'utf8')]));
    for (const text of Object.values(original)) expect(text).not.toContain(KEY);

    // step 1 alone: the gate's and the panel's records and the store test's literal are missing the key
    tree.write(RISK, applyEdits(original[RISK]!, EDITS[RISK]!, RISK));
    const half = tree.typeErrors(GATE, STORE, PANEL, STORE_TEST);
    expect(half.some((e) => e.startsWith(GATE) && e.includes(KEY)), half.join('\n')).toBe(true);
    expect(half.some((e) => e.startsWith(PANEL) && e.includes(KEY)), half.join('\n')).toBe(true);
    expect(half.some((e) => e.startsWith(STORE_TEST) && e.includes(KEY)), half.join('\n')).toBe(true);
    expect(half.some((e) => e.startsWith(STORE)), 'the store needs no edit').toBe(false);

    // steps 2-4 (the RiskCode member with them): clean
    const added: Record<string, string> = {};
    for (const f of [GATE, PANEL, STORE_TEST]) {
      added[f] = applyEdits(original[f]!, EDITS[f]!, f);
      tree.write(f, added[f]);
    }
    expect(added[GATE]).toContain(`| '${CODE}'`);
    expect(tree.typeErrors(GATE, STORE, PANEL, STORE_TEST)).toEqual([]);

    // a profile saved before the limit existed: its limits and kill switch kept, the dummy at its default
    const riskDir = join(dir, 'data-risk');
    mkdirSync(riskDir, { recursive: true });
    const saved = { ...DEFAULT_RISK_LIMITS, maxOrderContracts: '12' };
    writeFileSync(join(riskDir, 'p1.json'), JSON.stringify({ version: 2, limits: saved, killSwitch: { engaged: false, since: null, detail: '' } }));
    const { RiskStore } = (await import(/* @vite-ignore */ tree.path(STORE))) as typeof import('./store');
    const store = new RiskStore(riskDir);
    expect(store.limits('p1')).toEqual({ ...saved, [KEY]: 7 });
    expect(store.killSwitch('p1').engaged).toBe(false);
    expect(store.problems.join('\n')).toContain(KEY);

    // the gate: raising it loosens, lowering it does not
    // (the copy's RiskLimits has the dummy key; this file's types know the real one)
    const { loosenedLimits } = (await import(/* @vite-ignore */ tree.path(GATE))) as { loosenedLimits: (a: object, b: object) => string[] };
    const withDummy = { ...DEFAULT_RISK_LIMITS, [KEY]: 7 };
    expect(loosenedLimits(withDummy, { ...withDummy, [KEY]: 9 })).toEqual([`${KEY} 7 -> 9`]);
    expect(loosenedLimits(withDummy, { ...withDummy, [KEY]: 3 })).toEqual([]);

    // taken back: byte for byte (the files as they were, which the typecheck stage compiles; a
    // third program over a copy of them, checked here before, proved nothing more for 8-10 s of CPU)
    expect(removeDummy(applyEdits(original[RISK]!, EDITS[RISK]!, RISK))).toBe(original[RISK]);
    for (const f of [GATE, PANEL, STORE_TEST]) expect(removeDummy(added[f]!)).toBe(original[f]);
  });
});
