// What main's lower floors (recorder, fix, strategies) know of the services app/ composes: the
// active session, and the one entry an automatic order goes through. They live here, on the
// session floor, so no lower floor imports app/ (app/profiles-service and app/trading-service
// implement them).
import type { z } from 'zod';
import type { CancelInput, OrderAck, OrderDraft } from '../../src-shared/ipc/contract';
import type { FromMain } from '../../src-shared/ipc/risk';
import type { AccountView } from '../risk/account-view';
import type { Profile } from '../api/profiles';
import type { TradingSession } from './session';

/** The session of the active profile and key, with who it trades as. */
export interface ActiveSession {
  session: TradingSession;
  profileId: string;
  keyId: string;
  /** where the session signs (the profile as it was resolved when the session started) */
  profile: Profile;
  /**
   * The whole account as the gate and the kill switch count it, when the key may see only part
   * of it (risk/account-view.ts). Absent: the session's store is the account.
   */
  account?: AccountView;
}

/** The trading service's order entry as a lower floor calls it (risk gate, audit and routing included). */
export interface TradingPort {
  placeOrder(draft: FromMain<OrderDraft>): Promise<OrderAck>;
  cancelOrder(c: FromMain<z.output<typeof CancelInput>>): Promise<{ reduced_by: string; ts_ms: number }>;
}

/**
 * A confirmation the page cannot give (a native dialog in main, or the web host's console code),
 * bound to `change`: the exact change it confirms (see app/profiles-service.ts).
 */
export type ConfirmInMain = (q: { title: string; message: string; allow: string; code?: string | undefined; change?: string | undefined }) => Promise<boolean>;
