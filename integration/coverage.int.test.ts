// Every row of the endpoint table must have a handler in the exchange and an integration test
// that calls it through the client. Test files declare what they cover with `covers([...ids])`.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { endpointList } from '../src-shared/endpoints';
import { buildHandlers } from '../src-exchange/handlers/index';
import type { Services } from '../src-exchange/core/services';

const here = path.dirname(fileURLToPath(import.meta.url));

describe('exchange coverage of the endpoint table', () => {
  it('has a handler for every row', () => {
    const handlers = buildHandlers({ node: null as never, seed: 1 } satisfies Services);
    const missing = endpointList.filter((r) => !handlers[r.id]).map((r) => `${r.method} ${r.path} (${r.id})`);
    expect(missing, `rows without a handler:\n${missing.join('\n')}`).toEqual([]);
  });

  it('has an integration test calling every row', () => {
    const called = new Set<string>();
    for (const f of readdirSync(here).filter((f) => f.endsWith('.int.test.ts'))) {
      const text = readFileSync(path.join(here, f), 'utf8');
      for (const m of text.matchAll(/\.(?:call\(\s*'|)([a-z][A-Za-z]+)(?:'|\()/g)) called.add(m[1]!);
    }
    const missing = endpointList.filter((r) => !called.has(r.id)).map((r) => `${r.method} ${r.path} (${r.id})`);
    expect(missing, `rows no integration test calls:\n${missing.join('\n')}`).toEqual([]);
  });
});
