// The quick variant of `npm run fuzz` (src-exchange/fuzz/cli.ts runs 100,000 REST requests and
// 20,000 stream frames): generated hostile requests and frames against a real exchange on
// 127.0.0.1, one at a time so that any state change pins to its request. No 5xx, every refusal
// with the error body, no refusal journals a record, the exchange still answers afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestExchange, type TestExchange } from '../../test-support/exchange/harness';
import { fuzzRest, fuzzWs } from './fuzz';

let t: TestExchange;
beforeAll(async () => {
  t = await startTestExchange({ sim: false, rateLimits: false });
});
afterAll(async () => {
  await t?.close();
});

const SEED = Number(process.env.FUZZ_SEED ?? 20261125);

describe('fuzz (quick)', () => {
  it('REST: 2,500 generated requests, no 5xx, every refusal an error body that changed nothing', async () => {
    const r = await fuzzRest(t.ex, t.account('trader'), 2_500, SEED);
    expect(r.failures).toEqual([]);
    expect(r.sent).toBeGreaterThan(2_000);
    // the generator reaches past the auth gate: validation and not-found answers, not only 401s
    expect(r.byStatus['400'] ?? 0).toBeGreaterThan(100);
    expect(r.byStatus['401'] ?? 0).toBeGreaterThan(100);
    expect(r.byStatus['404'] ?? 0).toBeGreaterThan(50);
    const balance = await t.client('trader').getBalance();
    expect(typeof balance.balance).toBe('number');
  }, 120_000);

  it('WebSocket: 1,500 generated frames, the socket stays usable and nothing is journaled', async () => {
    const r = await fuzzWs(t.ex, t.account('trader'), 1_500, SEED);
    expect(r.failures).toEqual([]);
    expect(r.sent).toBe(1_500);
  }, 120_000);
});
