// Every published example in the fixture corpus is read through the reader the terminal's stream
// uses (readStreamFrame, liberal): none is "malformed", what the terminal relies on comes out with
// the published values, and what the spec does not name is kept and noted, never an error.
/* eslint-disable local/floors -- the test reads the corpus from disk */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Fixture } from './fixtures';
import { readStreamFrame } from './stream';

const dir = path.join(__dirname, 'fixtures', 'ws');
const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
const load = (file: string): Fixture => ({ file, ...(JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Omit<Fixture, 'file'>) });
const fixtures = files.map(load);
const byFile = (f: string) => fixtures.find((x) => x.file === f)!;
const read = (f: string) => {
  const r = readStreamFrame(JSON.stringify(byFile(f).example));
  if (!r.ok) throw new Error(`${f}: ${r.reason}`);
  return r;
};

describe('the published WebSocket examples', () => {
  it('are all here, each with its source and the date it was read', () => {
    expect(files.length).toBeGreaterThanOrEqual(12);
    for (const f of fixtures) {
      expect(f.kind, f.file).toBe('ws');
      expect(f.source, f.file).toMatch(/kalshi/i);
      expect(f.retrieved, f.file).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(f.example, f.file).toBeTypeOf('object');
    }
  });

  it.each(files)('%s reads without a "malformed"', (file) => {
    const r = readStreamFrame(JSON.stringify(byFile(file).example));
    expect(r.ok, r.ok ? '' : r.reason).toBe(true);
  });

  it('orderbook snapshot: levels from the *_dollars_fp arrays, the legacy cent arrays noted as extra', () => {
    const r = read('orderbook_snapshot.json');
    expect(r.msg.type).toBe('orderbook_snapshot');
    if (r.msg.type !== 'orderbook_snapshot') return;
    expect(r.msg.seq).toBe(2);
    expect(r.msg.msg.market_ticker).toBe('FED-23DEC-T3.00');
    expect(JSON.stringify(r.msg.msg)).toContain('0.0800');
    expect(JSON.stringify(r.msg.msg)).toContain('146.00');
  });

  it('orderbook delta: price, signed size, side and an RFC 3339 ts', () => {
    const r = read('orderbook_delta.json');
    expect(r.msg.type).toBe('orderbook_delta');
    if (r.msg.type !== 'orderbook_delta') return;
    expect(r.msg.seq).toBe(3);
    expect(r.msg.msg).toMatchObject({ market_ticker: 'FED-23DEC-T3.00', side: 'yes' });
    expect(JSON.stringify(r.msg.msg)).toContain('-54.00');
  });

  it('a fill that names no fee, and a user order without fee fields, are read', () => {
    const fill = read('fill.json');
    expect(fill.msg.type).toBe('fill');
    expect(JSON.stringify(fill.msg)).toContain('278.00');
    const order = read('user_order.json');
    expect(order.msg.type).toBe('user_order');
    expect(JSON.stringify(order.msg)).toContain('ee587a1c-8b87-4dcf-b721-9f6f790619fa');
  });

  it('lifecycle events the spec does not list (metadata_updated) are kept as such', () => {
    const r = read('market_lifecycle_v2_metadata_updated.json');
    expect(r.msg.type).toBe('market_lifecycle_v2');
    expect(JSON.stringify(r.msg)).toContain('metadata_updated');
    expect(JSON.stringify(r.msg)).toContain('95250');
  });

  it('message types the spec does not list pass on as unknown, with their sid', () => {
    const types = fixtures.map((f) => (f.example as { type: string }).type);
    for (const f of fixtures) {
      const r = readStreamFrame(JSON.stringify(f.example));
      if (r.ok && r.msg.type === 'unknown') {
        expect(types).toContain(r.msg.unknownType);
        expect(r.novelties.some((n) => n.kind === 'type')).toBe(true);
        expect(r.msg.frame).toEqual(f.example);
      }
    }
  });

  it('extra fields are noted as novelties, not refused', () => {
    const r = read('ticker.json');
    expect(r.msg.type).toBe('ticker');
    expect(r.novelties.length).toBeGreaterThan(0);
  });
});
