// The web host asks out of band before a limit is loosened or the kill switch released: through
// the real entry point (`start:web`, the CLI under tsx), a page's socket alone is refused with
// `console_code_required` and changes nothing; the code the host printed on its console, sent
// back by the page, lets it through once; a wrong code or a reused one does not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectDoor, type DoorClient } from './door-client';
import { until } from '../../test-support/main/wait';
import { waitForOutput } from '../../test-support/child';
import { entryArgs } from '../../test-support/entry';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let child: ChildProcess;
let out = '';
let door: DoorClient;

beforeAll(async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'console-confirm-'));
  const staticDir = path.join(dataDir, 'static');
  mkdirSync(staticDir);
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
  child = spawn(process.execPath, [...entryArgs('host'), '--port', '0', '--no-sim', '--data-dir', path.join(dataDir, 'terminal'), '--static-dir', staticDir], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  // no start deadline (a busy machine starts it later); a host that exits fails here at once
  await waitForOutput(child, /terminal ready/, 'terminal ready');
  door = await connectDoor(/terminal at (\S+)/.exec(out)![1]!);
}, 300_000);
afterAll(async () => {
  door?.ws.close();
  if (child && child.exitCode === null) {
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    });
  }
});

/** the newest code the host printed on its console after `from` */
async function printedCode(from: number): Promise<string> {
  await until('a code on the console', () => /type this code in the page: (\d{6})/.test(out.slice(from)));
  const all = [...out.slice(from).matchAll(/type this code in the page: (\d{6})/g)];
  return all[all.length - 1]![1]!;
}

type Risk = { limits: Record<string, unknown> & { maxOrderContracts: string }; killSwitch: { engaged: boolean } };

