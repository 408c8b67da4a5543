import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_RETAINED, SeqStore } from './seq-store';

const dirs: string[] = [];
const fileIn = () => {
  const d = mkdtempSync(path.join(tmpdir(), 'seq-store-'));
  dirs.push(d);
  return path.join(d, 'fix', 'key.KalshiRT.seq');
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('SeqStore', () => {
  it('a reopened store has the numbers and the kept messages; a torn last line is ignored', () => {
    const file = fileIn();
    const a = new SeqStore(file);
    a.setNextIn(2);
    expect(a.takeOut('A', [], 1, false)).toBe(1);
    expect(a.takeOut('8', [[11, 'x']], 5, true)).toBe(2);
    a.setNextIn(3);
    appendFileSync(file, '{"o":9,"t":"8"'); // the kill landed mid-write
    const b = new SeqStore(file);
    expect([b.nextIn, b.nextOut]).toEqual([3, 3]);
    expect(b.sent.get(2)).toEqual({ msgType: '8', fields: [[11, 'x']], sentAt: 5 });
    expect(b.sent.has(1)).toBe(false);
    a.close();
    b.close();
  });

  it('reset starts both numbers at 1 and forgets the kept messages, also on reopening', () => {
    const file = fileIn();
    const a = new SeqStore(file);
    a.takeOut('8', [], 1, true);
    a.setNextIn(7);
    a.reset();
    a.close();
    const b = new SeqStore(file);
    expect([b.nextIn, b.nextOut, b.sent.size]).toEqual([1, 1, 0]);
    b.close();
  });

  it('compacts a long file to the present state and keeps at most MAX_RETAINED messages', () => {
    const file = fileIn();
    const a = new SeqStore(file);
    for (let i = 0; i < MAX_RETAINED * 4 + 10; i++) a.takeOut('8', [[11, String(i)]], i, true);
    a.close();
    expect(readFileSync(file, 'utf8').split('\n').length).toBeLessThan(MAX_RETAINED * 2);
    const b = new SeqStore(file);
    expect(b.nextOut).toBe(MAX_RETAINED * 4 + 11);
    expect(b.sent.size).toBe(MAX_RETAINED);
    expect(b.sent.get(MAX_RETAINED * 4 + 10)?.fields).toEqual([[11, String(MAX_RETAINED * 4 + 9)]]);
    b.close();
  });

  it('keeps a KalshiRT session\'s owned orders and trader across a reopen, a reset and a compaction', () => {
    const file = fileIn();
    const a = new SeqStore(file);
    const trader = { userId: 'u1', subaccount: null, canWrite: true, useDollars: false };
    a.setTrader(trader);
    a.own('o1');
    a.own('o2');
    a.own('o1', false);
    a.reset();
    for (let i = 0; i < MAX_RETAINED * 4 + 10; i++) a.takeOut('8', [], i, false);
    a.close();
    const b = new SeqStore(file);
    expect([...b.owned]).toEqual(['o2']);
    expect(b.trader).toEqual(trader);
    b.close();
  });
});
