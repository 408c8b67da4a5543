// The official SDK (kalshi-typescript) as the embedded exchange's contract test. Every operation
// the SDK's API classes have is called through the SDK itself (its own request encoding and its
// own KALSHI- signing) against a real exchange on 127.0.0.1 port 0, and every answer is checked
// against the SDK's models as read from its models/*.ts source (sdk/models.ts). The only
// allowed differences are the spec overrides in sdk/overrides.ts, each with the spec line that
// decides it; the SDK's operations beyond the spec's 112 must answer 404 (sdk/scenario-public.ts
// NOT_PROVIDED). A new SDK operation, a new mismatch or an override no longer needed fails here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestExchange, type TestExchange } from '../test-support/exchange/harness';
import { sdkClient } from './sdk/clients';
import { loadSdkModels, loadSdkOperations } from './sdk/models';
import { ENVELOPE_OVERRIDES, FIELD_OVERRIDES, overrideFor, type FieldOverride } from './sdk/overrides';
import { at, Recorder, type RecordedCall } from './sdk/recorder';
import { archivedActivity, freshMarket, settle } from './sdk/scenario-setup';
import { collectionOps, eventOps, exchangeOps, historicalOps, liveDataOps, marketOps, NOT_PROVIDED, notProvidedOps } from './sdk/scenario-public';
import { crossOps, orderGroupOps, orderOps, portfolioOps, subaccountOps } from './sdk/scenario-trading';
import { accountOps, apiKeyOps, communicationsOps, fcmOps } from './sdk/scenario-accounts';
import { validateModel, type Mismatch } from './sdk/validate';
import { placeSubtraderOrder } from '../src-exchange/handlers/fcm';

const sdk = loadSdkModels();
const operations = loadSdkOperations();
const notProvided = new Set<string>(NOT_PROVIDED);

let t: TestExchange;
const rec = new Recorder();

async function scenario(): Promise<void> {
  const trader = sdkClient(t.ex.baseUrl, t.account('trader'));
  const counterparty = sdkClient(t.ex.baseUrl, t.account('counterparty'));
  const fcm = sdkClient(t.ex.baseUrl, t.account('fcm'));
  const ids = { trader: t.account('trader').user_id, counterparty: t.account('counterparty').user_id };

  const archivedTicker = await archivedActivity(t);
  const traded = await freshMarket(t, 'KXCPI', 'SDKT');
  const settled = await freshMarket(t, 'KXCPI', 'SDKS');
  const rail = await freshMarket(t, 'KXMAYOR', 'SDKR');

  // trading first: the reads after it see fills, positions, candles and the tape
  await crossOps(rec, trader, counterparty, traded.ticker, '0.40');
  await crossOps(rec, trader, counterparty, settled.ticker, '0.60');
  await settle(t, settled.ticker);
  await orderOps(rec, trader, traded.ticker, traded.event);
  await orderGroupOps(rec, trader, traded.ticker);
  await communicationsOps(rec, trader, counterparty, ids, rail.ticker);
  await fcmOps(rec, fcm, async (subtraderId) => {
    const fcmUserId = t.account('fcm').user_id;
    await placeSubtraderOrder(t.ex.svc, { fcmUserId, subtraderId, order: { ticker: rail.ticker, side: 'bid', priceTicks: 5000, countCenti: 1000 } });
    await placeSubtraderOrder(t.ex.svc, { fcmUserId, subtraderId, order: { ticker: rail.ticker, side: 'bid', priceTicks: 2000, countCenti: 500 } });
    // the counterparty sells into the first bid: the subtrader has a fill and a position
    await rec.ok('createOrderV2', counterparty.orders.createOrderV2({
      ticker: rail.ticker,
      side: 'ask',
      count: '10',
      price: '0.50',
      time_in_force: 'immediate_or_cancel',
      self_trade_prevention_type: 'taker_at_cross',
    }));
  });
  await portfolioOps(rec, trader, fcm, settled.ticker);
  await subaccountOps(rec, trader);
  await apiKeyOps(rec, trader);
  await accountOps(rec, trader);

  const seasonedTicker = t.ex.svc.node.core.engine.listMarkets({ status: 'open', seriesTicker: 'KXMAYOR' })[0]!.ticker;
  const facts = { tradedTicker: traded.ticker, tradedEvent: traded.event, tradedSeries: 'KXCPI', archivedTicker, seasonedTicker };
  await exchangeOps(rec, trader);
  await marketOps(rec, trader, facts);
  await eventOps(rec, trader, facts);
  await collectionOps(rec, trader);
  await historicalOps(rec, trader, facts);
  const milestones = (await trader.events.getEvents(200, undefined, false, true)).data.milestones ?? [];
  await liveDataOps(rec, trader, milestones);
  await notProvidedOps(rec, trader, milestones[0]!.id);
}

