// What main's lower floors (recorder, fix, strategies) know of the services app/ composes: the
// active session, and the one entry an automatic order goes through. They live here, on the
// session floor, so no lower floor imports app/ (app/profiles-service and app/trading-service
// implement them).
import type { z } from 'zod';
import type { CancelInput, OrderAck, OrderDraft } from '../../src-shared/ipc/contract';
import type { Profile } from '../api/profiles';
import type { TradingSession } from './session';

/** The session of the active profile and key, with who it trades as. */
export interface ActiveSession {
  session: TradingSession;
  profileId: string;
  keyId: string;
  /** where the session signs (the profile as it was resolved when the session started) */
  profile: Profile;
}

/** The trading service's order entry as a lower floor calls it (risk gate, audit and routing included). */
export interface TradingPort {
  placeOrder(draft: OrderDraft): Promise<OrderAck>;
  cancelOrder(c: z.output<typeof CancelInput>): Promise<{ reduced_by: string; ts_ms: number }>;
}
