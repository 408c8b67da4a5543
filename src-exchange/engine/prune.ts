// Pruning of history that nobody will read, of the accounts named, older than a time: finished
// orders (canceled or executed, filled or not) and fills. The accounts are the simulation's own
// and the seeded catalog's two (sim/catalog-seed.ts, once its history is made): they have no API
// key, so no one can ever list their orders or fills. Without it the simulated market makers'
// churn grows the state, every snapshot and the embedded exchange's memory without bound (seen in
// the 30-minute soak). Resting orders, orders in a group (groups list their orders), positions,
// the public trade tape and every record of other accounts are kept.
import type { State } from './engine-state';
import type { PruneOrdersCommand } from './types';

export function pruneOrders(st: State, cmd: PruneOrdersCommand): { pruned: number } {
  let pruned = 0;
  for (const userId of cmd.userIds) {
    const account = st.accounts.get(userId);
    if (!account) continue;
    const gone = new Set<string>();
    for (const id of account.orders) {
      const o = st.orders.get(id);
      if (!o || o.status === 'resting' || o.last_update_time >= cmd.olderThanMs) continue;
      if (o.order_group_id !== null) continue; // groups list their orders; keep those intact
      gone.add(id);
    }
    const fills = account.fills;
    fills.retain((i) => fills.tsAt(i) >= cmd.olderThanMs);
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
