// Reproduction 7 of issue 33, through the real entry points: the embedded exchange (REST,
// WebSocket, FIX acceptor on 127.0.0.1 port 0), main's services and door as the web host wires
// them (its console code is the confirmation), and a relay TCP server on port 0 standing for the
// attacker. A key-holding custom profile on 127.0.0.1 routes order entry over FIX with its kill
// switch engaged; the page re-points the FIX port at the relay, which would replay the signed
// Logon to the real acceptor and rest an order of its own. The move is refused without the
// code printed for that very move; the relay hears no Logon and nothing rests.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestExchange, type TestExchange } from '../../test-support/exchange/harness';
import { FixParser, encode, fixTime } from '../../src-shared/fix/codec';
import type { FixView } from '../../src-shared/ipc/fix';
import { TerminalServices } from '../app/services';
import { createDoor, toTerminalError } from '../ipc/door';
import { ConsoleConfirm } from '../host/console-confirm';
import { until } from '../../test-support/main/wait';
import { FileKeyBox } from '../vault/secret-box';
import { newOrderSingle } from './order-entry';

type Result = { ok: true; value: unknown } | { ok: false; error: { kind: string; code?: string; message: string } };

let t: TestExchange;
let services: TerminalServices;
let dataDir: string;
let door: ReturnType<typeof createDoor>;
let market: string;
const consoleLines: string[] = [];
const PROFILE = 'local';

const call = (method: string, ...args: unknown[]) => door(method, args) as Promise<Result>;
async function value<T>(method: string, ...args: unknown[]): Promise<T> {
  const r = await call(method, ...args);
  if (!r.ok) throw new Error(`${method}: ${r.error.kind} ${r.error.message}`);
  return r.value as T;
}
const fixView = () => value<FixView>('getFix');
const restingHere = async () => (await t.client('trader').getOrders({ query: { ticker: market, status: 'resting', limit: 1000 } })).orders;
const allHere = async () => (await t.client('trader').getOrders({ query: { ticker: market, limit: 1000 } })).orders;

/** the newest code printed on the web host's console after line `from` */
async function printedCode(from: number): Promise<string> {
  const find = () => consoleLines.slice(from).map((l) => /type this code in the page: (\d{6})/.exec(l)?.[1]).filter(Boolean).at(-1);
  await until('a code on the console', () => find() !== undefined);
  return find()!;
}

/**
 * The attacker: takes the terminal's signed Logon, replays it to the real acceptor, and once
 * logged on there sends a NewOrderSingle of its own (the terminal's gate and kill switch never see it).
 */
interface Relay {
  server: Server;
  port: number;
  logons: number;
  /** what the acceptor answered the relay's own order, or how the attempt ended */
  outcome: string | null;
  links: Set<Socket>;
}
async function startRelay(acceptorPort: number): Promise<Relay> {
  const relay: Relay = { server: createServer(), port: 0, logons: 0, outcome: null, links: new Set() };
  relay.server.on('connection', (inbound) => {
    relay.links.add(inbound);
    const inParser = new FixParser();
    const outParser = new FixParser();
    let keyId = '';
    let out: Socket | null = null;
    inbound.on('error', () => undefined);
    inbound.on('data', (chunk: Buffer) => {
      for (const r of inParser.push(chunk)) {
        if (!r.ok || r.msg.msgType !== 'A' || out) continue;
        relay.logons++;
        keyId = r.msg.get(49) ?? '';
        const upstream = connect(acceptorPort, '127.0.0.1');
        out = upstream;
        relay.links.add(upstream);
        upstream.on('error', () => undefined);
        upstream.on('connect', () => upstream.write(chunk));
        upstream.on('close', () => (relay.outcome ??= 'the acceptor closed the replayed session'));
        upstream.on('data', (b: Buffer) => {
          for (const m of outParser.push(b)) {
            if (!m.ok) continue;
            if (m.msg.msgType === 'A') {
              const order = newOrderSingle({ ticker: market, side: 'bid', price: '0.0500', count: '1' }, 'relay-order-1');
              upstream.write(encode([[35, 'D'], [49, keyId], [56, 'KalshiNR'], [34, 2], [52, fixTime(Date.now())], ...order]), 'latin1');
            } else if (m.msg.msgType === '8' || m.msg.msgType === '3' || m.msg.msgType === '5') {
              relay.outcome ??= `35=${m.msg.msgType} ${m.msg.get(39) ?? ''} ${m.msg.get(58) ?? ''}`;
            }
          }
        });
      }
    });
  });
  await new Promise<void>((r) => relay.server.listen(0, '127.0.0.1', () => r()));
  relay.port = (relay.server.address() as AddressInfo).port;
  return relay;
}
async function closeServer(s: { server: Server; links: Set<Socket> }): Promise<void> {
  for (const l of s.links) l.destroy();
  await new Promise<void>((r) => s.server.close(() => r()));
}

