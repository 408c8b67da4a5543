// The native dialog's answer confirms exactly the change it was asked for (issue 33): through
// main's services and door with the Electron shell's ConfirmInMain (here a dialog the test holds
// open and answers), a loosening allowed after the limits moved under the open dialog changes
// nothing, and a release allowed for one engagement of the kill switch does not release the next.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RISK_LIMITS, type RiskView } from '../../src-shared/ipc/risk';
import { TerminalServices } from './services';
import type { ConfirmInMain } from './profiles-service';
import { createDoor, toTerminalError } from '../ipc/door';
import { FileKeyBox } from '../vault/secret-box';
import { until } from '../../test-support/main/wait';

type Result = { ok: true; value: unknown } | { ok: false; error: { kind: string; code?: string; message: string } };
type Question = Parameters<ConfirmInMain>[0];

let services: TerminalServices;
let dataDir: string;
let door: ReturnType<typeof createDoor>;
/** the dialogs open now, in the order they were asked; the test answers them */
const open: { q: Question; answer: (allow: boolean) => void }[] = [];

const call = (method: string, ...args: unknown[]) => door(method, args) as Promise<Result>;
async function value<T>(method: string, ...args: unknown[]): Promise<T> {
  const r = await call(method, ...args);
  if (!r.ok) throw new Error(`${method}: ${r.error.kind} ${r.error.message}`);
  return r.value as T;
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'confirm-binding-'));
  services = new TerminalServices({
    dataDir,
    box: new FileKeyBox(dataDir),
    shell: 'electron',
    confirmInMain: (q) => new Promise<boolean>((answer) => open.push({ q, answer })),
    emit: () => undefined,
    describeError: toTerminalError,
  });
  await services.start();
  door = createDoor(services.methods);
  // limits and the kill switch are kept per profile: one profile, no key needed
  await value('saveProfile', { id: 'p1', name: 'p1', kind: 'custom', baseUrl: 'http://127.0.0.1:9/trade-api/v2', wsUrl: 'ws://127.0.0.1:9/trade-api/ws/v2', headerPrefix: 'SVC-' });
  await value('activateProfile', 'p1');
});

afterAll(async () => {
  await services?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("a native dialog's answer confirms exactly its change", () => {
  it('shows every value the loosening sets, and an answer given after the limits moved under it changes nothing', async () => {
    const before = (await value<RiskView>('getRisk')).limits;
    expect(before).toEqual(DEFAULT_RISK_LIMITS);
    const small = { ...before, maxOpenOrdersPerMarket: before.maxOpenOrdersPerMarket + 1 };
    const asked = call('saveRiskLimits', small);
    await until('the dialog is open', () => open.length === 1);
    const dialog = open.shift()!;
    expect(dialog.q.change).toContain(`maxOpenOrdersPerMarket ${before.maxOpenOrdersPerMarket} -> ${small.maxOpenOrdersPerMarket}`);
    expect(dialog.q.change).toContain('profile p1');

    // while the dialog is open, the trader tightens another limit (a tightening asks nothing)
    const tighter = { ...before, maxOrderContracts: '10' };
    expect((await value<RiskView>('saveRiskLimits', tighter)).limits).toEqual(tighter);
    // "Loosen" on the old dialog: it was for the limits as they were, so nothing changes
    dialog.answer(true);
    const r = await asked;
    expect(r).toMatchObject({ ok: false, error: { kind: 'state' } });
    expect(r.ok ? '' : r.error.message).toMatch(/changed while the loosening was being confirmed/);
    expect((await value<RiskView>('getRisk')).limits).toEqual(tighter);

    // asked again from there, the dialog shows that change, and its answer applies it
    const again = call('saveRiskLimits', small);
    await until('the dialog is open', () => open.length === 1);
    const d2 = open.shift()!;
    expect(d2.q.change).toContain('maxOrderContracts 10 -> 1000');
    d2.answer(true);
    expect((await again).ok).toBe(true);
    expect((await value<RiskView>('getRisk')).limits).toEqual(small);
    await value('saveRiskLimits', before);
  });

  it('a release allowed for one engagement of the kill switch does not release the next one', async () => {
    await value('engageKillSwitch');
    const first = call('releaseKillSwitch', { confirm: true });
    await until('the dialog is open', () => open.length === 1);
    const stale = open.shift()!;
    expect(stale.q.change).toMatch(/kill switch of profile p1 \(engaged since /);
    // meanwhile: released through a second dialog, and engaged again
    const second = call('releaseKillSwitch', { confirm: true });
    await until('the second dialog is open', () => open.length === 1);
    open.shift()!.answer(true);
    expect((await second).ok).toBe(true);
    const engaged = await value<RiskView>('engageKillSwitch');
    expect(engaged.killSwitch.engaged).toBe(true);
    // the first dialog's "Release" was for the engagement before: this one stays engaged
    stale.answer(true);
    const r = await first;
    expect(r).toMatchObject({ ok: false, error: { kind: 'state' } });
    expect((await value<RiskView>('getRisk')).killSwitch).toMatchObject({ engaged: true, since: engaged.killSwitch.since });
    // its own dialog releases it
    const own = call('releaseKillSwitch', { confirm: true });
    await until('the dialog is open', () => open.length === 1);
    open.shift()!.answer(true);
    expect(((await own) as { ok: true; value: RiskView }).value.killSwitch.engaged).toBe(false);
  });
});
