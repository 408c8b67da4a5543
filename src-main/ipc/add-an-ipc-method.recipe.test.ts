// README "How to add an IPC method", followed once with a dummy method on the worked example's
// channel (replay): step 1 (its line in contract.ts's channel record) and step 2 (the method in
// replay-service.ts) are applied to copies under the git-ignored test-results/ folder. The
// compiler refuses the declaration alone in the service (it no longer implements its channel) and
// accepts both, with services.ts, the door and the clients unedited; a copy of the door over the
// copied contract serves the dummy from a real (copied) ReplayService, hands it only what its
// schema parsed and refuses bad arguments without calling it, while the real door refuses it as
// unknown. Taking the edits back restores both files byte for byte, and the door over them
// refuses the dummy again. The recipe must name every non-test file that mentions the worked
// example (getReplay), so a new place fails here.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDoor, serveChannels } from './door';
import { CopyTree, ROOT, applyEdits, namedFiles, readmeSection, sourceFiles } from '../../test-support/recipe-copies';
import type { ChannelImpls } from '../../src-shared/ipc/contract';

const DUMMY = 'dummyRecipePing';
const CONTRACT = 'src-shared/ipc/contract.ts';
const SERVICE = 'src-main/replay/replay-service.ts';
const SERVICES = 'src-main/app/services.ts';
const DOOR = 'src-main/ipc/door.ts';

