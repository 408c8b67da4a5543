import { describe, expect, it } from 'vitest';
import { methodArgs, OrderDraft, DecreaseInput, ProfileInput, ImportKeyInput } from './contract';
import { METHOD_NAMES } from './names';

describe('TerminalApi contract', () => {
  it('has an argument schema for exactly the listed methods', () => {
    expect(Object.keys(methodArgs).sort()).toEqual([...METHOD_NAMES].sort());
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
