// A kill -9 of the exchange during a FIX order burst: the CLI runs as a child, an independent FIX
// client (raw frames) sends NewOrderSingles back to back, the child is SIGKILLed once a share of
// them is acknowledged, and restarted on the same data dir. Every order an ExecutionReport
// acknowledged must be there afterwards, under its ClOrdID (an ExecutionReport goes out only after
// the journal made the order durable). On the retransmit session (KalshiRT) the sequence numbers
// and the reports sent survive too: after the restart the session goes on from where it was, and
// a ResendRequest brings back the reports the client says it missed.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Socket } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { waitForOutput } from '../test-support/child';
import { createApiClient } from '../src-main/api/client';
import type { CredentialsFile } from '../src-shared/credentials';
import { Client } from '../src-exchange/fix/raw-client';
import { entryArgs } from '../test-support/entry';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const procs: ChildProcessWithoutNullStreams[] = [];
const sockets: Socket[] = [];
const dataDir = mkdtempSync(path.join(tmpdir(), 'fix-crash-'));

afterAll(() => {
  for (const s of sockets) s.destroy();
  for (const p of procs) if (p.exitCode === null) p.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

async function launch(): Promise<{ proc: ChildProcessWithoutNullStreams; creds: CredentialsFile & { fix_port: number }; exited: Promise<unknown> }> {
  const proc = spawn(process.execPath, [...entryArgs('exchange'), '--port', '0', '--data-dir', dataDir, '--no-sim', '--no-rate-limits'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  procs.push(proc);
  const exited = new Promise((resolve) => proc.on('exit', resolve));
  // no start deadline: a slow machine only starts it later; an early exit fails at once with its output
  const fixLine = await waitForOutput(proc, /exchange FIX on 127\.0\.0\.1:(\d+)/, 'the exchange FIX acceptor listening');
  const creds = JSON.parse(readFileSync(path.join(dataDir, 'credentials.json'), 'utf8')) as CredentialsFile & { fix_port: number };
  expect(Number(fixLine[1])).toBe(creds.fix_port);
  return { proc, creds, exited };
}

/** Until 60 execution reports came back (no clock: a busy machine acknowledges later); fails at once if the exchange died first. */
async function untilAcked(proc: ChildProcessWithoutNullStreams, reports: () => number): Promise<void> {
  while (reports() < 60) {
    if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`the exchange exited (${proc.signalCode ?? proc.exitCode}) after ${reports()} execution reports`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

describe('FIX under kill -9', () => {
  it('after a restart no acknowledged FIX order is lost', async () => {
    const first = await launch();
    const trader = first.creds.accounts.find((a) => a.name === 'trader')!;
    const rest = createApiClient({ profile: { kind: 'custom', name: 'crash', baseUrl: first.creds.base_url, wsUrl: first.creds.ws_url, headerPrefix: 'SVC-' }, credentials: { keyId: trader.api_key_id, privateKeyPem: trader.private_key_pem } });
    const markets = (await rest.getMarkets({ query: { status: 'open', limit: 5 } })).markets;
    expect(markets.length).toBeGreaterThan(0);
    const ticker = markets[0]!.ticker;

    const c = await Client.open(first.creds.fix_port, trader.api_key_id, 'KalshiNR', sockets);
    c.logon(trader.private_key_pem);
    await c.type('A');
    const BURST = 300;
    for (let i = 0; i < BURST; i++) c.send('D', [[11, `crash-${i}`], [55, ticker], [54, 1], [38, 1], [40, 2], [44, 1]]);
    // kill once a good share is acknowledged, while the rest are in flight
    const reports = () => c.got.filter((m) => m.get(35) === '8').length;
    await untilAcked(first.proc, reports);
    first.proc.kill('SIGKILL');
    await first.exited;
    await new Promise((r) => setTimeout(r, 100));
    const acked = c.got.filter((m) => m.get(35) === '8' && m.get(150) !== '8').map((m) => ({ orderId: m.get(37)!, clOrdId: m.get(11)! }));
    expect(acked.length).toBeGreaterThanOrEqual(60);

    const second = await launch();
    const after = createApiClient({ profile: { kind: 'custom', name: 'crash2', baseUrl: second.creds.base_url, wsUrl: second.creds.ws_url, headerPrefix: 'SVC-' }, credentials: { keyId: trader.api_key_id, privateKeyPem: trader.private_key_pem } });
    for (const a of acked) {
      const o = (await after.getOrder({ params: { order_id: a.orderId } })).order;
      expect(o.client_order_id).toBe(a.clOrdId);
    }
    second.proc.kill('SIGTERM');
    await second.exited;
  }, 420_000); // only a hang guard: two exchange starts (120 s beside two busy loops at load 30)

  it('KalshiRT: after a restart the sequence numbers go on and a ResendRequest brings back what the client missed', async () => {
    const first = await launch();
    const trader = first.creds.accounts.find((a) => a.name === 'trader')!;
    const rest = createApiClient({ profile: { kind: 'custom', name: 'crash-rt', baseUrl: first.creds.base_url, wsUrl: first.creds.ws_url, headerPrefix: 'SVC-' }, credentials: { keyId: trader.api_key_id, privateKeyPem: trader.private_key_pem } });
    const ticker = (await rest.getMarkets({ query: { status: 'open', limit: 5 } })).markets[0]!.ticker;

    const c = await Client.open(first.creds.fix_port, trader.api_key_id, 'KalshiRT', sockets);
    c.logon(trader.private_key_pem);
    await c.type('A');
    const BURST = 300;
    for (let i = 0; i < BURST; i++) c.send('D', [[11, `rt-${process.pid}-${i}`], [55, ticker], [54, 1], [38, 1], [40, 2], [44, 2]]);
    const reports = () => c.got.filter((m) => m.get(35) === '8').length;
    await untilAcked(first.proc, reports);
    first.proc.kill('SIGKILL');
    await first.exited;
    await new Promise((r) => setTimeout(r, 100));
    const acked = c.got.filter((m) => m.get(35) === '8' && m.get(150) !== '8');
    expect(acked.length).toBeGreaterThanOrEqual(60);
    const lastSeen = Math.max(...c.got.map((m) => Number(m.get(34))));

    const second = await launch();
    const d = await Client.open(second.creds.fix_port, trader.api_key_id, 'KalshiRT', sockets);
    d.seq = c.seq;
    d.logon(trader.private_key_pem, [], { reset: false });
    const logon = await d.type('A', 'Logon answer after the restart');
    // the exchange's numbers went on from where they were, not from 1 (past the last one the client
    // saw: a report written to the socket as the kill landed may never have reached it)
    const logonSeq = Number(logon.get(34));
    expect(logonSeq).toBeGreaterThan(lastSeen);
    // if the exchange had not read all of the burst before the kill, it asks for the rest: those
    // orders were never acknowledged, so the client fills the gap instead of sending them again
    const probe = d.seq;
    d.send('1', [[112, 'after-restart']]);
    const answer = await d.next((m) => (m.get(35) === '0' && m.get(112) === 'after-restart') || m.get(35) === '2', 'heartbeat or resend request');
    if (answer.get(35) === '2') {
      expect(Number(answer.get(7))).toBeLessThanOrEqual(probe);
      d.send('4', [[123, 'Y'], [43, 'Y'], [36, probe + 1]], { seq: Number(answer.get(7)) });
      d.seq = probe + 1;
      d.send('1', [[112, 'after-fill']]);
      await d.next((m) => m.get(35) === '0' && m.get(112) === 'after-fill', 'heartbeat after the gap fill');
    }

    // the client lost the second half of what it was sent: it asks from there
    const missed = acked.slice(Math.floor(acked.length / 2));
    const from = Number(missed[0]!.get(34));
    d.got.length = 0;
    d.send('2', [[7, from], [16, 0]]);
    d.send('1', [[112, 'resent']]);
    await d.next((m) => m.get(35) === '0' && m.get(112) === 'resent', 'heartbeat after the resend');
    const resent = new Map(d.got.filter((m) => m.get(35) === '8' && m.get(43) === 'Y').map((m) => [m.get(34), m]));
    // every number from there to the Logon is either a report again or inside a gap fill
    const covered = new Set<number>([...resent.keys()].map(Number));
    for (const g of d.got.filter((m) => m.get(35) === '4' && m.get(123) === 'Y')) for (let s = Number(g.get(34)); s < Number(g.get(36)); s++) covered.add(s);
    for (let s = from; s < logonSeq; s++) expect(covered.has(s), `seq ${s} resent or gap-filled`).toBe(true);
    for (const m of missed) {
      const again = resent.get(m.get(34));
      expect(again, `report ${m.get(34)} resent`).toBeDefined();
      expect([again!.get(11), again!.get(37), again!.get(150)]).toEqual([m.get(11), m.get(37), m.get(150)]);
    }

    const after = createApiClient({ profile: { kind: 'custom', name: 'crash-rt2', baseUrl: second.creds.base_url, wsUrl: second.creds.ws_url, headerPrefix: 'SVC-' }, credentials: { keyId: trader.api_key_id, privateKeyPem: trader.private_key_pem } });
    for (const m of acked) {
      const o = (await after.getOrder({ params: { order_id: m.get(37)! } })).order;
      expect(o.client_order_id).toBe(m.get(11));
    }
    second.proc.kill('SIGTERM');
    await second.exited;
  }, 420_000); // only a hang guard: two exchange starts (120 s beside two busy loops at load 30)
});
