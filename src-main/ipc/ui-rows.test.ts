// The passthrough's write rows are exactly the ones the renderer's panels send: a write row the
// renderer starts using must be added on purpose, and one it stops using is closed again.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { endpointList, type EndpointId } from '../../src-shared/endpoints';
import { TYPED_INSTEAD, UI_WRITE_ROWS } from '../../src-shared/ipc/ui-rows';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function sources(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) sources(p, out);
    else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)) out.push(p);
  }
  return out;
}

describe('the request passthrough for writes', () => {
  const renderer = sources(path.join(root, 'src-renderer'))
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n')
    .split('\n')
    .filter((l) => !l.trim().startsWith('//'))
    .join('\n');
  const writes = endpointList.filter((r) => r.renderer !== undefined && r.renderer !== 'read');

  it('opens exactly the write rows the renderer sends', () => {
    const used = writes.filter((r) => renderer.includes(`'${r.id}'`)).map((r) => r.id).sort();
    expect([...UI_WRITE_ROWS].sort()).toEqual(used);
  });

  it('names the typed method for every write row it keeps closed', () => {
    for (const r of writes.filter((x) => !UI_WRITE_ROWS.has(x.id as EndpointId))) expect(TYPED_INSTEAD[r.id as EndpointId], r.id).toBeTruthy();
  });
});
