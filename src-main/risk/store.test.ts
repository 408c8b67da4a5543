// The risk file across versions: a limit added after a file was written must not cost the
// trader the other stored limits, nor engage the kill switch. Real files in a temp dir.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_RISK_LIMITS, type RiskLimits } from '../../src-shared/ipc/risk';
import { RiskStore } from './store';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'risk-store-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Limits unlike the defaults in every key, so a fallback to a default shows. */
const STORED: RiskLimits = {
  maxOrderContracts: '10',
  maxOrderCost: '50',
  priceCollar: '0.05',
  maxPositionContracts: '40',
  maxOpenOrders: 7,
  maxOpenOrdersPerMarket: 3,
  maxDailyLoss: '25',
  duplicateWindowMs: 900,
  confirmAboveContracts: '5',
  confirmAboveCost: '20',
};
const RELEASED = { engaged: false, since: null, detail: '' };

function put(profile: string, value: unknown): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${profile}.json`);
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
}

function without<K extends keyof RiskLimits>(key: K): Omit<RiskLimits, K> {
  const copy: Partial<RiskLimits> = { ...STORED };
  delete copy[key];
  return copy as Omit<RiskLimits, K>;
}

describe('RiskStore reads older and partial files per key', () => {
  it('keeps the other stored limits and the kill switch as stored when a v1 file lacks one key', () => {
    put('p', { version: 1, limits: without('confirmAboveCost'), killSwitch: RELEASED });
    const store = new RiskStore(dir);
    expect(store.limits('p')).toEqual({ ...STORED, confirmAboveCost: DEFAULT_RISK_LIMITS.confirmAboveCost });
    expect(store.killSwitch('p')).toEqual(RELEASED);
    expect(store.problems.join('\n')).toContain('confirmAboveCost');
  });

  it('keeps an engaged kill switch engaged, with its own time and reason', () => {
    const engaged = { engaged: true, since: 1_700_000_000_000, detail: 'canceled 3 orders' };
    put('p', { version: 1, limits: without('maxDailyLoss'), killSwitch: engaged });
    const store = new RiskStore(dir);
    expect(store.killSwitch('p')).toEqual(engaged);
    expect(store.limits('p').maxOrderContracts).toBe('10');
  });

  it('reads a complete v1 file as it was', () => {
    put('p', { version: 1, limits: STORED, killSwitch: RELEASED });
    const store = new RiskStore(dir);
    expect(store.limits('p')).toEqual(STORED);
    expect(store.killSwitch('p')).toEqual(RELEASED);
    expect(store.problems).toEqual([]);
  });

  it('sets one bad value back to its default only, and says which', () => {
    put('p', { version: 2, limits: { ...STORED, priceCollar: '7', maxOpenOrders: 'many' }, killSwitch: RELEASED });
    const store = new RiskStore(dir);
    expect(store.limits('p')).toEqual({ ...STORED, priceCollar: DEFAULT_RISK_LIMITS.priceCollar, maxOpenOrders: DEFAULT_RISK_LIMITS.maxOpenOrders });
    expect(store.killSwitch('p')).toEqual(RELEASED);
    const said = store.problems.join('\n');
    expect(said).toMatch(/priceCollar.*default 0\.10/);
    expect(said).toMatch(/maxOpenOrders.*default 200/);
  });

  it('reports and ignores a key it does not know', () => {
    put('p', { version: 2, limits: { ...STORED, maxGammaExposure: '9' }, killSwitch: RELEASED });
    const store = new RiskStore(dir);
    expect(store.limits('p')).toEqual(STORED);
    expect(store.limits('p')).not.toHaveProperty('maxGammaExposure');
    expect(store.problems.join('\n')).toContain('maxGammaExposure');
  });

  it('still fails safe on a file it cannot read at all: defaults and the kill switch engaged', () => {
    for (const [name, body] of [
      ['broken', '{"version": 2, "limits": '],
      ['not-object', '[1,2,3]'],
      ['future', JSON.stringify({ version: 99, limits: STORED, killSwitch: RELEASED })],
      ['bad-switch', JSON.stringify({ version: 2, limits: STORED, killSwitch: { engaged: 'no' } })],
      ['no-limits', JSON.stringify({ version: 2, limits: 'all of them', killSwitch: RELEASED })],
    ] as const) {
      put(name, body);
      const store = new RiskStore(dir);
      expect(store.limits(name), name).toEqual(DEFAULT_RISK_LIMITS);
      expect(store.killSwitch(name).engaged, name).toBe(true);
      expect(store.killSwitch(name).detail, name).toContain('could not be read');
    }
  });

  it('starts a profile without a file on the defaults, released, and says nothing', () => {
    const store = new RiskStore(dir);
    expect(store.limits('fresh')).toEqual(DEFAULT_RISK_LIMITS);
    expect(store.killSwitch('fresh')).toEqual(RELEASED);
    expect(store.problems).toEqual([]);
  });

  it('writes version 2 with every limit, and reads back exactly what it wrote', () => {
    const file = put('p', { version: 1, limits: without('duplicateWindowMs'), killSwitch: RELEASED });
    const store = new RiskStore(dir);
    const next = { ...store.limits('p'), maxOrderCost: '60.5' };
    store.setLimits('p', next);
    const engaged = { engaged: true, since: 1_700_000_000_123, detail: 'canceled 1 order' };
    store.setKillSwitch('p', engaged);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ version: 2, limits: next, killSwitch: engaged });
    const again = new RiskStore(dir);
    expect(again.limits('p')).toEqual(next);
    expect(again.killSwitch('p')).toEqual(engaged);
    expect(again.problems).toEqual([]);
  });
});