/** A plain forwarder to the acceptor: a port the trader may move to, with the code for that move. */
async function startForwarder(to: number): Promise<{ server: Server; port: number; links: Set<Socket> }> {
  const f = { server: createServer(), port: 0, links: new Set<Socket>() };
  f.server.on('connection', (inbound) => {
    const outbound = connect(to, '127.0.0.1');
    for (const [a, b] of [[inbound, outbound], [outbound, inbound]] as const) {
      f.links.add(a);
      a.pipe(b);
      a.on('close', () => b.destroy());
      a.on('error', () => b.destroy());
    }
  });
  await new Promise<void>((r) => f.server.listen(0, '127.0.0.1', () => r()));
  f.port = (f.server.address() as AddressInfo).port;
  return f;
}

beforeAll(async () => {
  t = await startTestExchange();
  dataDir = mkdtempSync(path.join(tmpdir(), 'fix-bound-'));
  services = new TerminalServices({
    dataDir,
    box: new FileKeyBox(dataDir),
    shell: 'web',
    // as the web host wires it (cli.ts): loosening, releasing, moving a signing destination need the console's code
    confirmRisk: new ConsoleConfirm((line) => consoleLines.push(line)).ask,
    emit: () => undefined,
    describeError: toTerminalError,
    sessionOptions: { frameMs: 5 },
  });
  await services.start();
  door = createDoor(services.methods);
  // a custom profile on this computer, its FIX port set before it holds a key (nothing to bind yet)
  await value('saveProfile', { id: PROFILE, name: 'local', kind: 'custom', baseUrl: t.ex.baseUrl, wsUrl: t.ex.wsUrl, headerPrefix: 'SVC-' });
  await value('saveFixSettings', { profileId: PROFILE, settings: { orderEntry: true, dropCopy: false, port: t.ex.fixPort } });
  const trader = t.account('trader');
  await value('importKey', { profileId: PROFILE, apiKeyId: trader.api_key_id, privateKeyPem: trader.private_key_pem });
  await value('activateProfile', PROFILE);
  await until('a live session', async () => (await value<{ connection: { phase: string } }>('getAppState')).connection.phase === 'live', 30_000);
  await until('the FIX order session is up', async () => (await fixView()).orderEntry?.phase === 'up', 30_000);
  const node = t.ex.svc.node;
  market = 'BOUND-1';
  for (const cmd of [
    { type: 'addMarket', nowMs: node.now(), ticker: market, eventTicker: 'BOUND', seriesTicker: 'BOUNDS' },
    { type: 'openMarket', nowMs: node.now(), ticker: market },
  ]) {
    const r = await node.submit(cmd);
    if (!r.ok) throw new Error(`cannot create market: ${JSON.stringify(r.result)}`);
  }
  await value('watchMarkets', [market]);
  await until(`the book of ${market}`, () => services.profiles.active()?.session.books.book(market)?.stale === false, 30_000);
}, 90_000);

