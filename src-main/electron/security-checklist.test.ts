// Electron's security checklist (https://www.electronjs.org/docs/latest/tutorial/security), item
// by item, against what the shell actually applies: the window factory (main window and
// popouts), the session rules, the navigation / new-window / external-link decisions, the IPC
// door's sender check, the protocol and the packaging. Items that cannot apply say why.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  APP_ORIGIN,
  CONTENT_SECURITY_POLICY,
  POPOUT_URL,
  isAllowedRequest,
  isOwnUrl,
  mainWindowOptions,
  passphraseWindowOptions,
  permissionAllowed,
  popoutWindowOptions,
  windowOpenDecision,
} from './security';

const main = readFileSync(new URL('./main.ts', import.meta.url), 'utf8');
const windows = [mainWindowOptions('/app/preload.cjs'), mainWindowOptions('/app/preload.cjs', { width: 1200, height: 800, x: 10, y: 10 }), popoutWindowOptions('/app/preload.cjs')];
const prompt = passphraseWindowOptions().webPreferences!;
/** every window's preferences: main, main with a saved state, popout, and the passphrase prompt (last) */
const prefs = [...windows.map((w) => w.webPreferences!), prompt];

describe("Electron's security checklist, against the window factory and the shell", () => {
  it('1. only secure content: every request must be our own app:// scheme (no http, https or file loads)', () => {
    expect(isAllowedRequest(`${APP_ORIGIN}/index.html`)).toBe(true);
    for (const u of ['http://127.0.0.1:8080/x.js', 'https://cdn.example.com/x.js', 'file:///etc/passwd', 'ws://127.0.0.1/ws', 'ftp://x/y']) expect(isAllowedRequest(u), u).toBe(false);
    expect(main).toContain('s.webRequest.onBeforeRequest((details, callback) => callback({ cancel: !isAllowedRequest(details.url) }))');
  });

  it('2. no Node.js integration in any window, subframe or worker', () => {
    for (const p of prefs) {
      expect(p.nodeIntegration).toBe(false);
      expect(p.nodeIntegrationInSubFrames).toBe(false);
      expect(p.nodeIntegrationInWorker).toBe(false);
    }
  });

  it('3. context isolation in every window', () => {
    for (const p of prefs) expect(p.contextIsolation).toBe(true);
  });

  it('4. process sandboxing in every window', () => {
    for (const p of prefs) expect(p.sandbox).toBe(true);
  });

  it('5. permission requests and checks denied unless listed (only sanitized clipboard writes)', () => {
    for (const perm of ['media', 'geolocation', 'notifications', 'openExternal', 'midi', 'clipboard-read', 'display-capture', 'fullscreen', 'pointerLock', 'hid', 'serial', 'usb']) expect(permissionAllowed(perm), perm).toBe(false);
    expect(permissionAllowed('clipboard-sanitized-write')).toBe(true);
    expect(main).toContain('s.setPermissionRequestHandler((_wc, permission, callback) => callback(permissionAllowed(permission)))');
    expect(main).toContain('s.setPermissionCheckHandler((_wc, permission) => permissionAllowed(permission))');
  });

  it('6. webSecurity stays on', () => {
    for (const p of prefs) expect(p.webSecurity).toBe(true);
  });

  it('7. a Content-Security-Policy on every page we serve: self only, no eval, no plugins, no framing', () => {
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'self'");
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).toContain("object-src 'none'");
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-eval|\*|http:|https:/);
    expect(main).toMatch(/headers\.set\('Content-Security-Policy', CONTENT_SECURITY_POLICY\)/);
  });

  it('8. allowRunningInsecureContent stays off', () => {
    for (const p of prefs) expect(p.allowRunningInsecureContent).toBe(false);
  });

  it('9. no experimental features', () => {
    for (const p of prefs) expect(p.experimentalFeatures).toBe(false);
  });

  it('10. no enableBlinkFeatures', () => {
    for (const p of prefs) expect(p.enableBlinkFeatures).toBeUndefined();
    expect(main).not.toContain('enableBlinkFeatures');
  });

  it('11. no <webview>: the tag is off and any attach is prevented', () => {
    for (const p of prefs) expect(p.webviewTag).toBe(false);
    expect(main).toMatch(/will-attach-webview', \(ev\) => ev\.preventDefault\(\)/);
  });

  it('12. navigation limited to our own origin', () => {
    expect(isOwnUrl(`${APP_ORIGIN}/index.html`)).toBe(true);
    for (const u of ['app://terminal.evil/index.html', 'https://kalshi.com', 'file:///index.html', 'about:blank']) expect(isOwnUrl(u), u).toBe(false);
    expect(main).toMatch(/will-navigate', \(ev, url\) => \{\s*if \(!isOwnUrl\(url\)\) ev\.preventDefault\(\)/);
    for (const p of prefs) expect(p.navigateOnDragDrop).toBe(false);
  });

  it('13. new windows limited: our popout page only (same sandboxed options), nothing else opens a window', () => {
    expect(windowOpenDecision(POPOUT_URL)).toBe('popout');
    expect(windowOpenDecision(`${APP_ORIGIN}/index.html`)).toBe('deny');
    expect(windowOpenDecision('https://evil.example/')).toBe('deny');
    expect(popoutWindowOptions('/p').webPreferences).toEqual(mainWindowOptions('/p').webPreferences);
    expect(main).toMatch(/setWindowOpenHandler/);
  });

  it('14. shell.openExternal only for https links to the known hosts', () => {
    expect(windowOpenDecision('https://docs.kalshi.com/x')).toBe('external');
    for (const u of ['https://evil.example/', 'http://kalshi.com/', 'file:///etc/passwd', 'smb://host/share', 'https://u:p@kalshi.com/']) expect(windowOpenDecision(u), u).toBe('deny');
    // the only call site, behind the decision
    expect(main.match(/shell\.openExternal\(/g)).toHaveLength(1);
    expect(main).toMatch(/if \(decision === 'external'\) void shell\.openExternal\(url\)/);
  });

  it('15. a current Electron (a supported major)', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { devDependencies?: Record<string, string>; dependencies?: Record<string, string> };
    const range = pkg.devDependencies?.electron ?? pkg.dependencies?.electron ?? '';
    expect(Number(/\d+/.exec(range)?.[0] ?? 0)).toBeGreaterThanOrEqual(36);
  });

  it('16. the sender of every IPC message is checked (main frame of our window, showing our origin)', () => {
    expect(main).toMatch(/ipcMain\.handle\('terminal:call'[\s\S]{0,120}if \(!isTrustedSender\(event\)\)/);
    expect(main).toMatch(/frame !== event\.sender\.mainFrame/);
    expect(main).toMatch(/return isOwnUrl\(frame\.url\)/);
  });

  it('17. no file:// pages: the renderer is served from a custom privileged scheme, confined to its directory', () => {
    expect(main).toMatch(/protocol\.handle\(APP_SCHEME/);
    expect(main).toMatch(/if \(!file\.startsWith\(rendererDir \+ path\.sep\)\) return new Response\('not found', \{ status: 404 \}\)/);
    expect(main).toMatch(/loadURL\(`\$\{APP_ORIGIN\}\/index\.html`\)/);
  });

  it('18. fuses: see packaging.test.ts (electron-builder flips them at packaging)', () => {
    const builder = readFileSync(new URL('../../electron-builder.yml', import.meta.url), 'utf8');
    expect(builder).toMatch(/^electronFuses:/m);
  });

  it('19. Electron APIs are not exposed to the page: the preload exposes one typed API and nothing else', () => {
    const preload = readFileSync(new URL('./preload.ts', import.meta.url), 'utf8');
    expect(preload.match(/exposeInMainWorld\(/g)).toHaveLength(1);
    expect(preload).not.toMatch(/exposeInMainWorld\([^)]*ipcRenderer\s*[,)]/);
    for (const p of prefs.slice(0, -1)) expect(p.preload).toBe('/app/preload.cjs');
    expect(prompt.preload).toBeUndefined();
  });

  it('20. the passphrase prompt runs no script and calls nothing: no preload, JavaScript off, its answer is a navigation main cancels', () => {
    expect(prompt.javascript).toBe(false);
    expect(prompt.preload).toBeUndefined();
    const glue = readFileSync(new URL('./passphrase-window.ts', import.meta.url), 'utf8');
    expect(glue).toMatch(/will-navigate', \(ev, url\) => \{\s*ev\.preventDefault\(\);/);
    // the session's rules hold for it as for every window: the answer's address is never requested
    expect(isAllowedRequest('https://passphrase.invalid/answer?action=submit&passphrase=x')).toBe(false);
    expect(main).toMatch(/passphraseForStart\(\{ dir: userData, warning: platformBox\.warning, ask: askPassphraseInWindow/);
  });
});
