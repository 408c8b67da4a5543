// The web host: 127.0.0.1 only, token and Origin checked on every socket, every argument
// parsed by the door, static files with a strict CSP and no path escapes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startHost, type RunningHost } from './server';
import { hostClient } from './test-host';
import { startTerminal, type RunningTerminal } from '../app/terminal';
import { FileKeyBox } from '../vault/secret-box';

let host: RunningHost;
let terminal: RunningTerminal;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'host-'));
  const staticDir = path.join(dataDir, 'static');
  mkdirSync(staticDir);
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>t</title>');
  writeFileSync(path.join(dataDir, 'secret.txt'), 'do not serve');
  terminal = await startTerminal({ dataDir, box: new FileKeyBox(dataDir), shell: 'web', emit: (s, p) => host?.broadcast(s, p) });
  host = await startHost({ staticDir, door: terminal.door });
});
const { connect, call, get } = hostClient(() => host);
afterAll(async () => {
  await host?.close();
  await terminal?.stop();
});

describe('web host', () => {
  it('prints a 127.0.0.1 URL with its token', () => {
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{48}$/);
  });

  it('refuses sockets without the token, with a wrong token, or from another origin', async () => {
    await expect(connect({})).rejects.toThrow(/403/);
    await expect(connect({ token: 'f'.repeat(48) })).rejects.toThrow(/403/);
    await expect(connect({ token: host.token, origin: 'http://evil.example' })).rejects.toThrow(/403/);
    expect(host.clients()).toBe(0);
  });

  it('moves the token from the URL into an HttpOnly SameSite=Strict cookie on the first load, and the socket accepts that cookie alone', async () => {
    const first = await get(`/?token=${host.token}`);
    const setCookie = String(first.headers['set-cookie'] ?? '');
    expect(setCookie).toBe(`terminal_token_${host.port}=${host.token}; HttpOnly; SameSite=Strict; Path=/`);
    expect(first.headers['referrer-policy']).toBe('no-referrer');
    // no cookie without the right token in the URL, none for other files
    expect((await get('/')).headers['set-cookie']).toBeUndefined();
    expect((await get(`/?token=${'0'.repeat(48)}`)).headers['set-cookie']).toBeUndefined();
    const cookie = setCookie.split(';')[0]!;
    const ws = await connect({ cookie });
    const r = await call(ws, 1, 'getAppState', []);
    expect(r.ok).toBe(true);
    ws.close();
    // a wrong cookie, another port's cookie, or the right cookie from another origin: refused
    await expect(connect({ cookie: `terminal_token_${host.port}=${'f'.repeat(48)}` })).rejects.toThrow(/403/);
    await expect(connect({ cookie: `terminal_token_1=${host.token}` })).rejects.toThrow(/403/);
    await expect(connect({ cookie, origin: 'http://evil.example' })).rejects.toThrow(/403/);
  });

  it('carries TerminalApi calls for a good socket', async () => {
    const ws = await connect({ token: host.token });
    const r = await call(ws, 1, 'getAppState', []);
    expect(r.ok).toBe(true);
    expect((r.value as { shell: string }).shell).toBe('web');
    ws.close();
  });

  it('refuses unknown methods and bad arguments with a validation error and changes nothing', async () => {
    const ws = await connect({ token: host.token });
    const unknown = await call(ws, 2, 'deleteEverything', []);
    expect(unknown.ok).toBe(false);
    expect((unknown.error as { kind: string }).kind).toBe('validation');
    const bad = await call(ws, 3, 'saveProfile', [{ name: '', kind: 'custom', baseUrl: 'not a url' }]);
    expect(bad.ok).toBe(false);
    expect((bad.error as { message: string }).message).toMatch(/saveProfile/);
    expect(existsSync(path.join(dataDir, 'profiles.json'))).toBe(false);
    const order = await call(ws, 4, 'placeOrder', [{ ticker: 'T', side: 'bid', price: '0.123456', count: '1' }]);
    expect((order.error as { kind: string }).kind).toBe('validation');
    ws.close();
  });

  it('serves the renderer with a strict CSP and nothing outside it', async () => {
    const index = await get('/');
    expect(index.status).toBe(200);
    expect(String(index.headers['content-security-policy'])).toContain("script-src 'self'");
    expect((await get('/../secret.txt')).status).toBe(404);
    expect((await get('/%2e%2e/secret.txt')).status).toBe(404);
    expect((await get('/', { host: 'evil.example' })).status).toBe(421);
  });
});
