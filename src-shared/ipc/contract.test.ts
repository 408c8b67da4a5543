import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { channels, METHOD_NAMES, methodArgs, methodChannel, OrderDraft, DecreaseInput, ProfileInput, ImportKeyInput } from './contract';
import { flatten, method } from './method';

describe('TerminalApi contract', () => {
  it('derives the names, the argument table and the channel of each method from the channels', () => {
    const declared = Object.entries(channels).flatMap(([c, ms]) => Object.keys(ms).map((m) => `${c}.${m}`));
    expect(METHOD_NAMES.map((m) => `${methodChannel[m]}.${m}`).sort()).toEqual(declared.sort());
    expect(Object.keys(methodArgs).sort()).toEqual([...METHOD_NAMES].sort());
    for (const m of METHOD_NAMES) expect(methodArgs[m]).toBe((channels as Record<string, Record<string, { args: unknown }>>)[methodChannel[m]]![m]!.args);
  });

  it('refuses a method name declared by two channels', () => {
    const twice = { a: { ping: method().returns() }, b: { ping: method(z.string()).returns() } };
    expect(() => flatten(twice)).toThrow(/ping is declared by both a and b/);
  });

  it("a method's arguments are a tuple of its schemas, a trailing optional one may be left out", () => {
    expect(methodArgs.getAppState.safeParse([]).success).toBe(true);
    expect(methodArgs.getAppState.safeParse(['x']).success).toBe(false);
    expect(methodArgs.deleteProfile.safeParse(['p-1']).success).toBe(true);
    expect(methodArgs.deleteProfile.safeParse([]).success).toBe(false);
    expect(methodArgs.saveRiskLimits.safeParse([{}]).success).toBe(false);
  });

  it('rejects an order draft with an unknown field, a sub-tick price or a fractional centi count', () => {
    const good = { ticker: 'T-1', side: 'bid', price: '0.5300', count: '10' };
    expect(OrderDraft.safeParse(good).success).toBe(true);
    expect(OrderDraft.safeParse({ ...good, client_order_id: 'x' }).success).toBe(false);
    expect(OrderDraft.safeParse({ ...good, price: '0.53001' }).success).toBe(false);
    expect(OrderDraft.safeParse({ ...good, count: '1.001' }).success).toBe(false);
    expect(OrderDraft.safeParse({ ...good, side: 'yes' }).success).toBe(false);
    expect(OrderDraft.safeParse({ ...good, price: 0.53 }).success).toBe(false);
  });

  it('needs exactly one of reduce_by and reduce_to', () => {
    const base = { order_id: 'o', ticker: 'T' };
    expect(DecreaseInput.safeParse({ ...base, reduce_by: '1' }).success).toBe(true);
    expect(DecreaseInput.safeParse({ ...base }).success).toBe(false);
    expect(DecreaseInput.safeParse({ ...base, reduce_by: '1', reduce_to: '2' }).success).toBe(false);
  });

  it('a custom profile needs both URLs; a PEM must look like a private key', () => {
    expect(ProfileInput.safeParse({ name: 'x', kind: 'custom', baseUrl: 'https://h/trade-api/v2' }).success).toBe(false);
    expect(ProfileInput.safeParse({ name: 'x', kind: 'custom', baseUrl: 'https://h/trade-api/v2', wsUrl: 'wss://h/ws' }).success).toBe(true);
    expect(ImportKeyInput.safeParse({ profileId: 'p', apiKeyId: 'k', privateKeyPem: 'hello' }).success).toBe(false);
  });
});
