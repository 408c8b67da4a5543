// The audit journal: append-only lines read newest first, a torn last line skipped, rotation by
// size keeping N files, filters, and no key material ever written.
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src-shared/ipc/risk';
import { AuditJournal } from './journal';

const entry = (o: Partial<AuditEntry> = {}): AuditEntry => ({
  ts: Date.now(),
  profileId: 'p1',
  keyId: 'key-1',
  action: 'place',
  origin: 'ticket',
  ticker: 'KX-1',
  asked: { side: 'bid', price: '0.5', count: '1' },
  gate: 'passed',
  clientOrderId: 'c1',
  outcome: 'ok',
  answer: 'order o1',
  latencyMs: 3,
  ...o,
});

describe('audit journal', () => {
  it('reads back what was appended, newest first, with filters', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'audit-'));
    const j = new AuditJournal(dir);
    j.append(entry({ ts: 1, ticker: 'A', outcome: 'ok' }));
    j.append(entry({ ts: 2, ticker: 'B', outcome: 'refused', action: 'place' }));
    j.append(entry({ ts: 3, ticker: 'A', outcome: 'ok', action: 'cancel' }));
    expect(j.read('p1').map((e) => e.ts)).toEqual([3, 2, 1]);
    expect(j.read('p1', { ticker: 'A' }).map((e) => e.ts)).toEqual([3, 1]);
    expect(j.read('p1', { outcome: 'refused' }).map((e) => e.ts)).toEqual([2]);
    expect(j.read('p1', { action: 'cancel' }).map((e) => e.ts)).toEqual([3]);
    expect(j.read('p1', { limit: 1 }).map((e) => e.ts)).toEqual([3]);
    expect(j.read('other')).toEqual([]);
    if (process.platform !== 'win32') expect(statSync(path.join(dir, 'p1.jsonl')).mode & 0o777).toBe(0o600);
  });

  it('tolerates a torn last line from a crash and keeps appending after it', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'audit-'));
    const j = new AuditJournal(dir);
    j.append(entry({ ts: 1 }));
    appendFileSync(path.join(dir, 'p1.jsonl'), '{"ts":2,"profileId":"p1","act');
    expect(j.read('p1').map((e) => e.ts)).toEqual([1]);
    j.append(entry({ ts: 3 }));
    expect(j.read('p1').map((e) => e.ts)).toEqual([3, 1]);
  });

  it('rotates by size and keeps only N older files', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'audit-'));
    const j = new AuditJournal(dir, { maxBytes: 600, keep: 2 });
    for (let ts = 1; ts <= 40; ts++) j.append(entry({ ts }));
    const files = readdirSync(dir).sort();
    expect(files).toEqual(['p1.1.jsonl', 'p1.2.jsonl', 'p1.jsonl']);
    const all = j.read('p1', { limit: 5000 }).map((e) => e.ts);
    expect(all[0]).toBe(40);
    expect(all.length).toBeLessThan(40);
    expect(all).toEqual([...all].sort((a, b) => b - a));
  });

  it('never writes a private key, even when one is in what was asked', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'audit-'));
    const j = new AuditJournal(dir);
    j.append(entry({ asked: { note: '-----BEGIN PRIVATE KEY-----\nMIIE...\n-----END PRIVATE KEY-----' } }));
    const text = readFileSync(path.join(dir, 'p1.jsonl'), 'utf8');
    expect(text).not.toContain('PRIVATE KEY');
    expect(j.read('p1')[0]?.asked).toEqual({ redacted: 'key material' });
  });
  it('writes lines queued in one turn together right after it, and a read sees them at once', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'audit-'));
    const j = new AuditJournal(dir);
    j.appendSoon(entry({ ts: 1 }));
    j.appendSoon(entry({ ts: 2, profileId: 'p2' }));
    j.appendSoon(entry({ ts: 3 }));
    expect(readdirSync(dir)).toEqual([]); // nothing waited for the disk in this turn
    expect(j.read('p1').map((e) => e.ts)).toEqual([3, 1]); // a read writes the queue first
    j.appendSoon(entry({ ts: 4, asked: { note: '-----BEGIN PRIVATE KEY-----x' } }));
    await new Promise((r) => setImmediate(r));
    const text = readFileSync(path.join(dir, 'p1.jsonl'), 'utf8');
    expect(text.trim().split('\n').map((l) => (JSON.parse(l) as AuditEntry).ts)).toEqual([1, 3, 4]);
    expect(text).not.toContain('PRIVATE KEY');
    expect(readFileSync(path.join(dir, 'p2.jsonl'), 'utf8')).toContain('"ts":2');
  });
});
