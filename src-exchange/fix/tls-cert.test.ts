import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureFixCertificate } from './tls-cert';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('ensureFixCertificate', () => {
  it('makes a certificate for 127.0.0.1 once and keeps it (a client can pin it across restarts)', async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'fix-cert-')), 'fix');
    dirs.push(path.dirname(dir));
    const first = await ensureFixCertificate(dir);
    const x = new X509Certificate(first.cert);
    expect(x.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(new Date(x.validTo).getTime()).toBeGreaterThan(Date.now() + 365 * 86_400_000);
    expect(statSync(path.join(dir, 'tls-key.pem')).mode & 0o077).toBe(0);
    const again = await ensureFixCertificate(dir);
    expect(again.cert).toBe(first.cert);
    expect(again.certPath).toBe(first.certPath);
  });
});
