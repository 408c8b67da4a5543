// One order that passed the gate, on the profile's route: FIX when the profile routes order
// entry there and its session is up, REST otherwise (and when the session is lost with the order
// unanswered: REST looks it up by its client_order_id before sending, so it is never sent twice).
// The kill switch's hold applies on either route, right before the order leaves.
import type { OrderDraft } from '../../src-shared/ipc/contract';
import { OrderOutcomeUnknownError } from '../api/orders';
import { FixRouteDown } from '../fix/order-entry';
import type { FixService } from '../fix/fix-service';
import type { SendGuard } from '../session/session';
import type { AnsweredOrder } from '../session/private-sync';
import * as orders from '../session/orders';
import type { ActiveSession } from './profiles-service';

/** Sends it; `route.via` says which route it took, for the audit journal. */
export async function sendOrder(fix: FixService | undefined, active: ActiveSession, order: Omit<OrderDraft, 'origin' | 'confirmed'>, clientOrderId: string, guard: SendGuard, route: { via: string }): Promise<AnsweredOrder> {
  const entry = fix?.route(active) ?? null;
  if (!entry) {
    route.via = 'REST';
    return orders.place(active.session, order, clientOrderId, guard);
  }
  guard.queueSignal?.throwIfAborted();
  guard.beforeSend?.();
  if (!entry.up) {
    route.via = `REST (FIX ${entry.session.phase}: ${entry.session.detail})`;
    return orders.place(active.session, order, clientOrderId, guard);
  }
  route.via = 'FIX';
  const t0 = performance.now();
  try {
    const r = await entry.place(order, clientOrderId);
    active.session.noteAck(performance.now() - t0);
    return { ...r, resets: active.session.store.resets };
  } catch (e) {
    if (e instanceof FixRouteDown) {
      route.via = `REST (FIX down: ${e.message})`;
      return orders.place(active.session, order, clientOrderId, guard);
    }
    if (e instanceof OrderOutcomeUnknownError) {
      route.via = 'FIX, answer lost; looked up over REST';
      return orders.place(active.session, order, clientOrderId, guard, true);
    }
    throw e;
  }
}
