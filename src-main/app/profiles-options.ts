// What the profiles service is given and the constants its layers share (profiles-session.ts,
// profiles-keys.ts, profiles-service.ts).
import type { z } from 'zod';
import type { ConnectionView } from '../../src-shared/ipc/contract';
import type { SessionOptions } from '../session/session';
import type { ActiveSession, ConfirmInMain } from '../session/active-session';
import type { SessionObserver } from '../session/observer';
import type { SecretBox } from '../vault/secret-box';

export const EMBEDDED_ID = 'embedded';

export const OFFLINE: ConnectionView = {
  phase: 'idle',
  detail: 'no active key',
  latencyMs: null,
  reconnects: 0,
  limits: null,
  exchange: null,
  userId: null,
  isFcmMember: false,
  clockOffsetMs: null,
};

export interface EmbeddedExchangeInfo {
  baseUrl: string;
  wsUrl: string;
  /** private_key_pem is absent once the terminal holds it (credentials.json is stripped after import) */
  accounts: { name: string; api_key_id: string; private_key_pem?: string | undefined; fcm: boolean }[];
  /** its FIX gateway (credentials.json's fix_host and fix_port), when it has one */
  fix?: { host: string; port: number } | undefined;
}

/**
 * The vault's sealed copy of what the embedded exchange provisioned, kept apart from any profile:
 * credentials.json loses its plaintext keys once they are here, and a deleted embedded profile
 * can still be re-created from them. Never a profile id (profile ids are UUIDs or `embedded`).
 */
export const PROVISIONED_VAULT_ID = 'embedded-provisioned';

/**
 * A confirmation the page cannot give: a native dialog in main (Electron), or on the web host a
 * one-time code printed on its console that the page must send back (`code`, as the page gave it).
 * `change` is the exact change the answer allows (every new value, the profile it applies to): a
 * console code is bound to it, and the dialog shows it; the caller applies that change only, and
 * only if nothing changed while the trader was asked.
 */

export interface ProfilesServiceOptions {
  dataDir: string;
  box: SecretBox;
  embedded?: EmbeddedExchangeInfo;
  emit: SessionOptions['emit'];
  log?: (msg: string) => void;
  sessionOptions?: Pick<SessionOptions, 'frameMs' | 'streamOptions'>;
  /**
   * Asks the trader to allow a change of where a key-holding profile sends its signatures. The
   * Electron shell shows a native dialog in main; without it (the web host) the change is refused.
   */
  confirmInMain?: ConfirmInMain;
  /**
   * Asked before the profile's key changes to one that sees less of the account (a key scoped to
   * one subaccount after an account-wide one): a loosening, asked as a loosened limit is (the
   * native dialog, or the web host's console code). Absent: allowed, as for the limits.
   */
  confirmLoosening?: ConfirmInMain;
  /** main's own consumers of the session's stream (alerts, local orders) */
  observer?: SessionObserver;
  /** called after every session change (null: no session) */
  onSession?: (active: ActiveSession | null) => Promise<void> | void;
  /** called while a session is still the active one, just before it ends (strategies bound to it stop and cancel there) */
  sessionEnding?: (old: ActiveSession) => Promise<void>;
}


export type Out<T extends z.ZodType> = z.output<T>;

/** The fields that decide where a profile's signatures go. */
export const BINDING = ['kind', 'baseUrl', 'wsUrl', 'headerPrefix'] as const;
