// API keys: list, upload a public key, mint a pair, delete.
import { z } from 'zod';
import { nullableArray, pick, Subaccount, UnixTs } from './common';

/** `read` / `write` (write requires read) plus the SDK's child scopes. */
export const ApiKeyScope = z.enum([
  'read',
  'write',
  'read::block_trade_accept',
  'read::portfolio_balance',
  'write::trade',
  'write::transfer',
  'write::block_trade_accept',
]);
export type ApiKeyScope = z.output<typeof ApiKeyScope>;

export const KeyType = z.enum(['rsa', 'ed25519']);
export type KeyType = z.output<typeof KeyType>;

/** Spec `api_key` (the key id), SDK `api_key_id`. Output has `api_key`. */
export const ApiKey = z
  .object({
    api_key: z.string().optional(),
    api_key_id: z.string().optional(),
    name: z.string(),
    scopes: nullableArray(z.string()),
    created_ts: UnixTs.optional(),
    subaccount: Subaccount.nullish(),
    fcm_subtrader_id: z.string().nullish(),
  })
  .loose()
  .transform((k, ctx) => ({ ...k, api_key: pick(ctx, 'api_key (or the SDK api_key_id)', k.api_key, k.api_key_id) }));
export type ApiKey = z.output<typeof ApiKey>;

export const ApiKeysResponse = z.object({ api_keys: nullableArray(ApiKey), api_key_region_expiration_ts: UnixTs.nullish() });
export type ApiKeysResponse = z.output<typeof ApiKeysResponse>;

const keyOptions = {
  name: z.string().min(1, 'name is required').max(200),
  scopes: z.array(ApiKeyScope).min(1).optional(),
  subaccount: Subaccount.optional(),
  fcm_subtrader_id: z.string().regex(/^\S+_[A-Za-z0-9]{1,16}$/, 'fcm_subtrader_id must look like {user_id}_{suffix}').optional(),
};

function checkKeyOptions(v: { scopes?: string[] | undefined; subaccount?: number | undefined; fcm_subtrader_id?: string | undefined }, ctx: z.RefinementCtx) {
  if (v.scopes?.includes('write') && !v.scopes.includes('read')) {
    ctx.addIssue({ code: 'custom', path: ['scopes'], message: "scope 'write' requires 'read'" });
  }
  if (v.subaccount !== undefined && v.fcm_subtrader_id !== undefined) {
    ctx.addIssue({ code: 'custom', message: 'subaccount and fcm_subtrader_id are mutually exclusive' });
  }
}

/** Upload a PEM SubjectPublicKeyInfo RSA public key. Scopes default to read+write. */
export const CreateApiKeyRequest = z
  .object({
    ...keyOptions,
    public_key: z.string().regex(/-----BEGIN PUBLIC KEY-----/, 'public_key must be a PEM SubjectPublicKeyInfo public key'),
  })
  .strict()
  .superRefine(checkKeyOptions);
export type CreateApiKeyRequest = z.output<typeof CreateApiKeyRequest>;

/**
 * Create: spec `{ api_key: { api_key }, warning? }`, SDK `{ api_key_id, warning? }`. Both fit,
 * so the exchange sends both. Output `{ api_key: { api_key, ... }, warning }`.
 */
export const CreateApiKeyResponse = z
  .object({
    api_key: z.object({ api_key: z.string().optional(), api_key_id: z.string().optional() }).loose().optional(),
    api_key_id: z.string().optional(),
    warning: z.string().nullish(),
  })
  .loose()
  .transform((r, ctx) => ({
    ...r,
    api_key: { ...r.api_key, api_key: pick(ctx, 'api_key.api_key (or the SDK api_key_id)', r.api_key?.api_key, r.api_key?.api_key_id, r.api_key_id) },
  }));
export type CreateApiKeyResponse = z.output<typeof CreateApiKeyResponse>;

export const GenerateApiKeyRequest = z
  .object({ ...keyOptions, key_type: KeyType.optional() })
  .strict()
  .superRefine(checkKeyOptions);
export type GenerateApiKeyRequest = z.output<typeof GenerateApiKeyRequest>;

/** Mint: `api_key_id`, `private_key` (PEM, returned once), `key_type`, optional `warning`. */
export const GenerateApiKeyResponse = z
  .object({
    api_key_id: z.string().optional(),
    api_key: z.string().optional(),
    private_key: z.string().min(1),
    key_type: KeyType.optional(),
    warning: z.string().nullish(),
  })
  .loose()
  .transform((r, ctx) => ({ ...r, api_key_id: pick(ctx, 'api_key_id', r.api_key_id, r.api_key) }));
export type GenerateApiKeyResponse = z.output<typeof GenerateApiKeyResponse>;
