// What one socket may cost the host: calls waiting on the door are capped per socket (extra ones
// are refused at once, naming why), a client that never reads its answers is cut off before they
// fill the host's memory, and layouts are saved only for profiles that exist, bounded in size
// and in number. Real terminal services and door behind a real host on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { CLOSE_TOO_MANY, MAX_CALLS_IN_FLIGHT, MAX_SOCKETS, startHost, type RunningHost } from './server';
import { startTerminal, type RunningTerminal } from '../app/terminal';
import { FileKeyBox } from '../vault/secret-box';
import { hostClient } from '../../test-support/main/host';
import { until } from '../../test-support/main/wait';

let host: RunningHost;
let terminal: RunningTerminal;
let dataDir: string;
let doorCalls = 0;
/** the door holds calls while this is set, as the CLI's does while the terminal starts */
let held: Promise<void> | null = null;
const logs: string[] = [];
const { connect, call } = hostClient(() => host);

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'host-limits-'));
  const staticDir = path.join(dataDir, 'static');
  mkdirSync(staticDir);
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
  terminal = await startTerminal({ dataDir, box: new FileKeyBox(dataDir), shell: 'web', emit: (s, p) => host?.broadcast(s, p) });
  host = await startHost({
    staticDir,
    log: (m) => logs.push(m),
    door: async (method, args) => {
      doorCalls++;
      if (held) await held;
      return terminal.door(method, args);
    },
  });
});
afterAll(async () => {
  await host?.close();
  await terminal?.stop();
});

let nextId = 1;
/** what the socket test measured, printed at the end (not asserted: the machine may be slow) */
const socketFigures: Record<string, number> = {};
afterAll(() => console.log('host socket figures', socketFigures));
const profile = (id: string) => ({ id, name: `Profile ${id}`, kind: 'demo' as const });

describe('calls in flight per socket', () => {
  it(`runs at most ${MAX_CALLS_IN_FLIGHT} calls of one socket at a time and refuses the rest at once, naming why`, async () => {
    let release!: () => void;
    held = new Promise((r) => (release = r));
    const ws = await connect({ token: host.token });
    try {
      const answers = new Map<number, { ok: boolean; error?: { code?: string; message: string } }>();
      ws.on('message', (d: WebSocket.RawData) => {
        const f = JSON.parse(d.toString()) as { t: string; id: number; ok: boolean; error?: { code?: string; message: string } };
        if (f.t === 'result') answers.set(f.id, f);
      });
      const before = doorCalls;
      const ids = Array.from({ length: 200 }, () => nextId++);
      for (const id of ids) ws.send(JSON.stringify({ t: 'call', id, method: 'getSettings', args: [] }));
      // the extra calls are answered while the first ones still wait on the door
      await until('the refusals', () => answers.size === 200 - MAX_CALLS_IN_FLIGHT);
      expect(doorCalls - before).toBe(MAX_CALLS_IN_FLIGHT);
      for (const a of answers.values()) {
        expect(a.ok).toBe(false);
        expect(a.error?.code).toBe('too_many_calls');
        expect(a.error?.message).toMatch(/wait for their answers/);
      }
      release();
      await until('every answer', () => answers.size === 200);
      expect([...answers.values()].filter((a) => a.ok)).toHaveLength(MAX_CALLS_IN_FLIGHT);
      // and the socket takes calls again once they are answered
      expect((await call(ws, nextId++, 'getSettings', [])).ok).toBe(true);
    } finally {
      held = null;
      release();
      ws.close();
    }
  });

  it('cuts off a client that never reads its answers before they fill the host', async () => {
    await terminal.services.methods.saveProfile(profile('big-layout'));
    // a layout near the size bound: each answer to getLayout carries it
    const layout = { blob: 'x'.repeat(190_000) };
    await terminal.services.methods.saveLayout({ profileId: 'big-layout', layout });
    const ws = await connect({ token: host.token });
    const closed = new Promise<void>((r) => ws.once('close', () => r()));
    const cut = logs.length;
    // the client stops reading: the host's answers pile up in its memory, not the client's
    (ws as unknown as { _socket: Socket })._socket.pause();
    const before = doorCalls;
    const dropped = () => logs.slice(cut).some((m) => /closed a host socket that does not read/.test(m));
    // a few calls at a time (within the cap), each answered with ~190 kB nobody reads
    let sent = 0;
    while (!dropped() && sent < 400) {
      for (let i = 0; i < 8; i++) ws.send(JSON.stringify({ t: 'call', id: nextId++, method: 'getLayout', args: ['big-layout'] }));
      sent += 8;
      await until('the calls answered or the socket dropped', () => dropped() || doorCalls - before >= sent);
    }
    await until('the host to drop the socket', dropped);
    expect(sent).toBeLessThan(400);
    (ws as unknown as { _socket: Socket })._socket.resume();
    await closed;
    // the host serves others as before
    const other = await connect({ token: host.token });
    expect((await call(other, nextId++, 'getSettings', [])).ok).toBe(true);
    other.close();
  }, 60_000);
});

