// @vitest-environment jsdom
// README "How to add a panel", followed once with a dummy panel: the keymap edits of step 2 are
// applied to a copy of lib/keymap.ts, the command palette is rendered from that copy and lists
// the dummy's focus action with its key; taking the edits back restores the file byte for byte
// and the palette no longer lists it. The recipe must name every file that keys a record by
// PanelId (the compiler makes each one list every panel), so a new one fails here until the
// README says so.
// this test reads the repository's own files (README, keymap.ts); it runs in vitest, never in the page
// eslint-disable-next-line local/floors
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
// eslint-disable-next-line local/floors
import { join, relative } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { stubLayout } from '../test/fake-terminal';

// (vitest runs from the repository root; import.meta.url is not a file URL under jsdom)
const ROOT = process.cwd();
const KEYMAP = join(ROOT, 'src-renderer/lib/keymap.ts');
const DUMMY = { id: 'dummypanel', title: 'Dummy panel', key: 'alt+shift+j' };

/** The README's recipe section. */
function recipe(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('## How to add a panel');
  expect(start, 'README has a "How to add a panel" section').toBeGreaterThanOrEqual(0);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

/** Step 2 of the recipe on keymap.ts's text: the id, its title, its key. */
function addDummy(text: string): string {
  const edits: [RegExp, string][] = [
    [/(export const PANEL_IDS = \[\n)/, `$1  '${DUMMY.id}',\n`],
    [/(export const PANEL_TITLES: Record<PanelId, string> = \{\n)/, `$1  ${DUMMY.id}: '${DUMMY.title}',\n`],
    [/(const PANEL_KEYS: Record<PanelId, string> = \{\n)/, `$1  ${DUMMY.id}: '${DUMMY.key}',\n`],
  ];
  let out = text;
  for (const [anchor, replacement] of edits) {
    expect(anchor.test(out), `keymap.ts still has the place the recipe edits: ${anchor.source}`).toBe(true);
    out = out.replace(anchor, replacement);
  }
  return out;
}
function removeDummy(text: string): string {
  return text.replace(`  '${DUMMY.id}',\n`, '').replace(`  ${DUMMY.id}: '${DUMMY.title}',\n`, '').replace(`  ${DUMMY.id}: '${DUMMY.key}',\n`, '');
}

function* sources(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* sources(p);
    else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) yield p;
  }
}

let dir: string;
beforeAll(() => {
  stubLayout();
  // inside the repository (git-ignored test-results/) so the test's module loader serves the copies
  mkdirSync(join(ROOT, 'test-results'), { recursive: true });
  dir = mkdtempSync(join(ROOT, 'test-results', 'panel-recipe-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  cleanup();
  vi.doUnmock('../lib/keymap');
  vi.resetModules();
});

/** The palette, open, rendered with the keymap module at `path`. */
async function paletteWith(path: string): Promise<void> {
  vi.resetModules();
  vi.doMock('../lib/keymap', () => import(/* @vite-ignore */ path));
  const { CommandPalette } = await import('../features/keyboard/CommandPalette');
  const { useOverlay } = await import('../stores/ui');
  render(<CommandPalette />);
  act(() => useOverlay.getState().show('palette'));
  await screen.findByRole('dialog', { name: 'Command palette' }, { timeout: 5000 }).catch(() => screen.findByText('Focus Markets', undefined, { timeout: 5000 }));
}

describe('README: how to add a panel', () => {
  it('names files that exist, and every file that keys a record by PanelId', () => {
    const text = recipe();
    const named = new Set([...text.matchAll(/`(src-renderer\/[^`<>]+\.tsx?)`/g)].map((m) => m[1]!));
    expect(named.size).toBeGreaterThanOrEqual(4);
    for (const f of named) expect(() => readFileSync(join(ROOT, f)), `${f} exists`).not.toThrow();
    const keyed = [...sources(join(ROOT, 'src-renderer'))].filter((f) => /Record<PanelId\b/.test(readFileSync(f, 'utf8'))).map((f) => relative(ROOT, f).split('\\').join('/'));
    expect(keyed.length).toBeGreaterThanOrEqual(2);
    for (const f of keyed) expect(named, `the recipe names ${f} (it keys a record by PanelId)`).toContain(f);
  });

  it('a dummy panel added by the recipe gets a focus action with its key in the palette, and is gone when removed', async () => {
    const original = readFileSync(KEYMAP, 'utf8');
    expect(original).not.toContain(DUMMY.id);
    const added = addDummy(original);
    const withDummy = join(dir, 'keymap-with-dummy.ts');
    writeFileSync(withDummy, added);

    const km = (await import(/* @vite-ignore */ withDummy)) as typeof import('../lib/keymap');
    expect(km.PANEL_IDS).toContain(DUMMY.id);
    const action = km.ACTIONS.find((a) => a.id === `panel.${DUMMY.id}`);
    expect(action).toMatchObject({ label: `Focus ${DUMMY.title}`, group: 'Panels', defaultKeys: DUMMY.key, global: true });
    // its key is its own
    expect(km.ACTIONS.filter((a) => a.defaultKeys === DUMMY.key).map((a) => a.id)).toEqual([`panel.${DUMMY.id}`]);

    await paletteWith(withDummy);
    expect(screen.getByText(`Focus ${DUMMY.title}`)).toBeTruthy();
    expect(screen.getByText('Focus Markets')).toBeTruthy();
    cleanup();

    // taken back: the file as it was, and the palette without it
    const removed = removeDummy(added);
    expect(removed).toBe(original);
    const without = join(dir, 'keymap-without-dummy.ts');
    writeFileSync(without, removed);
    await paletteWith(without);
    expect(screen.getByText('Focus Markets')).toBeTruthy();
    expect(screen.queryByText(`Focus ${DUMMY.title}`)).toBeNull();
  });
});
