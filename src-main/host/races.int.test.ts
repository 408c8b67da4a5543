// Races over the web host's socket, as a compromised page would fire them: calls sent in the same
// tick that sequential tests never interleave. Profile, key and session changes run one at a
// time, and a key is minted only through the session of the profile it is stored under, so no
// key of one exchange ever signs for another host. Runs the real terminal (embedded exchange as a
// child process, the same services and door) on 127.0.0.1 with a trap server beside it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { startHost, type RunningHost } from './server';
import { hostClient } from '../../test-support/main/host';
import { until } from '../../test-support/main/wait';
import { startTerminal, type RunningTerminal } from '../app/terminal';
import { FileKeyBox } from '../vault/secret-box';
import { entryArgs } from '../../test-support/entry';

let host: RunningHost;
let terminal: RunningTerminal;
let dataDir: string;
let ws: WebSocket;
const { connect } = hostClient(() => host);

type Result = { ok: true; value: unknown } | { ok: false; error: { kind: string; code?: string; message: string } };
let nextId = 1;
/** Sends every call at once (one tick, frames back to back) and resolves with their answers in order. */
function burst(calls: [string, ...unknown[]][]): Promise<Result[]> {
  const ids = calls.map(() => nextId++);
  const answers = new Map<number, Result>();
  const done = new Promise<Result[]>((resolve) => {
    const onMsg = (d: WebSocket.RawData) => {
      const f = JSON.parse(d.toString()) as { t: string; id?: number } & Result;
      if (f.t === 'result' && f.id !== undefined && ids.includes(f.id)) answers.set(f.id, f);
      if (answers.size === ids.length) {
        ws.off('message', onMsg);
        resolve(ids.map((id) => answers.get(id)!));
      }
    };
    ws.on('message', onMsg);
  });
  calls.forEach(([method, ...args], i) => ws.send(JSON.stringify({ t: 'call', id: ids[i], method, args })));
  return done;
}
async function value<T>(method: string, ...args: unknown[]): Promise<T> {
  const [r] = await burst([[method, ...args]]);
  if (!r!.ok) throw new Error(`${method}: ${r!.error.kind} ${r!.error.message}`);
  return r!.value as T;
}

/** A server on loopback that records every signed request (REST or WebSocket upgrade) it receives. */
interface Trap {
  url: string;
  signed: string[];
  close: () => Promise<void>;
}
async function trap(): Promise<Trap> {
  const signed: string[] = [];
  const isSigned = (h: Record<string, unknown>) => Object.keys(h).some((k) => k.endsWith('-access-signature'));
  const server: Server = createServer((req, res) => {
    if (isSigned(req.headers)) signed.push(`${req.method} ${req.url}`);
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'not_found', message: 'trap' } }));
  });
  server.on('upgrade', (req, socket) => {
    if (isSigned(req.headers)) signed.push(`UPGRADE ${req.url}`);
    socket.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    signed,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

type AppState = { activeProfileId: string; connection: { phase: string }; profiles: { id: string; keys: { apiKeyId: string }[] }[] };

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'races-'));
  terminal = await startTerminal({
    dataDir,
    box: new FileKeyBox(dataDir),
    shell: 'web',
    emit: (s, p) => host?.broadcast(s, p),
    exchange: { command: process.execPath, args: entryArgs('exchange'), seed: 7, sim: false },
  });
  const staticDir = path.join(dataDir, 'static');
  mkdirSync(staticDir, { recursive: true });
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
  host = await startHost({ staticDir, door: terminal.door });
  ws = await connect({ token: host.token });
  await until('a live session', async () => (await value<AppState>('getAppState')).connection.phase === 'live', 60_000);
}, 120_000);
afterAll(async () => {
  ws?.close();
  await host?.close();
  await terminal?.stop();
});

describe('profile, key and session changes are one at a time', () => {
  it('a key minted in the same tick as a switch to a profile on another host is refused, and nothing signs for that host', async () => {
    const t = await trap();
    try {
      for (let round = 0; round < 3; round++) {
        const id = `trap-${round}`;
        await value('saveProfile', { id, name: `Trap ${round}`, kind: 'custom', baseUrl: `${t.url}/trade-api/v2`, wsUrl: `${t.url.replace('http', 'ws')}/trade-api/ws/v2`, headerPrefix: 'SVC-' });
        // the switch and the mint in one tick: the mint must not ride the session still stopping
        const [activated, minted] = await burst([
          ['activateProfile', id],
          ['generateKey', { profileId: id, name: 'race' }],
        ]);
        expect(activated!.ok, JSON.stringify(activated)).toBe(true);
        // had a key been stored under the trap's profile, using it would sign for the trap
        if (minted!.ok) {
          await value('useKey', { profileId: id, apiKeyId: (minted!.value as { apiKeyId: string }).apiKeyId });
          await until('a signed request at the trap', () => t.signed.length > 0, 10_000).catch(() => undefined);
        }
        expect(t.signed).toEqual([]);
        expect(minted!.ok, JSON.stringify(minted)).toBe(false);
        const state = await value<AppState>('getAppState');
        expect(state.profiles.find((p) => p.id === id)?.keys ?? []).toEqual([]);
        // back to the embedded exchange, and the switch back raced by a mint as well
        const [back, minted2] = await burst([
          ['activateProfile', 'embedded'],
          ['generateKey', { profileId: id, name: 'race-back' }],
        ]);
        expect(back!.ok).toBe(true);
        expect(minted2!.ok).toBe(false);
        await until('the embedded session', async () => (await value<AppState>('getAppState')).connection.phase === 'live', 60_000);
      }
      expect(t.signed).toEqual([]);
    } finally {
      await t.close();
    }
  }, 180_000);

  it('a second profile on the same host gets no key minted by the first one in the same tick (no second kill switch on one account)', async () => {
    const embedded = (await value<AppState>('getAppState')).profiles.find((p) => p.id === 'embedded')!;
    const exchange = terminal.exchange!;
    await value('saveProfile', { id: 'twin', name: 'Twin', kind: 'custom', baseUrl: exchange.baseUrl, wsUrl: exchange.wsUrl, headerPrefix: 'SVC-' });
    const [activated, minted] = await burst([
      ['activateProfile', 'twin'],
      ['generateKey', { profileId: 'twin', name: 'twin-race' }],
    ]);
    expect(activated!.ok).toBe(true);
    expect(minted!.ok, JSON.stringify(minted)).toBe(false);
    const state = await value<AppState>('getAppState');
    expect(state.profiles.find((p) => p.id === 'twin')?.keys).toEqual([]);
    expect(state.profiles.find((p) => p.id === 'embedded')?.keys.length).toBe(embedded.keys.length);
    await value('activateProfile', 'embedded');
    await until('the embedded session', async () => (await value<AppState>('getAppState')).connection.phase === 'live', 60_000);
  }, 120_000);

  it('a mint on the active profile still works, one at a time with a switch queued behind it', async () => {
    const [minted, state] = await burst([['generateKey', { profileId: 'embedded', name: 'after-races' }], ['getAppState']]);
    expect(minted!.ok, JSON.stringify(minted)).toBe(true);
    expect(state!.ok).toBe(true);
    const keys = (await value<AppState>('getAppState')).profiles.find((p) => p.id === 'embedded')!.keys;
    expect(keys.some((k) => k.apiKeyId === (minted as { value: { apiKeyId: string } }).value.apiKeyId)).toBe(true);
  }, 60_000);
});
