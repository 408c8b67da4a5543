// The cycle rule counts type imports: a circle closed only by `import type` is found, a chain
// without a circle is not, and the project itself has none.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs module (eslint loads it untyped)
import { buildGraph, cyclicComponents } from './no-cycle-with-types.mjs';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function project(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'cycle-rule-'));
  dirs.push(root);
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(root, 'src-shared', name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  return root;
}

function cycles(root: string): string[][] {
  const comp = cyclicComponents(buildGraph(root)) as Map<string, number>;
  const groups = new Map<number, string[]>();
  for (const [f, id] of comp) groups.set(id, [...(groups.get(id) ?? []), path.relative(path.join(root, 'src-shared'), f)]);
  return [...groups.values()].map((g) => g.sort());
}

describe('no-cycle-with-types', () => {
  it('finds a circle closed only by a type import', () => {
    const root = project({
      'state.ts': "import { Index } from './index-of';\nexport interface Order { id: string }\nexport const s = new Index();\n",
      'index-of.ts': "import type { Order } from './state';\nexport class Index { o: Order[] = []; }\n",
    });
    expect(cycles(root)).toEqual([['index-of.ts', 'state.ts']]);
  });

  it('finds a longer circle through a type re-export and a folder index', () => {
    const root = project({
      'a.ts': "import { b } from './b';\nexport const a = b;\n",
      'b.ts': "import { c } from './c';\nexport const b = c;\n",
      'c/index.ts': "export type { A } from '../d';\nexport const c = 1;\n",
      'd.ts': "import type { a } from './a';\nexport type A = typeof a;\n",
    });
    expect(cycles(root)).toEqual([['a.ts', 'b.ts', 'c/index.ts', 'd.ts']]);
  });

  it('finds none once the shared type moves down a floor', () => {
    const root = project({
      'order.ts': 'export interface Order { id: string }\n',
      'state.ts': "import { Index } from './index-of';\nimport type { Order } from './order';\nexport const s: Order[] = [];\nexport const i = new Index();\n",
      'index-of.ts': "import type { Order } from './order';\nexport class Index { o: Order[] = []; }\n",
    });
    expect(cycles(root)).toEqual([]);
  });

  it('the project has no circle, type imports included', () => {
    const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
    expect(cycles(root)).toEqual([]);
  });
});
