// Users and their API keys: pure, serialisable state changed only by commands (journaled).
// Key material generation happens outside (it is random); only public keys enter state.
import type { UsageTier } from '../../src-shared/rate-limits';

export type Scope = 'read' | 'write';

export interface UserRecord {
  user_id: string;
  name: string;
  is_fcm_member: boolean;
  usage_tier: UsageTier;
  grants: { exchange_instance: 'event_contract' | 'margined'; level: string; source: 'volume' | 'manual'; expires_ts: number | null }[];
  created_ts: number;
}

export interface ApiKeyRecord {
  api_key: string;
  user_id: string;
  name: string;
  public_key_pem: string;
  key_type: 'rsa' | 'ed25519';
  scopes: Scope[];
  subaccount: number | null;
  fcm_subtrader_id: string | null;
  created_ts: number;
}

export interface UsersState {
  users: Record<string, UserRecord>;
  keys: Record<string, ApiKeyRecord>;
}

export type UsersCommand =
  | { type: 'createUser'; user_id: string; name: string; is_fcm_member: boolean; nowMs: number }
  | { type: 'addApiKey'; key: Omit<ApiKeyRecord, 'created_ts'>; nowMs: number }
  | { type: 'deleteApiKey'; user_id: string; api_key: string; nowMs: number }
  | { type: 'grantUsageLevel'; user_id: string; level: UsageTier; nowMs: number };

export type UsersResult = { ok: true } | { ok: false; code: 'not_found' | 'conflict' | 'invalid_parameters'; message: string };

export function emptyUsers(): UsersState {
  return { users: {}, keys: {} };
}

export function applyUsers(state: UsersState, cmd: UsersCommand): UsersResult {
  switch (cmd.type) {
    case 'createUser': {
      if (state.users[cmd.user_id]) return { ok: false, code: 'conflict', message: `user ${cmd.user_id} exists` };
      state.users[cmd.user_id] = {
        user_id: cmd.user_id,
        name: cmd.name,
        is_fcm_member: cmd.is_fcm_member,
        usage_tier: 'basic',
        grants: [],
        created_ts: Math.floor(cmd.nowMs / 1000),
      };
      return { ok: true };
    }
    case 'addApiKey': {
      if (!state.users[cmd.key.user_id]) return { ok: false, code: 'not_found', message: 'user not found' };
      if (state.keys[cmd.key.api_key]) return { ok: false, code: 'conflict', message: 'api key id exists' };
      if (cmd.key.scopes.includes('write') && !cmd.key.scopes.includes('read')) {
        return { ok: false, code: 'invalid_parameters', message: 'the write scope requires read' };
      }
      if (cmd.key.subaccount !== null && cmd.key.fcm_subtrader_id !== null) {
        return { ok: false, code: 'invalid_parameters', message: 'subaccount and fcm_subtrader_id are mutually exclusive' };
      }
      state.keys[cmd.key.api_key] = { ...cmd.key, scopes: [...cmd.key.scopes], created_ts: Math.floor(cmd.nowMs / 1000) };
      return { ok: true };
    }
    case 'deleteApiKey': {
      const key = state.keys[cmd.api_key];
      if (!key || key.user_id !== cmd.user_id) return { ok: false, code: 'not_found', message: 'API key not found' };
      delete state.keys[cmd.api_key];
      return { ok: true };
    }
    case 'grantUsageLevel': {
      const user = state.users[cmd.user_id];
      if (!user) return { ok: false, code: 'not_found', message: 'user not found' };
      user.usage_tier = cmd.level;
      user.grants.push({ exchange_instance: 'event_contract', level: cmd.level, source: 'manual', expires_ts: null });
      return { ok: true };
    }
  }
}

export function keysOfUser(state: UsersState, userId: string): ApiKeyRecord[] {
  return Object.values(state.keys)
    .filter((k) => k.user_id === userId)
    .sort((a, b) => a.created_ts - b.created_ts || a.api_key.localeCompare(b.api_key));
}