describe('out-of-band confirmation on the web host', () => {
  it('a code confirms only the change it was printed for: another save is refused, and so is a second use', async () => {
    const before = await door.call<Risk>('getRisk');
    const small = { ...before.limits, maxOpenOrdersPerMarket: Number(before.limits.maxOpenOrdersPerMarket) + 1 };
    const widest = {
      ...before.limits,
      maxOrderContracts: '1000000',
      maxOrderCost: '100000000',
      priceCollar: '1',
      maxPositionContracts: '1000000',
      maxOpenOrders: 100_000,
      maxOpenOrdersPerMarket: 100_000,
      maxDailyLoss: '100000000',
    };
    let from = out.length;
    expect((await door.answer('saveRiskLimits', small)).error?.code).toBe('console_code_required');
    const code = await printedCode(from);
    // the console says what that code confirms
    expect(out.slice(from)).toContain(`maxOpenOrdersPerMarket ${String(before.limits.maxOpenOrdersPerMarket)} -> ${small.maxOpenOrdersPerMarket}`);

    // the code printed for "+1 open order per market" does not set every limit to its maximum
    from = out.length;
    const other = await door.answer('saveRiskLimits', widest, { consoleCode: code });
    expect(other.ok).toBe(false);
    expect(other.error?.code).toBe('console_code_required');
    expect((await door.call<Risk>('getRisk')).limits).toEqual(before.limits);
    await printedCode(from); // that refusal printed the widest save's own code, which is not used here

    // the small change asks again (its code was spent), and its own code goes through once
    from = out.length;
    expect((await door.answer('saveRiskLimits', small)).ok).toBe(false);
    const own = await printedCode(from);
    const saved = await door.call<Risk>('saveRiskLimits', small, { consoleCode: own });
    expect(saved.limits).toEqual(small);
    // back (tightening asks nothing), then the same change with the same code: refused, a second use
    expect((await door.call<Risk>('saveRiskLimits', before.limits)).limits).toEqual(before.limits);
    const again = await door.answer('saveRiskLimits', small, { consoleCode: own });
    expect(again.error?.code).toBe('console_code_required');
    expect((await door.call<Risk>('getRisk')).limits).toEqual(before.limits);
  }, 60_000);

  it('refuses to loosen a limit without the console code, changes nothing, and takes the printed code once', async () => {
    const before = await door.call<Risk>('getRisk');
    const looser = { ...before.limits, maxOrderContracts: '2000' };
    let from = out.length;
    const refused = await door.answer('saveRiskLimits', looser);
    expect(refused.ok).toBe(false);
    expect(refused.error?.code).toBe('console_code_required');
    expect(refused.error?.message).toMatch(/printed on the console/);
    expect((await door.call<Risk>('getRisk')).limits).toEqual(before.limits);
    const code = await printedCode(from);
    // the page never sees the code: it is on the console only
    expect(JSON.stringify(refused)).not.toContain(code);

    // a wrong code spends it and changes nothing
    const wrong = code === '000000' ? '000001' : '000000';
    expect((await door.answer('saveRiskLimits', looser, { consoleCode: wrong })).error?.code).toBe('console_code_required');
    expect((await door.call<Risk>('getRisk')).limits).toEqual(before.limits);
    // each refusal prints a new code: wait for the one printed after the last refusal (the console
    // reaches the test through a pipe, so an earlier refusal's line may be all there is for a moment)
    from = out.length;
    expect((await door.answer('saveRiskLimits', looser, { consoleCode: code })).ok).toBe(false);
    const fresh = await printedCode(from);

    const saved = await door.call<Risk>('saveRiskLimits', looser, { consoleCode: fresh });
    expect(saved.limits.maxOrderContracts).toBe('2000');
    // used once: the same code does not loosen again
    expect((await door.answer('saveRiskLimits', { ...looser, maxOrderContracts: '3000' }, { consoleCode: fresh })).ok).toBe(false);
    // tightening asks nothing
    expect((await door.call<Risk>('saveRiskLimits', before.limits)).limits).toEqual(before.limits);
  }, 60_000);

  it('one code, sent with the same save twice in one tick, and beside another save: exactly one change goes through', async () => {
    const before = await door.call<Risk>('getRisk');
    const looser = { ...before.limits, maxOrderContracts: String(Number(before.limits.maxOrderContracts) + 7) };
    const widest = { ...before.limits, maxOrderContracts: '1000000', maxOpenOrders: 100_000 };
    const from = out.length;
    expect((await door.answer('saveRiskLimits', looser)).error?.code).toBe('console_code_required');
    const code = await printedCode(from);
    // three frames back to back on the page's socket: the printed save twice and a wider one, all with that code
    const answers = await Promise.all([
      door.answer('saveRiskLimits', looser, { consoleCode: code }),
      door.answer('saveRiskLimits', widest, { consoleCode: code }),
      door.answer('saveRiskLimits', looser, { consoleCode: code }),
    ]);
    expect(answers[0]!.ok).toBe(true);
    expect(answers[1]!.error?.code).toBe('console_code_required');
    // the same save again: refused (its code is spent), or, when the first had already landed, a
    // save that changes nothing (no loosening, nothing to confirm)
    const third = answers[2]!;
    if (third.ok) expect((third.value as Risk).limits).toEqual(looser);
    else expect(third.error?.code).toBe('console_code_required');
    expect((await door.call<Risk>('getRisk')).limits).toEqual(looser);
    expect((await door.call<Risk>('saveRiskLimits', before.limits)).limits).toEqual(before.limits);
  }, 60_000);

  it('a release with its code, sent in the same tick as an engage, leaves the switch engaged and says so; a second release with the code is refused', async () => {
    await door.call('engageKillSwitch');
    const from = out.length;
    expect((await door.answer('releaseKillSwitch', { confirm: true })).error?.code).toBe('console_code_required');
    const code = await printedCode(from);
    const burst = out.length;
    const [released, engaged, again] = await Promise.all([
      door.answer('releaseKillSwitch', { confirm: true, consoleCode: code }),
      door.answer('engageKillSwitch'),
      door.answer('releaseKillSwitch', { confirm: true, consoleCode: code }),
    ]);
    // the engage wins: either the release went through and the engage came after it, or the release
    // saw the engage land while it was being confirmed and says so; never released at the end
    if (!released.ok) expect(released.error?.message).toMatch(/engaged again while its release was being confirmed/);
    expect(engaged).toMatchObject({ ok: true });
    // the code was spent by the first release
    expect(again.ok).toBe(false);
    expect(again.error?.code).toBe('console_code_required');
    expect((await door.call<Risk>('getRisk')).killSwitch.engaged).toBe(true);
    // the refused second release printed a fresh code: that one (the newest) releases
    expect((await door.answer('releaseKillSwitch', { confirm: true })).error?.code).toBe('console_code_required');
    await door.call('releaseKillSwitch', { confirm: true, consoleCode: await printedCode(burst) });
  }, 60_000);

  it('refuses to release the kill switch without the console code, and releases with it', async () => {
    await door.call('engageKillSwitch');
    const from = out.length;
    const refused = await door.answer('releaseKillSwitch', { confirm: true });
    expect(refused.error?.code).toBe('console_code_required');
    expect((await door.call<Risk>('getRisk')).killSwitch.engaged).toBe(true);
    const code = await printedCode(from);
    const released = await door.call<Risk>('releaseKillSwitch', { confirm: true, consoleCode: code });
    expect(released.killSwitch.engaged).toBe(false);
  }, 60_000);
});
