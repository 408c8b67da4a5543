import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { ALLOWED_PERMISSIONS, CONTENT_SECURITY_POLICY, isExternalLink, isOwnUrl, secureWebPreferences } from './security';

describe('window security settings', () => {
  it('isolates and sandboxes every window', () => {
    const p = secureWebPreferences('/x/preload.cjs');
    expect(p.contextIsolation).toBe(true);
    expect(p.sandbox).toBe(true);
    expect(p.nodeIntegration).toBe(false);
    expect(p.nodeIntegrationInSubFrames).toBe(false);
    expect(p.webSecurity).toBe(true);
    expect(p.allowRunningInsecureContent).toBe(false);
    expect(p.webviewTag).toBe(false);
  });

  it('denies permissions by default', () => {
    for (const perm of ['media', 'geolocation', 'notifications', 'openExternal', 'midi', 'clipboard-read']) expect(ALLOWED_PERMISSIONS.has(perm)).toBe(false);
  });

  it('uses a strict CSP: self only, no eval, no remote connections', () => {
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).toContain("connect-src 'self'");
    expect(CONTENT_SECURITY_POLICY).toContain("object-src 'none'");
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval');
  });

  it("navigates only within the app origin; only https links to the exchange's known sites leave, to the browser", () => {
    expect(isOwnUrl('app://terminal/index.html')).toBe(true);
    expect(isOwnUrl('app://terminal.evil/index.html')).toBe(false);
    expect(isOwnUrl('https://example.com')).toBe(false);
    expect(isExternalLink('https://docs.kalshi.com/getting_started')).toBe(true);
    expect(isExternalLink('https://kalshi.com/markets')).toBe(true);
    for (const bad of [
      'https://example.com/docs', // not a known host
      'https://docs.kalshi.com.evil.example/x', // suffix trick
      'https://evil.kalshi.com/x', // unlisted subdomain
      'https://user:pw@docs.kalshi.com/x', // credentials in the URL
      'https://docs.kalshi.com:8443/x', // another port
      'http://docs.kalshi.com/x', // not https
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://docs.kalshi.com/share',
      'not a url',
    ]) {
      expect(isExternalLink(bad), bad).toBe(false);
    }
  });

  it('the preload exposes only TerminalApi and requires nothing but electron', () => {
    const src = readFileSync(new URL('./preload.ts', import.meta.url), 'utf8');
    expect(src.match(/exposeInMainWorld\(/g)).toHaveLength(1);
    const imports = [...src.matchAll(/from '([^']+)'/g)].map((m) => m[1]);
    expect(imports.filter((i) => !i!.startsWith('../../src-shared/'))).toEqual(['electron']);
  });
});
