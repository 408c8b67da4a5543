// Named layouts ("Save layout as…", issue 34 item 8) through the real door of a real terminal:
// every argument is parsed there, a bad name (empty, over 64 characters, a control character) or
// a missing profile is refused with a clear error and changes nothing on disk, and what was saved
// is there again after the terminal stops and starts on the same data dir.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTerminal, type RunningTerminal } from './terminal';
import { FileKeyBox } from '../vault/secret-box';
import { MAX_NAMED_LAYOUTS } from './preferences-service';

let dataDir: string;
let terminal: RunningTerminal | null = null;
const start = async () => {
  terminal = await startTerminal({ dataDir, box: new FileKeyBox(dataDir), shell: 'web', emit: () => {} });
};
const door = (method: string, ...args: unknown[]) => terminal!.door(method, args);
async function call(method: string, ...args: unknown[]): Promise<unknown> {
  const r = await door(method, ...args);
  if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
  return r.value;
}
/** every file under layouts/ with its bytes: "changes nothing" is checked against this */
function disk(): Record<string, string> {
  const dir = path.join(dataDir, 'layouts');
  if (!existsSync(dir)) return {};
  return Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(path.join(dir, f), 'utf8')]));
}
const names = (v: unknown) => (v as { layouts: { name: string }[] }).layouts.map((l) => l.name);
const scalp = { version: 1, dock: { grid: { root: 'scalp' }, panels: { ladder: {} } } };

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'named-layouts-'));
  await start();
  await call('saveProfile', { id: 'p1', name: 'Named', kind: 'demo' });
});
afterAll(async () => {
  await terminal?.stop();
});

describe('named layouts through the door', () => {
  it('starts with none, saves, lists, reads and deletes one', async () => {
    expect(names(await call('listNamedLayouts', 'p1'))).toEqual([]);
    expect(names(await call('saveNamedLayout', { profileId: 'p1', name: '  scalp ', layout: scalp }))).toEqual(['scalp']);
    expect(await call('getNamedLayout', { profileId: 'p1', name: 'scalp' })).toEqual(scalp);
    await call('saveNamedLayout', { profileId: 'p1', name: 'news', layout: { version: 1 } });
    expect(names(await call('listNamedLayouts', 'p1')).sort()).toEqual(['news', 'scalp']);
    expect(names(await call('deleteNamedLayout', { profileId: 'p1', name: 'news' }))).toEqual(['scalp']);
  });

  it.each([
    ['empty', '', /cannot be empty/],
    ['blank', '   ', /cannot be empty/],
    ['over 64 characters', 'x'.repeat(65), /at most 64 characters/],
    ['a new line', 'scalp\nfast', /control characters/],
    ['a tab at its end', 'scalp\t', /control characters/],
    ['a NUL', 'a\u0000b', /control characters/],
    ['not a string', 42, /name/],
  ])('refuses a name that is %s with a clear error and changes nothing', async (_what, name, why) => {
    const before = disk();
    for (const method of ['saveNamedLayout', 'getNamedLayout', 'deleteNamedLayout']) {
      const r = await door(method, { profileId: 'p1', name, ...(method === 'saveNamedLayout' ? { layout: { version: 1 } } : {}) });
      expect(r.ok, method).toBe(false);
      if (!r.ok) expect(r.error.message).toMatch(why);
    }
    expect(disk()).toEqual(before);
  });

  it('refuses a missing profile, an unknown name, an extra field and one over the bounds, and changes nothing', async () => {
    const before = disk();
    const refused = async (method: string, arg: unknown, why: RegExp) => {
      const r = await door(method, arg);
      expect(r.ok, method).toBe(false);
      if (!r.ok) expect(r.error.message).toMatch(why);
    };
    await refused('saveNamedLayout', { profileId: 'ghost', name: 'scalp', layout: {} }, /no profile ghost/);
    await refused('getNamedLayout', { profileId: 'p1', name: 'nope' }, /no layout named "nope"/);
    await refused('deleteNamedLayout', { profileId: 'p1', name: 'nope' }, /nothing deleted/);
    await refused('saveNamedLayout', { profileId: 'p1', name: 'scalp', layout: {}, extra: 1 }, /extra|unrecognized/i);
    await refused('saveNamedLayout', { profileId: 'p1', name: 'big', layout: { blob: 'x'.repeat(300_000) } }, /too large/);
    expect(disk()).toEqual(before);
    // the count bound: fill up to it, one more is refused and the list stays
    const have = names(await call('listNamedLayouts', 'p1')).length;
    for (let i = have; i < MAX_NAMED_LAYOUTS; i++) await call('saveNamedLayout', { profileId: 'p1', name: `fill ${i}`, layout: {} });
    const full = disk();
    await refused('saveNamedLayout', { profileId: 'p1', name: 'one too many', layout: {} }, new RegExp(`at most ${MAX_NAMED_LAYOUTS} named layouts`));
    expect(disk()).toEqual(full);
    // replacing one that exists is not one more
    await call('saveNamedLayout', { profileId: 'p1', name: 'fill 1', layout: { again: true } });
    for (let i = have; i < MAX_NAMED_LAYOUTS; i++) await call('deleteNamedLayout', { profileId: 'p1', name: `fill ${i}` });
  });

  it('keeps the saved layouts across a restart of the terminal on the same data dir', async () => {
    await call('saveNamedLayout', { profileId: 'p1', name: 'über spread ✓', layout: { version: 1, n: 2 } });
    await terminal!.stop();
    terminal = null;
    await start();
    expect(names(await call('listNamedLayouts', 'p1')).sort()).toEqual(['scalp', 'über spread ✓']);
    expect(await call('getNamedLayout', { profileId: 'p1', name: 'scalp' })).toEqual(scalp);
    expect(await call('getNamedLayout', { profileId: 'p1', name: 'über spread ✓' })).toEqual({ version: 1, n: 2 });
  });

  it('a deleted profile takes its named layouts with it', async () => {
    expect(Object.keys(disk())).toContain('p1.named.json');
    await call('deleteProfile', 'p1');
    expect(Object.keys(disk())).not.toContain('p1.named.json');
  });
});