afterAll(async () => {
  await services?.stop();
  await t?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("a key-holding profile's FIX destination is bound", () => {
  it('an order over the FIX route is refused while the kill switch is engaged, and nothing reaches the acceptor', async () => {
    expect((await fixView()).orderEntry).toMatchObject({ phase: 'up', endpoint: `127.0.0.1:${t.ex.fixPort}` });
    await value('engageKillSwitch');
    const before = (await allHere()).length;
    const r = await call('placeOrder', { ticker: market, side: 'bid', price: '0.0400', count: '1', origin: 'ladder' });
    expect(r).toMatchObject({ ok: false, error: { kind: 'risk', code: 'kill_switch' } });
    expect((await allHere()).length).toBe(before);
  }, 30_000);

  it('re-pointing the FIX port at a relay is refused without the code for that very move: no Logon is signed for it, nothing rests', async () => {
    expect((await value<{ killSwitch: { engaged: boolean } }>('getRisk')).killSwitch.engaged).toBe(true);
    const relay = await startRelay(t.ex.fixPort);
    try {
      const settingsBefore = (await fixView()).settings;
      const from = consoleLines.length;
      const r = await call('saveFixSettings', { profileId: PROFILE, settings: { orderEntry: true, dropCopy: false, port: relay.port } });
      // on a terminal that lets it through, the relay gets the signed Logon: wait for its attempt to end
      if (r.ok) await until('the relay has tried its replay', () => relay.outcome !== null, 30_000);
      expect(relay.logons, `the relay got a signed Logon and replayed it: ${relay.outcome}`).toBe(0);
      expect(await restingHere()).toEqual([]);
      expect(r).toMatchObject({ ok: false, error: { code: 'console_code_required' } });
      expect((await fixView()).settings).toEqual(settingsBefore);
      // the console says which move its code is for
      const code = await printedCode(from);
      expect(consoleLines.slice(from).join('\n')).toContain(`127.0.0.1:${t.ex.fixPort} -> 127.0.0.1:${relay.port}`);

      // a code printed for a move to another port does not move it to the relay
      const decoy = await startForwarder(t.ex.fixPort);
      try {
        const from2 = consoleLines.length;
        expect((await call('saveFixSettings', { profileId: PROFILE, settings: { orderEntry: true, dropCopy: false, port: decoy.port } })).ok).toBe(false);
        const decoyCode = await printedCode(from2);
        expect(decoyCode === code && consoleLines.length === from2).toBe(false);
        const moved = await call('saveFixSettings', { profileId: PROFILE, settings: { orderEntry: true, dropCopy: false, port: relay.port }, consoleCode: decoyCode });
        expect(moved).toMatchObject({ ok: false, error: { code: 'console_code_required' } });
        expect((await fixView()).settings).toEqual(settingsBefore);
        expect((await fixView()).orderEntry).toMatchObject({ phase: 'up', endpoint: `127.0.0.1:${t.ex.fixPort}` });
      } finally {
        await closeServer(decoy);
      }
      expect(relay.logons).toBe(0);
      expect(await restingHere()).toEqual([]);
    } finally {
      await closeServer(relay);
    }
  }, 60_000);

  it("the trader's move, confirmed with the code printed for it, goes through once", async () => {
    const fwd = await startForwarder(t.ex.fixPort);
    try {
      const move = { profileId: PROFILE, settings: { orderEntry: true, dropCopy: false, port: fwd.port } };
      const from = consoleLines.length;
      expect((await call('saveFixSettings', move)).ok).toBe(false);
      const code = await printedCode(from);
      const view = await value<FixView>('saveFixSettings', { ...move, consoleCode: code });
      expect(view.settings?.port).toBe(fwd.port);
      await until('the FIX order session is up at the new port', async () => (await fixView()).orderEntry?.phase === 'up', 30_000);
      expect((await fixView()).orderEntry?.endpoint).toBe(`127.0.0.1:${fwd.port}`);
      // used: moving back with the same code is refused
      const back = await call('saveFixSettings', { profileId: PROFILE, settings: { orderEntry: true, dropCopy: false, port: t.ex.fixPort }, consoleCode: code });
      expect(back).toMatchObject({ ok: false, error: { code: 'console_code_required' } });
      expect((await fixView()).settings?.port).toBe(fwd.port);
      // switching FIX off asks nothing (nothing is signed anywhere new)
      expect((await value<FixView>('saveFixSettings', { profileId: PROFILE, settings: { orderEntry: false, dropCopy: false, port: fwd.port } })).settings?.orderEntry).toBe(false);
    } finally {
      await services.fix.stop();
      await closeServer(fwd);
    }
  }, 60_000);
});
