// README "How to add an endpoint", followed once with a dummy row on copies (under the
// git-ignored test-results/) of src-shared and the REST client: the row alone does not compile
// (samples.ts wants its answer), row + schema + sample do; the copied client has a method for it
// that reads the SDK's spelling from a real server on 127.0.0.1 into the one shape, while the real
// client has none; the copied exchange's handler map misses the row until its family answers it. Taking the edits back restores each file byte for byte. The recipe must name
// every non-test file that mentions the worked example (getUserDataTimestamp).
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CopyTree, ROOT, applyEdits, namedFiles, readmeSection, sourceFiles } from '../../test-support/recipe-copies';
import { createApiClient } from './client';

const ID = 'dummyRecipeEcho';
const ROWS = 'src-shared/endpoints/exchange.ts';
const WIRE = 'src-shared/wire/exchange.ts';
const SAMPLES = 'src-shared/wire/samples.ts';
const CLIENT = 'src-main/api/client.ts';
const ROW = `  ${ID}: endpoint({
    id: '${ID}',
    method: 'GET',
    path: '/exchange/dummy_recipe_echo',
    auth: 'public',
    bucket: 'read',
    renderer: 'read',
    params: noParams,
    query: noQuery,
    body: null,
    response: DummyRecipeEcho,
    status: 200,
    summary: 'recipe test',
  }),
`;
const SCHEMA = `export const DummyRecipeEcho = z
  .object({ echo_text: z.string().optional(), echoText: z.string().optional() })
  .transform((r) => ({ echo_text: r.echo_text ?? r.echoText ?? '' }));
`;
const SAMPLE = `  ${ID}: { echo_text: 'spec' },\n`;
const HANDLERS = 'src-exchange/handlers/exchange.ts';
const HANDLER = `  ${ID}: () => ({ echo_text: 'embedded' }),\n`;
const EDITS: Record<string, [RegExp, string][]> = {
  [ROWS]: [
    [/(import \{ )(AnnouncementsResponse)/, '$1DummyRecipeEcho, $2'],
    [/(export const exchangeEndpoints = \{\n)/, `$1${ROW}`],
  ],
  [WIRE]: [[/(import \{ UnixSeconds \} from '\.\/common';\n)/, `$1${SCHEMA}`]],
  [HANDLERS]: [[/(export const exchangeHandlers: HandlerFamily = \(svc\) => \(\{\n)/, `$1${HANDLER}`]],
  [SAMPLES]: [[/(export const responseSamples: \{ \[K in EndpointId\]: ResponseWire<Endpoints\[K\]> \} = \{\n)/, `$1${SAMPLE}`]],
};
const removeDummy = (t: string) => t.replace('DummyRecipeEcho, AnnouncementsResponse', 'AnnouncementsResponse').replace(ROW, '').replace(SCHEMA, '').replace(SAMPLE, '').replace(HANDLER, '');

let dir: string;
let server: Server;
let origin: string;
const seen: string[] = [];
beforeAll(async () => {
  mkdirSync(join(ROOT, 'test-results'), { recursive: true });
  dir = mkdtempSync(join(ROOT, 'test-results', 'endpoint-recipe-'));
  // answers in the SDK's spelling (echoText), which the row's schema must read
  server = createServer((req, res) => {
    seen.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ echoText: 'from the sdk' }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

describe('README: how to add an endpoint', () => {
  it('names files that exist, and every non-test file the worked example (getUserDataTimestamp) lives in', () => {
    const text = readmeSection('## How to add an endpoint');
    const named = namedFiles(text);
    for (const f of [ROWS, WIRE, SAMPLES, CLIENT, 'src-exchange/handlers/exchange.ts']) expect(named).toContain(f);
    for (const f of named) expect(() => readFileSync(join(ROOT, f)), `${f} exists`).not.toThrow();
    expect(text).toContain('`src-shared/endpoints/ids.txt`');
    expect(readFileSync(join(ROOT, 'src-shared/endpoints/ids.txt'), 'utf8')).toContain(' getUserDataTimestamp\n');
    const places = sourceFiles('src-shared', 'src-main', 'src-renderer', 'src-exchange').filter((f) => /\bgetUserDataTimestamp\b/.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(places.length).toBeGreaterThanOrEqual(3);
    for (const f of places) expect(named, `the recipe names ${f} (it mentions getUserDataTimestamp)`).toContain(f);
  });

  it('a dummy row added by the recipe compiles only with its sample, gets a client method reading the SDK spelling, and goes back byte for byte', { timeout: 600_000 }, async () => {
    const tree = new CopyTree(join(dir, 'with'), ['src-shared', CLIENT, 'src-exchange/handlers']);
    const original = Object.fromEntries([ROWS, WIRE, SAMPLES, HANDLERS].map((f) => [f, readFileSync(join(ROOT, f), 'utf8')]));
    for (const t of Object.values(original)) expect(t).not.toContain(ID);

    // steps 2-3 without 4: samples.ts does not compile
    const added: Record<string, string> = {};
    for (const f of [ROWS, WIRE]) {
      added[f] = applyEdits(original[f]!, EDITS[f]!, f);
      tree.write(f, added[f]);
    }
    const half = tree.typeErrors(SAMPLES, CLIENT);
    expect(half.some((e) => e.startsWith(SAMPLES) && e.includes(ID)), half.join('\n')).toBe(true);
    added[SAMPLES] = applyEdits(original[SAMPLES]!, EDITS[SAMPLES]!, SAMPLES);
    tree.write(SAMPLES, added[SAMPLES]);
    expect(tree.typeErrors(SAMPLES, CLIENT)).toEqual([]);

    // the copied client has the method; it reads the SDK's spelling into the one shape
    const copied = (await import(/* @vite-ignore */ tree.path(CLIENT))) as typeof import('./client');
    const client = copied.createApiClient({ profile: { kind: 'embedded', baseUrl: origin } }) as unknown as Record<string, () => Promise<unknown>>;
    expect(typeof client[ID]).toBe('function');
    expect(await client[ID]!()).toEqual({ echo_text: 'from the sdk' });
    expect(seen.at(-1)).toMatch(/\/exchange\/dummy_recipe_echo$/);
    // the real client has never heard of it
    expect((createApiClient({ profile: { kind: 'embedded', baseUrl: origin } }) as unknown as Record<string, unknown>)[ID]).toBeUndefined();

    // step 5: the exchange's handler map (as integration/coverage.int.test.ts checks it) misses the row
    // until the family answers it
    type Handlers = typeof import('../../src-exchange/handlers/index');
    type Table = typeof import('../../src-shared/endpoints');
    const missing = async (t: CopyTree) => {
      const { buildHandlers } = (await import(/* @vite-ignore */ t.path('src-exchange/handlers/index.ts'))) as Handlers;
      const { endpointList } = (await import(/* @vite-ignore */ t.path('src-shared/endpoints.ts'))) as Table;
      const handlers = buildHandlers({ node: null as never, seed: 1 });
      return endpointList.filter((r) => !handlers[r.id]).map((r) => r.id);
    };
    expect(await missing(tree)).toEqual([ID]);
    const answered = new CopyTree(join(dir, 'answered'), ['src-shared', 'src-exchange/handlers']);
    added[HANDLERS] = applyEdits(original[HANDLERS]!, EDITS[HANDLERS]!, HANDLERS);
    for (const f of [ROWS, WIRE, SAMPLES, HANDLERS]) answered.write(f, added[f]!);
    expect(await missing(answered)).toEqual([]);

    // taken back: byte for byte
    for (const f of [ROWS, WIRE, SAMPLES, HANDLERS]) expect(removeDummy(added[f]!)).toBe(original[f]);
  });
});
