// API keys: list, register an uploaded RSA public key, mint a pair (the private key is
// returned once and never stored), delete. Key material is made here, outside the state
// machine; only public keys enter a command. A subaccount-scoped key manages only keys
// scoped to its own subaccount, so it cannot mint itself a wider one.
import { createPublicKey, generateKeyPair as generateKeyPairCb, randomUUID, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import type { z } from 'zod';
import type { HandlerCtx } from '../http/app';
import { forbidden, invalidParameters, notFound } from '../core/errors';
import type { CreateApiKeyRequest, GenerateApiKeyRequest } from '../../src-shared/wire/api-keys';
import { fcmStateOf, ownedSubtrader } from '../state/fcm';
import { keysOfUser, type ApiKeyRecord, type Scope } from '../state/users';
import { engineOf } from './engine-access';
import { caller, type HandlerMap } from './support';
import { run, users, type Services } from '../core/services';

const generateKeyPair = promisify(generateKeyPairCb);

/** Smallest RSA modulus accepted for an uploaded key (the documented flow uses 2048). */
export const MIN_RSA_BITS = 2048;
const NO_MARGIN_CAP_WARNING = 'the bound subtrader has no initial-margin cap';

interface KeyOptions {
  name: string;
  scopes?: string[] | undefined;
  subaccount?: number | undefined;
  fcm_subtrader_id?: string | undefined;
}

/** `read`/`write` and their child scopes (`write::trade` ...) as the two scopes keys carry. */
function scopesOf(requested: string[] | undefined): Scope[] {
  if (!requested) return ['read', 'write'];
  const out = new Set<Scope>();
  for (const s of requested) out.add(s.startsWith('write') ? 'write' : 'read');
  if (out.has('write') && !out.has('read')) throw invalidParameters("scope 'write' requires 'read'");
  return (['read', 'write'] as const).filter((s) => out.has(s));
}

/** Checks the binding of a new key; returns the record without key material. */
function keyBinding(svc: Services, ctx: HandlerCtx, b: KeyOptions): Omit<ApiKeyRecord, 'api_key' | 'public_key_pem' | 'key_type' | 'created_ts'> {
  const c = caller(ctx);
  if (b.subaccount !== undefined && b.fcm_subtrader_id !== undefined) throw invalidParameters('subaccount and fcm_subtrader_id are mutually exclusive');
  const subaccount = b.subaccount ?? null;
  if (c.subaccount !== null && subaccount !== c.subaccount) {
    throw forbidden(`this API key is restricted to subaccount ${c.subaccount}; it can only create keys for that subaccount`);
  }
  if (subaccount !== null && !engineOf(svc).listSubaccounts(c.userId).includes(subaccount)) {
    throw invalidParameters(`subaccount ${subaccount} does not exist`);
  }
  const fcm = b.fcm_subtrader_id ?? null;
  if (fcm !== null) {
    if (!c.isFcmMember) throw forbidden('only FCM member accounts can bind keys to a subtrader');
    if (!ownedSubtrader(fcmStateOf(svc.node.core.domains), c.userId, fcm)) throw notFound(`subtrader ${fcm}`);
  }
  return { user_id: c.userId, name: b.name, scopes: scopesOf(b.scopes), subaccount, fcm_subtrader_id: fcm };
}

/** An uploaded public key: PEM SubjectPublicKeyInfo, RSA, at least MIN_RSA_BITS. */
function rsaPublicKey(pem: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPublicKey({ key: pem, format: 'pem', type: 'spki' });
  } catch {
    throw invalidParameters('public_key is not a PEM SubjectPublicKeyInfo public key');
  }
  if (key.asymmetricKeyType !== 'rsa') throw invalidParameters(`public_key must be an RSA key (got ${key.asymmetricKeyType ?? 'unknown'})`);
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < MIN_RSA_BITS) throw invalidParameters(`RSA public keys must be at least ${MIN_RSA_BITS} bits (got ${bits})`);
  return key;
}

async function addKey(svc: Services, record: Omit<ApiKeyRecord, 'created_ts'>): Promise<void> {
  await run(svc, { type: 'addApiKey', nowMs: svc.node.now(), key: record });
}

function presentKey(k: ApiKeyRecord) {
  return {
    api_key: k.api_key,
    api_key_id: k.api_key,
    name: k.name,
    scopes: [...k.scopes],
    created_ts: k.created_ts,
    subaccount: k.subaccount,
    fcm_subtrader_id: k.fcm_subtrader_id,
    key_type: k.key_type,
  };
}

export function apiKeyHandlers(svc: Services): HandlerMap {
  return {
    getApiKeys: (ctx) => {
      const c = caller(ctx);
      const q = ctx.query as { fcm_subtrader_id?: string };
      const keys = keysOfUser(users(svc), c.userId).filter(
        (k) => (q.fcm_subtrader_id === undefined || k.fcm_subtrader_id === q.fcm_subtrader_id) && (c.subaccount === null || k.subaccount === c.subaccount),
      );
      return { api_keys: keys.map(presentKey) };
    },

    createApiKey: async (ctx) => {
      const b = ctx.body as z.output<typeof CreateApiKeyRequest>;
      const binding = keyBinding(svc, ctx, b);
      const key = rsaPublicKey(b.public_key);
      const api_key = randomUUID();
      await addKey(svc, { ...binding, api_key, key_type: 'rsa', public_key_pem: key.export({ type: 'spki', format: 'pem' }).toString() });
      const stored = users(svc).keys[api_key]!;
      const warning = binding.fcm_subtrader_id ? NO_MARGIN_CAP_WARNING : undefined;
      // spec { api_key: { api_key } }, SDK a flat api_key_id: both fit
      return { api_key: presentKey(stored), api_key_id: api_key, ...(warning ? { warning } : {}) };
    },

    generateApiKey: async (ctx) => {
      const b = ctx.body as z.output<typeof GenerateApiKeyRequest>;
      const binding = keyBinding(svc, ctx, b);
      const keyType = b.key_type ?? 'rsa';
      // Ed25519 pairs are minted on request, but only RSA keys can sign (spec, Authentication 4):
      // requests signed for such a key are refused 401.
      const pair =
        keyType === 'rsa'
          ? await generateKeyPair('rsa', {
              modulusLength: 2048,
              publicExponent: 0x10001,
              publicKeyEncoding: { type: 'spki', format: 'pem' },
              privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
            })
          : await generateKeyPair('ed25519', {
              publicKeyEncoding: { type: 'spki', format: 'pem' },
              privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
            });
      const api_key = randomUUID();
      await addKey(svc, { ...binding, api_key, key_type: keyType, public_key_pem: pair.publicKey });
      const warning = binding.fcm_subtrader_id ? NO_MARGIN_CAP_WARNING : undefined;
      return { api_key_id: api_key, private_key: pair.privateKey, key_type: keyType, ...(warning ? { warning } : {}) };
    },

    deleteApiKey: async (ctx) => {
      const c = caller(ctx);
      const id = ctx.params.api_key!;
      const key = users(svc).keys[id];
      if (!key || key.user_id !== c.userId || (c.subaccount !== null && key.subaccount !== c.subaccount)) throw notFound(`API key ${id}`);
      await run(svc, { type: 'deleteApiKey', nowMs: svc.node.now(), user_id: c.userId, api_key: id });
    },
  };
}
