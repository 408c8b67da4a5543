// The SDK model reader and the validator the contract test stands on: each kind of mismatch
// must be caught, or the contract test would pass on answers the SDK cannot read.
import { describe, expect, it } from 'vitest';
import { loadSdkModels, loadSdkOperations, parseModelFile, type SdkModels } from './models';
import { validateModel } from './validate';

const SOURCE = `/* tslint:disable */
import type { Leg } from './leg';
export interface Thing {
    /**
     * A comment the generator writes.
     */
    'id': string;
    'count'?: number;
    'note'?: string | null;
    'closed_at': string | null;
    'status': ThingStatusEnum;
    'legs'?: Array<Leg>;
    'tags': { [key: string]: string; };
}
export const ThingStatusEnum = {
    Open: 'open',
    Closed: 'closed'
} as const;
export type ThingStatusEnum = typeof ThingStatusEnum[keyof typeof ThingStatusEnum];
`;
const LEG = `export interface Leg {
    'ticker': string;
}
`;

function sample(): SdkModels {
  const sdk: SdkModels = { models: new Map(), enums: new Map() };
  parseModelFile('thing.ts', SOURCE, sdk);
  parseModelFile('leg.ts', LEG, sdk);
  return sdk;
}

const good = { id: 'a', count: 2, note: null, closed_at: null, status: 'open', legs: [{ ticker: 'T' }], tags: { k: 'v' } };

describe('SDK model reader', () => {
  it('reads fields with their type, optional and nullable flags, and enum values', () => {
    const sdk = sample();
    expect(sdk.models.get('Thing')!.fields).toEqual([
      { name: 'id', type: { kind: 'string' }, optional: false, nullable: false },
      { name: 'count', type: { kind: 'number' }, optional: true, nullable: false },
      { name: 'note', type: { kind: 'string' }, optional: true, nullable: true },
      { name: 'closed_at', type: { kind: 'string' }, optional: false, nullable: true },
      { name: 'status', type: { kind: 'ref', name: 'ThingStatusEnum' }, optional: false, nullable: false },
      { name: 'legs', type: { kind: 'array', of: { kind: 'ref', name: 'Leg' } }, optional: true, nullable: false },
      { name: 'tags', type: { kind: 'map', of: { kind: 'string' } }, optional: false, nullable: false },
    ]);
    expect(sdk.enums.get('ThingStatusEnum')).toEqual(['open', 'closed']);
  });

  it('refuses a line it does not understand instead of skipping it', () => {
    const sdk: SdkModels = { models: new Map(), enums: new Map() };
    expect(() => parseModelFile('x.ts', "export interface X {\n    'a': Foo<Bar>;\n}\n", sdk)).toThrow(/not understood/);
  });

  it('reads the installed SDK completely: every reference resolves, every operation has a response type', () => {
    const sdk = loadSdkModels();
    expect(sdk.models.size).toBeGreaterThan(150);
    expect(sdk.models.get('Market')!.fields.find((f) => f.name === 'expiration_time')).toMatchObject({ optional: true, nullable: false });
    const ops = loadSdkOperations();
    expect(ops.find((o) => o.name === 'getMarkets')).toEqual({ api: 'MarketApi', name: 'getMarkets', response: 'GetMarketsResponse' });
    expect(new Set(ops.map((o) => o.name)).size).toBe(ops.length);
  });
});

describe('validating an answer against a model', () => {
  const sdk = sample();
  const kinds = (v: unknown) => validateModel(sdk, 'Thing', v).map((m) => `${m.field}:${m.kind}`);

  it('accepts an answer that matches, with fields the model does not name', () => {
    expect(kinds({ ...good, extra: 1 })).toEqual([]);
    expect(kinds({ id: 'a', closed_at: '2026-01-01', status: 'closed', tags: {} })).toEqual([]);
  });

  it('flags a required field that is absent, or null where not nullable', () => {
    const { id: _id, ...noId } = good;
    expect(kinds(noId)).toEqual(['id:missing']);
    expect(kinds({ ...good, id: null })).toEqual(['id:null']);
  });

  it('flags an optional, non-nullable field sent as null (it should be left out)', () => {
    expect(kinds({ ...good, count: null })).toEqual(['count:null']);
  });

  it('flags wrong types, enum values outside the set, and mismatches inside nested models', () => {
    expect(kinds({ ...good, count: '2' })).toEqual(['count:type']);
    expect(kinds({ ...good, status: 'paused' })).toEqual(['status:enum']);
    expect(kinds({ ...good, legs: [{ ticker: 5 }] })).toEqual(['ticker:type']);
    expect(kinds({ ...good, tags: { k: 1 } })).toEqual(['tags:type']);
    expect(kinds([good])).toEqual([':type']);
  });
});
