import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiKey, ApiKeysResponse, CreateApiKeyRequest, CreateApiKeyResponse, GenerateApiKeyRequest, GenerateApiKeyResponse } from './api-keys';
import { responseSamples, sdkResponseSamples } from './samples';

function rejects(schema: z.ZodType, value: unknown): string {
  const r = schema.safeParse(value);
  expect(r.success, `expected a rejection of ${JSON.stringify(value)}`).toBe(false);
  return r.success ? '' : z.prettifyError(r.error);
}

describe('api keys', () => {
  const pem = '-----BEGIN PUBLIC KEY-----\nMIIB...\n-----END PUBLIC KEY-----\n';
  it('create needs name and a PEM public key; write needs read; subaccount xor fcm_subtrader_id', () => {
    expect(CreateApiKeyRequest.parse({ name: 'bot', public_key: pem, scopes: ['read', 'write'], subaccount: 3 })).toMatchObject({ name: 'bot', subaccount: 3 });
    rejects(CreateApiKeyRequest, { name: 'bot' });
    expect(rejects(CreateApiKeyRequest, { name: 'bot', public_key: 'ssh-rsa AAAA' })).toMatch(/PEM/);
    expect(rejects(CreateApiKeyRequest, { name: 'bot', public_key: pem, scopes: ['write'] })).toMatch(/requires 'read'/);
    expect(rejects(CreateApiKeyRequest, { name: 'bot', public_key: pem, subaccount: 1, fcm_subtrader_id: 'u_a1' })).toMatch(/mutually exclusive/);
    rejects(CreateApiKeyRequest, { name: 'bot', public_key: pem, subaccount: 64 });
    rejects(CreateApiKeyRequest, { name: 'bot', public_key: pem, admin: true });
  });
  it('generate takes key_type rsa or ed25519', () => {
    expect(GenerateApiKeyRequest.parse({ name: 'k', key_type: 'ed25519' }).key_type).toBe('ed25519');
    rejects(GenerateApiKeyRequest, { name: 'k', key_type: 'dsa' });
  });
  it('reads api_key (spec) and api_key_id (SDK) as api_key', () => {
    expect(ApiKeysResponse.parse(responseSamples.getApiKeys).api_keys[0]?.api_key).toBe('key-1');
    expect(ApiKeysResponse.parse(sdkResponseSamples.getApiKeys).api_keys[0]?.api_key).toBe('key-1');
    expect(rejects(ApiKey, { name: 'x', scopes: [] })).toMatch(/api_key/);
  });
  it('reads the create answer in either form as { api_key: { api_key } }', () => {
    expect(CreateApiKeyResponse.parse(responseSamples.createApiKey).api_key.api_key).toBe('key-2');
    expect(CreateApiKeyResponse.parse(sdkResponseSamples.createApiKey).api_key.api_key).toBe('key-2');
    expect(CreateApiKeyResponse.parse({ api_key_id: 'k', warning: 'no cap' }).warning).toBe('no cap');
  });
  it('reads the generate answer; private_key is required', () => {
    expect(GenerateApiKeyResponse.parse(responseSamples.generateApiKey)).toMatchObject({ api_key_id: 'key-3', key_type: 'rsa' });
    rejects(GenerateApiKeyResponse, { api_key_id: 'k' });
  });
});
