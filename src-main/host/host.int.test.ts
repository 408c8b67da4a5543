// The web host: 127.0.0.1 only, token and Origin checked on every socket, every argument
// parsed by the door, static files with a strict CSP and no path escapes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startHost, type RunningHost } from './server';
import { hostClient } from '../../test-support/main/host';
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
  mkdirSync(path.join(staticDir, 'assets'));
  for (const ext of ['js', 'css', 'json', 'svg', 'png', 'ico', 'woff2', 'map', 'bin']) writeFileSync(path.join(staticDir, 'assets', `a.${ext}`), `x${ext}`);
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
    await expect(connect({ token: host.token, origin: `http://localhost:${host.port + 1}` })).rejects.toThrow(/403/);
    expect(host.clients()).toBe(0);
  });

  it('accepts its page from either loopback name, 127.0.0.1 or localhost', async () => {
    for (const origin of [`http://127.0.0.1:${host.port}`, `http://localhost:${host.port}`]) {
      const ws = await connect({ token: host.token, origin });
      expect((await call(ws, 1, 'getAppState', [])).ok).toBe(true);
      ws.close();
    }
  });

  it('sets no cookie (cookies reach every port of 127.0.0.1), clears an old one, and refuses a socket that has only the cookie', async () => {
    const first = await get(`/?token=${host.token}`);
    expect(first.status).toBe(200);
    expect(first.headers['set-cookie']).toBeUndefined();
    expect(first.headers['referrer-policy']).toBe('no-referrer');
    // a cookie an earlier version set, for this port or another, is cleared wherever it is seen
    const old = await get('/', { cookie: `a=1; terminal_token_${host.port}=${host.token}; terminal_token_4242=${'e'.repeat(48)}` });
    const cleared = ([] as string[]).concat((old.headers['set-cookie'] as string[] | undefined) ?? []);
    expect(cleared.sort()).toEqual([`terminal_token_${host.port}=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict`, 'terminal_token_4242=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict'].sort());
    for (const h of cleared) expect(h).not.toContain(host.token);
    await expect(connect({ cookie: `terminal_token_${host.port}=${host.token}` })).rejects.toThrow(/403/);
  });

  it("takes the token as a WebSocket subprotocol (the page's way: sessionStorage is readable by its own origin only) and never echoes it", async () => {
    const ws = await connect({ protocols: ['terminal.v1', `terminal.token.${host.token}`] });
    expect(ws.protocol).toBe('terminal.v1');
    expect((await call(ws, 1, 'getAppState', [])).ok).toBe(true);
    ws.close();
    await expect(connect({ protocols: ['terminal.v1', `terminal.token.${'f'.repeat(48)}`] })).rejects.toThrow(/403/);
    await expect(connect({ protocols: ['terminal.v1'] })).rejects.toThrow(/403/);
    await expect(connect({ protocols: ['terminal.v1', `terminal.token.${host.token}`], origin: 'http://evil.example' })).rejects.toThrow(/403/);
    await expect(connect({ protocols: ['terminal.v1', `terminal.token.${host.token}`], origin: `http://127.0.0.1:${host.port + 1}` })).rejects.toThrow(/403/);
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
    // an encoded slash survives URL parsing and decodes to a real `..` segment: the root check stops it
    for (const p of ['/..%2fsecret.txt', '/assets/..%2f..%2fsecret.txt', '/%2e%2e%2fsecret.txt']) {
      const r = await get(p);
      expect(r.status).toBe(404);
      expect(r.body).not.toContain('do not serve');
    }
    expect((await get('/', { host: 'evil.example' })).status).toBe(421);
  });

  it('answers each kind of file with its exact type and caching, the page alone with the CSP and no framing', async () => {
    const types: Record<string, string> = {
      js: 'text/javascript; charset=utf-8',
      css: 'text/css; charset=utf-8',
      json: 'application/json',
      svg: 'image/svg+xml',
      png: 'image/png',
      ico: 'image/x-icon',
      woff2: 'font/woff2',
      map: 'application/json',
      bin: 'application/octet-stream',
    };
    for (const [ext, type] of Object.entries(types)) {
      const r = await get(`/assets/a.${ext}?token=${host.token}`);
      expect([r.status, r.headers['content-type'], r.headers['cache-control'], r.body]).toEqual([200, type, 'max-age=3600', `x${ext}`]);
      expect(r.headers['content-security-policy']).toBeUndefined();
      expect(r.headers['x-frame-options']).toBeUndefined();
      expect(r.headers['set-cookie']).toBeUndefined();
      expect([r.headers['referrer-policy'], r.headers['x-content-type-options']]).toEqual(['no-referrer', 'nosniff']);
    }
    for (const p of ['/', '/index.html', '']) {
      const page = await get(p || '/');
      expect([page.status, page.headers['content-type'], page.headers['cache-control'], page.headers['x-frame-options']]).toEqual([200, 'text/html; charset=utf-8', 'no-store', 'DENY']);
      expect(page.body).toBe('<!doctype html><title>t</title>');
      expect(page.headers['content-security-policy']).toBe(
        [
          "default-src 'self'",
          "script-src 'self'",
          "style-src 'self' 'unsafe-inline'",
          "img-src 'self' data: blob:",
          "font-src 'self'",
          `connect-src 'self' ws://127.0.0.1:${host.port}`,
          "object-src 'none'",
          "base-uri 'none'",
          "frame-ancestors 'none'",
          "form-action 'none'",
        ].join('; '),
      );
    }
    // HEAD: the same headers and no body
    const head = await get('/assets/a.js', {}, 'HEAD');
    expect([head.status, head.headers['content-type'], head.body]).toEqual([200, 'text/javascript; charset=utf-8', '']);
    // the errors are plain, uncached and carry no referrer either
    for (const [p, status, text] of [
      ['/nothing-here.js', 404, 'not found'],
      ['/assets', 404, 'not found'],
      ['/%E0%A4%A', 400, 'bad request path'],
      ['/a%00b.js', 404, 'not found'],
      [`/${'a'.repeat(8 * 1024 - 1)}`, 404, 'not found'],
      [`/${'a'.repeat(8 * 1024)}`, 414, 'URI too long'],
    ] as const) {
      const r = await get(p);
      expect([r.status, r.body, r.headers['content-type'], r.headers['cache-control'], r.headers['referrer-policy']]).toEqual([
        status,
        text,
        'text/plain; charset=utf-8',
        'no-store',
        'no-referrer',
      ]);
    }
    expect((await get('/', {}, 'POST')).status).toBe(405);
    expect((await get('/', { host: `localhost:${host.port}` })).status).toBe(200);
  });
});
