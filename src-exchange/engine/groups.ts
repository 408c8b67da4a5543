// Order groups: a per-account bucket with a contracts limit. Fills of the group's orders
// count towards contracts_used; at the limit the group trips, its resting orders are
// cancelled and new orders in it are refused until a reset.

import { isId, reject, type Reject } from './errors';
import { ensureAccount, isSubaccountNumber } from './ledger';
import { cancelGroupOrders, tripGroup } from './orders';
import { groupView, syncGroupCapacity, type GroupState, type State } from './engine-state';
import type {
  CommandOutputs,
  CreateOrderGroupCommand,
  DeleteOrderGroupCommand,
  EngineEvent,
  OrderGroupCommand,
  ResetOrderGroupCommand,
  TriggerOrderGroupCommand,
  UpdateOrderGroupLimitCommand,
} from './types';
import { isOrderCount } from './units';

export function createOrderGroup(st: State, cmd: CreateOrderGroupCommand, ev: EngineEvent[]): Reject | CommandOutputs['createOrderGroup'] {
  if (!isId(cmd.userId)) return reject('invalid_parameters', 'user id is required');
  const subN = cmd.subaccount ?? 0;
  if (!isSubaccountNumber(subN)) return reject('invalid_parameters', 'subaccount must be an integer 0-63');
  if (!isOrderCount(cmd.contractsLimitCenti)) return reject('invalid_parameters', 'contracts_limit must be a positive count');
  if (subN !== 0 && !st.accounts.get(cmd.userId)?.subs[subN]) return reject('not_found', `subaccount ${subN} not found`);
  const account = ensureAccount(st, cmd.userId, cmd.nowMs);
  const g: GroupState = {
    order_group_id: st.nextId('group'),
    user_id: cmd.userId,
    subaccount: subN,
    contracts_limit: cmd.contractsLimitCenti,
    contracts_used: 0,
    tripped: false,
    deleted: false,
    created_ms: cmd.nowMs,
    index: st.groupList.length,
    orders: new Set(),
  };
  st.groups.set(g.order_group_id, g);
  st.groupList.push(g);
  account.groups.push(g.order_group_id);
  syncGroupCapacity(st, g);
  ev.push({ type: 'orderGroup', event: 'created', group: groupView(g), ts: cmd.nowMs });
  return { group: groupView(g) };
}

/** The caller's live group, or not_found. */
function ownGroup<T extends string>(st: State, cmd: OrderGroupCommand<T>): GroupState | Reject {
  if (!isId(cmd.userId)) return reject('invalid_parameters', 'user id is required');
  if (!isId(cmd.orderGroupId)) return reject('invalid_parameters', 'order group id is required');
  if (cmd.subaccount !== undefined && !isSubaccountNumber(cmd.subaccount)) return reject('invalid_parameters', 'subaccount must be an integer 0-63');
  const g = st.groups.get(cmd.orderGroupId);
  if (!g || g.deleted || g.user_id !== cmd.userId || (cmd.subaccount !== undefined && g.subaccount !== cmd.subaccount)) {
    return reject('not_found', `order group ${cmd.orderGroupId} not found`);
  }
  return g;
}

export function resetOrderGroup(st: State, cmd: ResetOrderGroupCommand, ev: EngineEvent[]): Reject | CommandOutputs['resetOrderGroup'] {
  const g = ownGroup(st, cmd);
  if ('ok' in g) return g;
  g.contracts_used = 0;
  g.tripped = false;
  syncGroupCapacity(st, g);
  ev.push({ type: 'orderGroup', event: 'reset', group: groupView(g), ts: cmd.nowMs });
  return { group: groupView(g) };
}

export function triggerOrderGroup(st: State, cmd: TriggerOrderGroupCommand, ev: EngineEvent[]): Reject | CommandOutputs['triggerOrderGroup'] {
  const g = ownGroup(st, cmd);
  if ('ok' in g) return g;
  const canceled = tripGroup(st, g, ev, cmd.nowMs);
  return { group: groupView(g), canceled };
}

export function updateOrderGroupLimit(st: State, cmd: UpdateOrderGroupLimitCommand, ev: EngineEvent[]): Reject | CommandOutputs['updateOrderGroupLimit'] {
  const g = ownGroup(st, cmd);
  if ('ok' in g) return g;
  if (!isOrderCount(cmd.contractsLimitCenti)) return reject('invalid_parameters', 'contracts_limit must be a positive count');
  g.contracts_limit = cmd.contractsLimitCenti;
  syncGroupCapacity(st, g);
  ev.push({ type: 'orderGroup', event: 'limit_updated', group: groupView(g), ts: cmd.nowMs });
  const canceled = !g.tripped && g.contracts_used >= g.contracts_limit ? tripGroup(st, g, ev, cmd.nowMs) : [];
  return { group: groupView(g), canceled };
}

export function deleteOrderGroup(st: State, cmd: DeleteOrderGroupCommand, ev: EngineEvent[]): Reject | CommandOutputs['deleteOrderGroup'] {
  const g = ownGroup(st, cmd);
  if ('ok' in g) return g;
  g.deleted = true;
  syncGroupCapacity(st, g);
  const canceled = cancelGroupOrders(st, g, ev, cmd.nowMs);
  ev.push({ type: 'orderGroup', event: 'deleted', group: groupView(g), ts: cmd.nowMs });
  return { orderGroupId: g.order_group_id, canceled };
}
