// README "How to add an IPC method", followed once with a dummy method: steps 1-3 (names.ts,
// contract.ts, services.ts) are applied to copies under the git-ignored test-results/ folder; the
// compiler refuses the name alone, accepts it with its schema and result, and refuses services.ts
// until its table has the method; a copy of the door
// built on the copied contract accepts the dummy, hands the service only what its schema parsed and
// refuses bad arguments, while the real door refuses it as unknown. Taking the edits back restores
// both files byte for byte and the door refuses the dummy again. The recipe must name every
// non-test file that mentions the worked example (getReplay), so a new place fails here.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDoor } from './door';
import { CopyTree, applyEdits } from '../../test-support/recipe-copies';
import type { ServiceMethods } from '../../src-shared/ipc/contract';

const ROOT = process.cwd();
const DUMMY = 'dummyRecipePing';

function recipe(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('## How to add an IPC method');
  expect(start, 'README has a "How to add an IPC method" section').toBeGreaterThanOrEqual(0);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

const NAMES_EDIT: [RegExp, string] = [/(export const METHOD_NAMES = \[\n)/, `$1  '${DUMMY}',\n`];
const CONTRACT_EDITS: [RegExp, string][] = [
  [/(export const methodArgs = \{\n)/, `$1  ${DUMMY}: z.tuple([z.string().trim().min(1).max(20)]),\n`],
  [/(export interface MethodResults \{\n)/, `$1  ${DUMMY}: { echoed: string };\n`],
];
function apply(text: string, edits: [RegExp, string][], file: string): string {
  let out = text;
  for (const [anchor, replacement] of edits) {
    expect(anchor.test(out), `${file} still has the place the recipe edits: ${anchor.source}`).toBe(true);
    out = out.replace(anchor, replacement);
  }
  return out;
}
function removeDummy(text: string): string {
  return text
    .replace(`  '${DUMMY}',\n`, '')
    .replace(`  ${DUMMY}: z.tuple([z.string().trim().min(1).max(20)]),\n`, '')
    .replace(`  ${DUMMY}: { echoed: string };\n`, '');
}

function* sources(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* sources(p);
    else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) yield p;
  }
}

/** Compiler errors of the copied contract (strict, as tsconfig.json). */
function typeErrors(contract: string): string[] {
  const program = ts.createProgram([contract], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

/** A copy of the door whose contract is the copied one (its other imports stay the real modules). */
function doorOver(copyRoot: string, tag: string): string {
  const door = readFileSync(join(ROOT, 'src-main/ipc/door.ts'), 'utf8');
  const realMain = join(ROOT, 'src-main').split('\\').join('/');
  const out = door
    .replace(/from '\.\.\/\.\.\/src-shared\//g, `from '${join(copyRoot, 'src-shared').split('\\').join('/')}/`)
    .replace(/from '\.\.\/(?!\.\.)/g, `from '${realMain}/`);
  expect(out).not.toContain("from '../");
  const path = join(copyRoot, `door-${tag}.ts`);
  writeFileSync(path, out);
  return path;
}

let dir: string;
beforeAll(() => {
  mkdirSync(join(ROOT, 'test-results'), { recursive: true });
  dir = mkdtempSync(join(ROOT, 'test-results', 'ipc-recipe-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('README: how to add an IPC method', () => {
  it('names files that exist, and every non-test file the worked example (getReplay) lives in', () => {
    const text = recipe();
    const named = new Set([...text.matchAll(/`(src-[a-z]+\/[^`<>]+\.tsx?)`/g)].map((m) => m[1]!));
    expect(named.size).toBeGreaterThanOrEqual(5);
    for (const f of named) expect(() => readFileSync(join(ROOT, f)), `${f} exists`).not.toThrow();
    const places = ['src-shared', 'src-main', 'src-renderer', 'src-exchange']
      .flatMap((d) => [...sources(join(ROOT, d))])
      .filter((f) => /\bgetReplay\b/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(ROOT, f).split('\\').join('/'));
    expect(places.length).toBeGreaterThanOrEqual(4);
    for (const f of places) expect(named, `the recipe names ${f} (it mentions getReplay)`).toContain(f);
  });

  it('a dummy method added by the recipe type-checks only with its schema and result, passes the door, and is refused when removed', { timeout: 600_000 }, async () => {
    const copy = join(dir, 'tree');
    cpSync(join(ROOT, 'src-shared'), join(copy, 'src-shared'), { recursive: true, filter: (s) => !/\.test\.tsx?$/.test(s) });
    const namesPath = join(copy, 'src-shared/ipc/names.ts');
    const contractPath = join(copy, 'src-shared/ipc/contract.ts');
    const names = readFileSync(namesPath, 'utf8');
    const contract = readFileSync(contractPath, 'utf8');
    expect(names + contract).not.toContain(DUMMY);

    // step 1 alone: the compiler asks for step 2 (no argument schema, no result type)
    const namesAdded = apply(names, [NAMES_EDIT], 'names.ts');
    writeFileSync(namesPath, namesAdded);
    const half = typeErrors(contractPath);
    expect(half.join('\n')).toContain(DUMMY);

    // step 2: compiles clean
    const contractAdded = apply(contract, CONTRACT_EDITS, 'contract.ts');
    writeFileSync(contractPath, contractAdded);
    expect(typeErrors(contractPath)).toEqual([]);

    // step 3: services.ts's table (typed ServiceMethods) does not compile until it has the method
    const SERVICES = 'src-main/app/services.ts';
    const svc = new CopyTree(join(dir, 'services'), ['src-shared', SERVICES]);
    svc.write('src-shared/ipc/names.ts', namesAdded);
    svc.write('src-shared/ipc/contract.ts', contractAdded);
    const noHome = svc.typeErrors(SERVICES);
    expect(noHome.some((e) => e.startsWith(SERVICES) && e.includes(DUMMY)), noHome.join('\n')).toBe(true);
    const servicesOriginal = readFileSync(join(ROOT, SERVICES), 'utf8');
    const MAP_LINE = `      ${DUMMY}: (a) => Promise.resolve({ echoed: a }),\n`;
    const servicesAdded = applyEdits(servicesOriginal, [[/( {4}this\.methods = \{\n)/, `$1${MAP_LINE}`]], SERVICES);
    svc.write(SERVICES, servicesAdded);
    expect(svc.typeErrors(SERVICES)).toEqual([]);
    expect(servicesAdded.replace(MAP_LINE, '')).toBe(servicesOriginal);

    // the door over the edited contract: dispatches the dummy with its parsed argument
    const calls: unknown[][] = [];
    const target = { [DUMMY]: async (s: string) => { calls.push([s]); return { echoed: s }; } } as unknown as ServiceMethods;
    const { createDoor: doorWith } = (await import(/* @vite-ignore */ doorOver(copy, 'with'))) as typeof import('./door');
    const door = doorWith(target);
    expect(await door(DUMMY, ['  hello  '])).toEqual({ ok: true, value: { echoed: 'hello' } });
    expect(calls).toEqual([['hello']]);
    const bad = await door(DUMMY, [{ not: 'a string' }]);
    expect(bad).toMatchObject({ ok: false, error: { kind: 'validation' } });
    expect(calls).toHaveLength(1);
    // the real door has never heard of it
    expect(await createDoor(target)(DUMMY, ['hello'])).toMatchObject({ ok: false, error: { kind: 'validation', message: expect.stringContaining('unknown method') } });

    // taken back: both files as they were, compiling, and the door refuses the dummy
    const namesBack = removeDummy(namesAdded);
    const contractBack = removeDummy(contractAdded);
    expect(namesBack).toBe(names);
    expect(contractBack).toBe(contract);
    // (a fresh copy: the module loader keeps the edited contract under the first copy's path)
    const back = join(dir, 'tree-back');
    cpSync(join(copy, 'src-shared'), join(back, 'src-shared'), { recursive: true });
    writeFileSync(join(back, 'src-shared/ipc/names.ts'), namesBack);
    writeFileSync(join(back, 'src-shared/ipc/contract.ts'), contractBack);
    expect(typeErrors(join(back, 'src-shared/ipc/contract.ts'))).toEqual([]);
    const { createDoor: doorWithout } = (await import(/* @vite-ignore */ doorOver(back, 'without'))) as typeof import('./door');
    expect(await doorWithout(target)(DUMMY, ['hello'])).toMatchObject({ ok: false, error: { kind: 'validation', message: expect.stringContaining('unknown method') } });
    expect(calls).toHaveLength(1);
  });
});
