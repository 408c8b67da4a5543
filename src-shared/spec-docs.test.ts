// docs/spec is the project's copy of the team's shared spec: every file is there, and where the
// shared folder sits beside the checkout, the copy is identical to it.
/* eslint-disable local/floors -- tests read the spec files from disk */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
/* eslint-enable local/floors */
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const FILES = ['service-interface.md', 'protocol-notes.md', 'endpoints.txt'];
const shared = resolve(root, '../shared/spec');

describe('docs/spec', () => {
  it.each(FILES)('holds %s', (f) => {
    const text = readFileSync(resolve(root, 'docs/spec', f), 'utf8');
    expect(text.length).toBeGreaterThan(1000);
  });

  it.each(FILES)('%s is the same as the shared copy where one exists', (f) => {
    const mine = readFileSync(resolve(root, 'docs/spec', f), 'utf8');
    const theirs = existsSync(resolve(shared, f)) ? readFileSync(resolve(shared, f), 'utf8') : mine;
    expect(mine).toBe(theirs);
  });
});
