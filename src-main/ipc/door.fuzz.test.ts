// Hostile input at main's two front doors, generated (fast-check, seeded): 10,000 calls at the
// IPC door (any method name, any arguments) and 10,000 frames at the stream parser. The door
// never throws, answers every call with a typed result, and a refused call changes nothing on
// disk; the parser never throws and never moves a book on a frame it refused.
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { methodArgs } from '../../src-shared/ipc/contract';
import { startTerminal, type RunningTerminal } from '../app/terminal';
import { FileKeyBox } from '../vault/secret-box';
import { BookMachine } from '../market/books';
import { FrameIngest } from '../market/frame';

const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
let terminal: RunningTerminal;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'door-fuzz-'));
  terminal = await startTerminal({ dataDir, box: new FileKeyBox(dataDir), shell: 'web', emit: () => {} });
});
afterAll(async () => {
  await terminal?.stop();
});

/** Every file under the data dir with its bytes: what "nothing changed" is checked against. */
function diskState(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[path.relative(dir, p)] = `${statSync(p).size}:${readFileSync(p).toString('base64')}`;
    }
  };
  walk(dir);
  return out;
}

const methods = Object.keys(methodArgs);

describe('IPC door fuzz', () => {
  it('10,000 generated calls: typed answers only, never a throw, and refusals change nothing on disk', async () => {
    const before = diskState(dataDir);
    const calls = fc.sample(
      fc.tuple(
        fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...methods) }, { weight: 1, arbitrary: fc.string({ maxLength: 30 }) }, { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf') }),
        // never the empty argument list: the door's zero-argument methods (kill switch, cancel all)
        // are the trader's real commands; everything else gets arguments it must refuse or parse
        fc.oneof(fc.anything(), fc.array(fc.anything({ maxDepth: 3 }), { minLength: 1, maxLength: 3 })),
      ),
      { numRuns: 10_000, seed: SEED },
    );
    let ok = 0;
    let refused = 0;
    for (const [method, args] of calls) {
      const r = await terminal.door(method, args);
      expect(typeof r).toBe('object');
      if (r.ok) ok++;
      else {
        refused++;
        expect(['validation', 'state', 'api', 'network', 'risk']).toContain(r.error.kind);
        expect(typeof r.error.message).toBe('string');
        expect(r.error.message.length).toBeGreaterThan(0);
      }
    }
    expect(refused).toBeGreaterThan(9_000);
    // what succeeded is read-only (no session, no profile): the disk is byte for byte the same
    expect(ok).toBeLessThan(500);
    expect(diskState(dataDir)).toEqual(before);
  }, 120_000);
});

describe('stream parser fuzz', () => {
  it('10,000 generated frames: never a throw; a refused frame moves no book', () => {
    const machine = new BookMachine();
    const ingest = new FrameIngest(machine);
    // a book to protect
    ingest.ingest(JSON.stringify({ type: 'orderbook_snapshot', sid: 1, seq: 1, msg: { market_ticker: 'FZ', yes_dollars_fp: [['0.4000', '10.00']], no_dollars_fp: [['0.5000', '5.00']] } }));
    const frameArb = fc.oneof(
      { weight: 2, arbitrary: fc.string({ maxLength: 200 }) },
      { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)) },
      {
        weight: 4,
        arbitrary: fc
          .record(
            {
              type: fc.constantFrom('orderbook_delta', 'orderbook_snapshot', 'ticker', 'trade', 'fill', 'error', 'subscribed', 'ok', 'market_lifecycle_v2', 'user_order', 'x'),
              sid: fc.oneof(fc.constant(1), fc.integer(), fc.string({ maxLength: 3 })),
              seq: fc.oneof(fc.integer({ min: -2, max: 5 }), fc.double(), fc.constant(null)),
              msg: fc.record(
                {
                  market_ticker: fc.oneof(fc.constant('FZ'), fc.string({ maxLength: 10 })),
                  price_dollars: fc.oneof(fc.constantFrom('0.4000', '0.40', '1.0001', '-0.1', '0.00001', 'NaN', ''), fc.double().map(String)),
                  delta_fp: fc.oneof(fc.constantFrom('1.00', '-100.00', '0.001', '1e3', ''), fc.integer().map(String)),
                  side: fc.constantFrom('yes', 'no', 'maybe'),
                  yes_dollars_fp: fc.array(fc.tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 })), { maxLength: 3 }),
                },
                { requiredKeys: [] },
              ),
            },
            { requiredKeys: [] },
          )
          .map((v) => JSON.stringify(v)),
      },
    );
    const frames = fc.sample(frameArb, { numRuns: 10_000, seed: SEED });
    for (const text of frames) {
      const bookBefore = JSON.stringify(machine.book('FZ')?.top(50) ?? null);
      const r = ingest.ingest(text);
      expect(r).toBeDefined();
      if (r.message === undefined) {
        // refused (malformed): the book is as it was
        expect(JSON.stringify(machine.book('FZ')?.top(50) ?? null)).toBe(bookBefore);
      }
    }
    expect(machine.stats.malformed).toBeGreaterThan(1_000);
  });
});
