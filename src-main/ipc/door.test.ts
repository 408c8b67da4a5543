// The door alone, with a recording target in place of the services: only parsed arguments reach
// a method (what the schema made of them, not what was sent), a refusal reaches none, and every
// kind of failure becomes its TerminalError.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createDoor, toTerminalError } from './door';
import type { ServiceMethods } from '../../src-shared/ipc/contract';
import { ApiError, ArgsValidationError, NetworkError } from '../api/errors';
import { StateError } from '../base/errors';
import { RiskRefusal } from '../risk/gate';
import { KeyError } from '../api/signer';

function recorder(impl: (method: string, args: unknown[]) => unknown = () => undefined) {
  const calls: { method: string; args: unknown[] }[] = [];
  const target = new Proxy({} as ServiceMethods, {
    get: (_t, method: string) => async (...args: unknown[]) => {
      calls.push({ method, args });
      return impl(method, args);
    },
  });
  return { calls, target };
}

describe('the IPC door', () => {
  it('hands the service what the schema parsed: trimmed, defaulted, never the raw arguments', async () => {
    const { calls, target } = recorder(() => ({ fine: true }));
    const door = createDoor(target);
    const r = await door('revokeExchangeKey', ['  key-1  ']);
    expect(r).toEqual({ ok: true, value: { fine: true } });
    expect(calls).toEqual([{ method: 'revokeExchangeKey', args: ['key-1'] }]);
    const raw = { name: '  Mine ', kind: 'demo' };
    await door('saveProfile', [raw]);
    expect(calls[1]!.args[0]).toEqual({ name: 'Mine', kind: 'demo' });
    expect(calls[1]!.args[0]).not.toBe(raw);
  });

  it('answers null for a method that returns nothing', async () => {
    const { target } = recorder(() => undefined);
    expect(await createDoor(target)('watchMarkets', [['KX-1']])).toEqual({ ok: true, value: null });
  });

  it('refuses an unknown method, a prototype name and bad arguments without calling anything', async () => {
    const { calls, target } = recorder();
    const door = createDoor(target);
    for (const [method, args] of [
      ['nope', []],
      ['constructor', []],
      ['__proto__', []],
      ['toString', []],
      ['revokeExchangeKey', []],
      ['revokeExchangeKey', ['']],
      ['revokeExchangeKey', ['k', 'extra']],
      ['deleteKey', [{ profileId: 'p', apiKeyId: 'k', revoke: 'yes' }]],
      ['saveProfile', [{ name: 'x', kind: 'custom' }]],
      ['placeOrder', [{ ticker: 'KX', side: 'bid', price: '0.5', count: '1', sneaky: true }]],
      ['watchMarkets', 'not an array'],
    ] as const) {
      const r = await door(method, args);
      expect(r.ok, `${method} ${JSON.stringify(args)}`).toBe(false);
      if (!r.ok) {
        expect(r.error.kind).toBe('validation');
        expect(r.error.message.length).toBeGreaterThan(5);
      }
    }
    expect(calls).toEqual([]);
    const unknown = await door('nope', []);
    expect(unknown.ok ? '' : unknown.error.message).toBe('unknown method "nope"');
  });

  it('names the method and the field in a validation refusal', async () => {
    const r = await createDoor(recorder().target)('deleteKey', [{ profileId: 'p', apiKeyId: 'k', revoke: 'yes' }]);
    expect(r.ok ? '' : r.error.message).toMatch(/^deleteKey: .*revoke/);
  });

  it('turns each failure into its TerminalError, and logs only the unexpected ones', async () => {
    const logs: string[] = [];
    const failures: Record<string, unknown> = {
      api: new ApiError({ status: 409, code: 'conflict', message: 'HTTP 409', details: 'more', method: 'POST', path: '/x' }),
      risk: new RiskRefusal('max_order_contracts', 'too big', true),
      state: new StateError('no session', 'key_still_valid'),
      plain: new StateError('no session'),
      key: new KeyError('bad pem'),
      net: new NetworkError('GET', '/x', new Error('ECONNRESET')),
      args: new ArgsValidationError('createOrder', 'body', [{ code: 'custom', path: ['count'], message: 'required', input: undefined }]),
      zod: (() => {
        try {
          z.object({ a: z.string() }).parse({});
        } catch (e) {
          return e;
        }
      })(),
      bug: new TypeError('undefined is not a function'),
      odd: 'a thrown string',
    };
    let which = '';
    const { target } = recorder(() => {
      throw failures[which];
    });
    const door = createDoor(target, (m) => logs.push(m));
    const answer = async (k: string) => {
      which = k;
      const r = await door('getRisk', []);
      if (r.ok) throw new Error('expected a refusal');
      return r.error;
    };
    expect(await answer('api')).toEqual({ kind: 'api', status: 409, code: 'conflict', message: expect.any(String), details: 'more' });
    expect(await answer('risk')).toEqual({ kind: 'risk', code: 'max_order_contracts', message: 'too big', confirmable: true });
    expect(await answer('state')).toEqual({ kind: 'state', code: 'key_still_valid', message: 'no session' });
    expect(await answer('plain')).toEqual({ kind: 'state', message: 'no session' });
    expect(await answer('key')).toEqual({ kind: 'state', message: 'bad pem' });
    expect((await answer('net')).kind).toBe('network');
    expect((await answer('args')).kind).toBe('validation');
    expect(await answer('zod')).toMatchObject({ kind: 'validation', message: expect.stringMatching(/a/) });
    expect(await answer('bug')).toEqual({ kind: 'state', message: 'undefined is not a function' });
    expect(await answer('odd')).toEqual({ kind: 'state', message: 'a thrown string' });
    // unexpected failures (a key that will not load, a bug, a thrown string) are logged with their
    // stack; refusals by rule (state, risk, api, validation, network) are not
    expect(logs).toHaveLength(3);
    expect(logs[0]).toMatch(/^getRisk failed: KeyError: bad pem/);
    expect(logs[1]).toMatch(/^getRisk failed: TypeError: undefined is not a function/);
    expect(logs[2]).toBe('getRisk failed: a thrown string');
  });

  it('keeps the risk refusal non-confirmable unless it says so', () => {
    expect(toTerminalError(new RiskRefusal('kill_switch', 'engaged'))).toEqual({ kind: 'risk', code: 'kill_switch', message: 'engaged' });
  });
});