beforeAll(async () => {
  t = await startTestExchange();
  await scenario();
}, 300_000);
afterAll(async () => {
  await t?.close();
});

interface Finding {
  mismatch: Mismatch;
  value: unknown;
  override?: FieldOverride;
}

/**
 * The answer as the SDK's model frames it: where the spec answers a bare array or value and the
 * SDK an envelope object (ENVELOPE_OVERRIDES), the bare answer is put under the SDK's key so its
 * items are still validated against the SDK's item model.
 */
function bodyOf(call: RecordedCall): { body: unknown; enveloped: boolean } {
  const envelope = ENVELOPE_OVERRIDES.find((e) => e.op === call.op);
  const bare = Array.isArray(call.data) || typeof call.data !== 'object' || call.data === null;
  return envelope && bare ? { body: { [envelope.key]: call.data }, enveloped: true } : { body: call.data, enveloped: false };
}

/** Validates one recorded answer against the operation's response model. */
function findings(call: RecordedCall, response: string): Finding[] {
  if (!sdk.models.has(response)) return [];
  const { body } = bodyOf(call);
  return validateModel(sdk, response, body).map((m) => {
    const value = at(body, m.at.replace(/\[(\d+)\]/g, '.$1'));
    const override = overrideFor(m, value);
    return { mismatch: m, value, ...(override ? { override } : {}) };
  });
}

const provided = operations.filter((o) => !notProvided.has(o.name));

describe('the official SDK against the embedded exchange', () => {
  it('drives every operation the SDK has, and no other', () => {
    expect([...new Set(rec.calls.map((c) => c.op))].sort()).toEqual(operations.map((o) => o.name).sort());
  });

  it.each(provided.map((o) => [o.name, o.response] as const))('%s answers 2xx in the form of the SDK model %s', (op, response) => {
    const calls = rec.byOp(op);
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) {
      expect(call.status, JSON.stringify(call.data)).toBeGreaterThanOrEqual(200);
      expect(call.status).toBeLessThan(300);
      if (response === 'object') expect(typeof call.data === 'object' && call.data !== null && !Array.isArray(call.data), `${op} answers an object`).toBe(true);
      const { body } = bodyOf(call);
      for (const path of call.nonEmpty) expect((at(body, path) as unknown[] | undefined)?.length ?? 0, `${op}: ${path} has items to validate`).toBeGreaterThan(0);
      const unexplained = findings(call, response)
        .filter((f) => !f.override)
        .map((f) => `${f.mismatch.model}.${f.mismatch.field} [${f.mismatch.kind}] at ${f.mismatch.at}: ${f.mismatch.detail}`);
      expect([...new Set(unexplained)]).toEqual([]);
    }
  });

  it.each([...NOT_PROVIDED])('%s (beyond the spec’s 112 operations) answers 404 with the error body', (op) => {
    const calls = rec.byOp(op);
    expect(calls.length).toBe(1);
    expect(calls[0]!.status).toBe(404);
    expect(calls[0]!.data).toMatchObject({ error: { code: 'not_found', message: expect.any(String) } });
  });

  it('needs every listed spec override (none is stale)', () => {
    const used = new Set<FieldOverride>();
    const envelopes = new Set<string>();
    for (const o of provided) {
      for (const call of rec.byOp(o.name)) {
        for (const f of findings(call, o.response)) if (f.override) used.add(f.override);
        if (bodyOf(call).enveloped) envelopes.add(o.name);
      }
    }
    expect(FIELD_OVERRIDES.filter((o) => !used.has(o)).map((o) => `${o.model}.${o.field} [${o.kind}]`)).toEqual([]);
    expect(ENVELOPE_OVERRIDES.filter((e) => !envelopes.has(e.op)).map((e) => e.op)).toEqual([]);
  });
});
