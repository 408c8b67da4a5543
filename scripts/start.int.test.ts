// `npm ci && npm start` on a machine that cannot download Electron's binary: the install step
// says why and succeeds, and start serves the terminal in a browser, saying why it is not the
// desktop window. Both run as a user runs them (the real scripts, a real failed download).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { electronBinary, root } from './electron-binary.mjs';

const dirs: string[] = [];
const tmp = (p: string) => {
  const d = mkdtempSync(path.join(tmpdir(), p));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('without an Electron binary', () => {
  it('the install step reports a failed download and exits 0', () => {
    if (electronBinary().ok) {
      // a machine with the binary has nothing to download: the step must say nothing and succeed
      const r = spawnSync(process.execPath, ['scripts/postinstall.mjs'], { cwd: root, encoding: 'utf8' });
      expect(r.status).toBe(0);
      expect(r.stdout).toBe('');
      return;
    }
    const env = { ...process.env, ELECTRON_MIRROR: 'http://127.0.0.1:9/', electron_config_cache: tmp('electron-cache-') };
    delete (env as NodeJS.ProcessEnv).ELECTRON_SKIP_BINARY_DOWNLOAD;
    const r = spawnSync(process.execPath, ['scripts/postinstall.mjs'], { cwd: root, encoding: 'utf8', env, timeout: 120_000 });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/electron: the binary could not be downloaded \(.+\)\./);
    expect(r.stdout).toContain('`npm start` will serve the terminal in a browser');
    expect(electronBinary().ok).toBe(false);
  });

  it('with ELECTRON_SKIP_BINARY_DOWNLOAD the install step says so and exits 0', () => {
    if (electronBinary().ok) return expect(electronBinary().ok).toBe(true);
    const r = spawnSync(process.execPath, ['scripts/postinstall.mjs'], { cwd: root, encoding: 'utf8', env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' } });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('binary download skipped (ELECTRON_SKIP_BINARY_DOWNLOAD is set)');
  });

  it('npm start serves the terminal through the web host, prints its URL and says why', async () => {
    const dataDir = tmp('start-web-');
    // EVENT_TERMINAL_WEB forces the browser path where a binary exists; a PATH holding only node
    // (no browser opener) shows the fallback message instead of launching a browser.
    const bin = tmp('start-path-');
    symlinkSync(process.execPath, path.join(bin, 'node'));
    const env = { ...process.env, EVENT_TERMINAL_WEB: electronBinary().ok ? '1' : '', PATH: bin };
    const child = spawn(process.execPath, ['scripts/start.mjs', '--port', '0', '--data-dir', dataDir, '--no-sim'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: string[] = [];
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no URL:\n${out.join('')}`)), 150_000);
        const on = (d: Buffer) => {
          out.push(d.toString());
          const m = /terminal at (http:\/\/127\.0\.0\.1:\d+\/\?token=\w+)/.exec(out.join(''));
          if (m && /could not open a browser/.test(out.join(''))) {
            clearTimeout(timer);
            resolve(m[1]!);
          }
        };
        child.stdout.on('data', on);
        child.stderr.on('data', on);
        child.once('exit', (code) => reject(new Error(`start exited ${code}:\n${out.join('')}`)));
      });
      const text = out.join('');
      expect(text).toMatch(/start: not the desktop window because .+: serving the terminal in a browser instead\./);
      const page = await fetch(url);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('<div id="root">');
      // the page it serves is React's production build, though this test (and so the build
      // start.mjs ran) has NODE_ENV=test: a development build checks every render (about twice
      // the page's CPU), and it was what the e2e specs and benches served after this test ran
      const src = /<script[^>]+src="([^"]+\.js)"/.exec(html)?.[1];
      expect(src, 'the page names its script').toBeTruthy();
      const cookie = page.headers.get('set-cookie')?.split(';')[0] ?? '';
      const script = await fetch(new URL(src!, url), { headers: cookie ? { cookie } : {} });
      expect(script.status).toBe(200);
      const code = await script.text();
      expect(process.env.NODE_ENV).toBe('test');
      expect(code.includes('createRoot'), 'the script is the app').toBe(true);
      expect(code.includes('react_stack_bottom_frame'), "the script holds React's development build").toBe(false);
      expect(/columnNumber:\s*\d/.test(code), 'the JSX was compiled for development (source positions)').toBe(false);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    }
  }, 180_000);
});