describe('sockets on the host', () => {
  it(`keeps at most ${MAX_SOCKETS} sockets: 100 idle sockets that never read neither delay another socket's call nor fill the host`, async () => {
    const reader = await connect({ token: host.token });
    let events = 0;
    reader.on('message', (d: WebSocket.RawData) => {
      if ((JSON.parse(d.toString()) as { t: string }).t === 'event') events++;
    });
    // 100 more, all at once; each says how it was closed
    const idle = Array.from({ length: 100 }, () => {
      const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ipc?token=${host.token}`, [], { headers: { origin: `http://127.0.0.1:${host.port}` } });
      const s = { ws, opened: false, closed: null as { code: number; reason: string } | null };
      ws.on('open', () => (s.opened = true));
      ws.on('close', (code, reason) => (s.closed = { code, reason: reason.toString() }));
      ws.on('error', () => undefined);
      return s;
    });
    try {
      await until('every socket open or closed', () => idle.every((s) => s.closed !== null || s.opened));
      await until('the refused ones closed', () => idle.filter((s) => s.closed !== null).length >= 100 - (MAX_SOCKETS - 1), 30_000);
      const refused = idle.filter((s) => s.closed !== null);
      const kept = idle.filter((s) => s.closed === null);
      // the host holds at most MAX_SOCKETS, the reader among them; the rest were told why
      expect(host.clients()).toBe(MAX_SOCKETS);
      expect(kept).toHaveLength(MAX_SOCKETS - 1);
      expect(refused).toHaveLength(100 - (MAX_SOCKETS - 1));
      for (const s of refused) {
        expect(s.closed?.code).toBe(CLOSE_TOO_MANY);
        expect(s.closed?.reason).toMatch(new RegExp(`too many terminal pages: at most ${MAX_SOCKETS} sockets`));
      }
      // the kept ones stop reading
      for (const s of kept) (s.ws as unknown as { _socket: Socket })._socket.pause();
      // another socket's call is answered while they are connected
      const t0 = performance.now();
      expect((await call(reader, nextId++, 'getSettings', [])).ok).toBe(true);
      socketFigures.callMs = Math.round(performance.now() - t0);
      expect(kept.every((s) => s.closed === null)).toBe(true);
      // views go out to every socket: the ones that never read are closed before their unread bytes fill the host
      const view = { blob: 'v'.repeat(1024 * 1024) };
      let sent = 0;
      // (a paused client does not see its socket cut: the host's count says it)
      while (host.clients() > 1 && sent < 400) {
        host.broadcast('settings' as never, view as never);
        sent++;
        await until('the reader to read the view', () => events >= sent);
      }
      socketFigures.viewsToCutAll = sent;
      expect(sent).toBeLessThan(400);
      expect(host.clients()).toBe(1);
      expect(logs.some((m) => /closed a host socket that does not read/.test(m))).toBe(true);
      expect(reader.readyState).toBe(WebSocket.OPEN);
      expect((await call(reader, nextId++, 'getSettings', [])).ok).toBe(true);
      // with room again, a new socket is let in
      const next = await connect({ token: host.token });
      expect((await call(next, nextId++, 'getSettings', [])).ok).toBe(true);
      next.close();
    } finally {
      for (const s of idle) s.ws.terminate();
      reader.close();
      await until('every socket gone', () => host.clients() === 0);
    }
  }, 120_000);
});

describe('saveLayout through the door', () => {
  const layoutFiles = () => (existsSync(path.join(dataDir, 'layouts')) ? readdirSync(path.join(dataDir, 'layouts')) : []);

  it('refuses a layout for a profile that does not exist, and writes nothing', async () => {
    const ws = await connect({ token: host.token });
    const before = layoutFiles();
    for (let i = 0; i < 5; i++) {
      const r = (await call(ws, nextId++, 'saveLayout', [{ profileId: `ghost-${i}`, layout: { blob: 'x'.repeat(100_000) } }])) as { ok: boolean; error?: { message: string } };
      expect(r.ok).toBe(false);
      expect(r.error?.message).toMatch(/no profile ghost-\d/);
    }
    expect(layoutFiles()).toEqual(before);
    ws.close();
  });

  it('refuses a layout over the size bound and keeps the one saved before', async () => {
    await terminal.services.methods.saveProfile(profile('sized'));
    const ws = await connect({ token: host.token });
    expect(((await call(ws, nextId++, 'saveLayout', [{ profileId: 'sized', layout: { panels: ['a'] } }])) as { ok: boolean }).ok).toBe(true);
    const r = (await call(ws, nextId++, 'saveLayout', [{ profileId: 'sized', layout: { blob: 'x'.repeat(300_000) } }])) as { ok: boolean; error?: { message: string } };
    expect(r.ok).toBe(false);
    expect(r.error?.message).toMatch(/too large/);
    expect(((await call(ws, nextId++, 'getLayout', ['sized'])) as { value: unknown }).value).toEqual({ panels: ['a'] });
    ws.close();
  });

  it('bounds the number of profiles (and so of layouts), and a deleted profile takes its layout with it', async () => {
    const ws = await connect({ token: host.token });
    let refused: { ok: boolean; error?: { message: string } } | null = null;
    for (let i = 0; i < 200 && !refused; i++) {
      const r = (await call(ws, nextId++, 'saveProfile', [profile(`many-${i}`)])) as { ok: boolean; error?: { message: string } };
      if (!r.ok) refused = r;
    }
    expect(refused?.error?.message).toMatch(/at most \d+ profiles/);
    const count = terminal.services.profiles.profiles.list().length;
    expect(count).toBeLessThan(200);
    // an existing profile may still be saved again
    expect(((await call(ws, nextId++, 'saveProfile', [profile('many-0')])) as { ok: boolean }).ok).toBe(true);
    expect(((await call(ws, nextId++, 'saveLayout', [{ profileId: 'many-0', layout: { panels: [] } }])) as { ok: boolean }).ok).toBe(true);
    expect(layoutFiles()).toContain('many-0.json');
    expect(((await call(ws, nextId++, 'deleteProfile', ['many-0'])) as { ok: boolean }).ok).toBe(true);
    expect(layoutFiles()).not.toContain('many-0.json');
    ws.close();
  });
});