const DECLARATION = `    ${DUMMY}: method(z.string().trim().min(1).max(20)).returns<{ echoed: string }>(),\n`;
const CONTRACT_EDIT: [RegExp, string] = [/(\n {2}replay: \{\n)/, `$1${DECLARATION}`];
const IMPLEMENTATION = `  async ${DUMMY}(text: string): Promise<{ echoed: string }> {\n    return { echoed: text };\n  }\n\n`;
const SERVICE_EDIT: [RegExp, string] = [/(\n)( {2}getReplay\(\): Promise<ReplayView> \{\n)/, `$1${IMPLEMENTATION}$2`];

type DoorModule = typeof import('./door');
type ContractModule = typeof import('../../src-shared/ipc/contract');
type ServiceModule = typeof import('../replay/replay-service');

/** Every channel but replay answered by a stub; replay by the given service. */
function implsOver(channels: ContractModule['channels'], replay: object): ChannelImpls {
  const impls: Record<string, object> = {};
  for (const [channel, methods] of Object.entries(channels)) {
    impls[channel] = channel === 'replay' ? replay : Object.fromEntries(Object.keys(methods).map((m) => [m, () => Promise.reject(new Error(`${m}: not in this test`))]));
  }
  return impls as unknown as ChannelImpls;
}

let dir: string;
beforeAll(() => {
  mkdirSync(join(ROOT, 'test-results'), { recursive: true });
  dir = mkdtempSync(join(ROOT, 'test-results', 'ipc-recipe-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('README: how to add an IPC method', () => {
  it('names files that exist, and every non-test file the worked example (getReplay) lives in', () => {
    const named = namedFiles(readmeSection('## How to add an IPC method'));
    expect(named.size).toBeGreaterThanOrEqual(3);
    for (const f of named) expect(() => readFileSync(join(ROOT, f)), `${f} exists`).not.toThrow();
    const places = sourceFiles('src-shared', 'src-main', 'src-renderer', 'src-exchange').filter((f) => /\bgetReplay\b/.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(places).toEqual(expect.arrayContaining([CONTRACT, SERVICE]));
    for (const f of places) expect(named, `the recipe names ${f} (it mentions getReplay)`).toContain(f);
    // the choices it spells out hold for the worked example: its channel, where its result type
    // lives, and the test it names drives it
    const section = readmeSection('## How to add an IPC method');
    for (const choice of ['**The channel**', '**The argument schemas and the result type**', '**The test**']) expect(section).toContain(choice);
    expect(readFileSync(join(ROOT, CONTRACT), 'utf8')).toMatch(/\n {2}replay: \{\n {4}getReplay: method\(\)\.returns<ReplayView>\(\)/);
    expect(named).toContain('src-shared/ipc/replay.ts');
    expect(readFileSync(join(ROOT, 'src-shared/ipc/replay.ts'), 'utf8')).toMatch(/export (interface|type) ReplayView\b/);
    expect(named).toContain('src-main/replay/replay.int.test.ts');
    expect(readFileSync(join(ROOT, 'src-main/replay/replay.int.test.ts'), 'utf8')).toMatch(/\bgetReplay\b/);
  });

  it('a dummy method declared once and implemented once type-checks, passes the door, and is refused when removed', { timeout: 600_000 }, async () => {
    const tree = new CopyTree(join(dir, 'with'), ['src-shared', SERVICE, SERVICES, DOOR]);
    const contract = tree.read(CONTRACT);
    const service = tree.read(SERVICE);
    const services = tree.read(SERVICES);
    expect(contract + service + services).not.toContain(DUMMY);

    // step 1 alone: the contract compiles, its channel's service does not (it lacks the method)
    const contractAdded = applyEdits(contract, [CONTRACT_EDIT], CONTRACT);
    tree.write(CONTRACT, contractAdded);
    const half = tree.typeErrors(CONTRACT, SERVICE);
    expect(half.filter((e) => e.startsWith(CONTRACT)), half.join('\n')).toEqual([]);
    expect(half.some((e) => e.startsWith(SERVICE) && e.includes(DUMMY)), half.join('\n')).toBe(true);

    // step 2: the service implements it; everything compiles, services.ts and the door unedited
    const serviceAdded = applyEdits(service, [SERVICE_EDIT], SERVICE);
    tree.write(SERVICE, serviceAdded);
    expect(tree.typeErrors(CONTRACT, SERVICE, SERVICES, DOOR)).toEqual([]);
    expect(tree.read(SERVICES)).toBe(services);

    // the door over the edited contract serves the dummy from the (copied) service, parsed
    const { channels } = (await import(/* @vite-ignore */ tree.path(CONTRACT))) as ContractModule;
    const { ReplayService } = (await import(/* @vite-ignore */ tree.path(SERVICE))) as ServiceModule;
    const { createDoor: doorWith, serveChannels: serveWith } = (await import(/* @vite-ignore */ tree.path(DOOR))) as DoorModule;
    const replay = new ReplayService({ baseUrl: undefined, exchangeDataDir: dir, recorder: {} as never });
    const spy = vi.spyOn(replay as unknown as Record<string, (s: string) => Promise<unknown>>, DUMMY);
    const door = doorWith(serveWith(implsOver(channels, replay)));
    expect(await door(DUMMY, ['  hello  '])).toEqual({ ok: true, value: { echoed: 'hello' } });
    expect(spy.mock.calls).toEqual([['hello']]);
    expect(await door(DUMMY, [{ not: 'a string' }])).toMatchObject({ ok: false, error: { kind: 'validation' } });
    expect(await door(DUMMY, [])).toMatchObject({ ok: false, error: { kind: 'validation' } });
    expect(spy).toHaveBeenCalledTimes(1);
    expect(await door('getReplay', [])).toEqual({ ok: true, value: { active: false } });
    // the real door has never heard of it
    expect(await createDoor(serveChannels(implsOver(channels, replay)))(DUMMY, ['hello'])).toMatchObject({
      ok: false,
      error: { kind: 'validation', message: expect.stringContaining('unknown method') },
    });

    // taken back: both files as they were (byte for byte: the typecheck stage compiles them), and
    // the door over them refuses the dummy
    const contractBack = contractAdded.replace(DECLARATION, '');
    const serviceBack = serviceAdded.replace(IMPLEMENTATION, '');
    expect(contractBack).toBe(contract);
    expect(serviceBack).toBe(service);
    // (a fresh copy: the module loader keeps the edited modules under the first copy's paths)
    const back = new CopyTree(join(dir, 'back'), ['src-shared', SERVICE, DOOR]);
    back.write(CONTRACT, contractBack);
    back.write(SERVICE, serviceBack);
    const { channels: channelsBack } = (await import(/* @vite-ignore */ back.path(CONTRACT))) as ContractModule;
    const { createDoor: doorWithout, serveChannels: serveWithout } = (await import(/* @vite-ignore */ back.path(DOOR))) as DoorModule;
    expect(await doorWithout(serveWithout(implsOver(channelsBack, replay)))(DUMMY, ['hello'])).toMatchObject({
      ok: false,
      error: { kind: 'validation', message: expect.stringContaining('unknown method') },
    });
    expect(spy).toHaveBeenCalledTimes(1);
  });
});
