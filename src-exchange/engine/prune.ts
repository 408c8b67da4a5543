// Pruning of order history that nobody will read: canceled orders that never filled, of the
// accounts named (the simulation's own), older than a time. Without it the simulated market
// makers' cancel/replace churn grows the state (and every snapshot) without bound. Orders with
// fills, resting orders and every order of other accounts are kept forever.
import type { State } from './state';
import type { PruneOrdersCommand } from './types';

export function pruneOrders(st: State, cmd: PruneOrdersCommand): { pruned: number } {
  let pruned = 0;
  for (const userId of cmd.userIds) {
    const account = st.accounts.get(userId);
    if (!account) continue;
    const gone = new Set<string>();
    for (const id of account.orders) {
      const o = st.orders.get(id);
      if (!o || o.status !== 'canceled' || o.fill_count !== 0 || o.last_update_time >= cmd.olderThanMs) continue;
      if (o.order_group_id !== null) continue; // groups list their orders; keep those intact
      gone.add(id);
    }
    if (gone.size === 0) continue;
    for (const id of gone) {
      const o = st.orders.get(id)!;
      st.orders.delete(id);
      if (o.client_order_id && account.clientOrders.get(o.client_order_id) === id) account.clientOrders.delete(o.client_order_id);
    }
    account.orders = account.orders.filter((id) => !gone.has(id));
    pruned += gone.size;
  }
  return { pruned };
}
