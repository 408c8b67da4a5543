// Order groups over FIX, on the order entry sessions (KalshiNR, KalshiRT; docs.kalshi.com/fix/order-groups):
// OrderGroupRequest (UOG) in: 20131 OrderGroupAction 1 create / 2 reset / 3 delete / 4 trigger /
// 5 update; 20130 OrderGroupID (not on create: the exchange makes it); 20132
// OrderGroupContractsLimit (create, update: whole contracts 1-1,000,000); 79 AllocAccount (the
// owning subaccount, 0 by default; a group of another subaccount is not found). Answered with
// OrderGroupResponse (UOH: 20130, 20131, 20132 when the group has one, 79), or a
// BusinessMessageReject (j: 380 = 1 unknown id for a group not found, 0 other; 58 the engine's code
// and message). The same core commands as REST's order group endpoints: one engine, one journal.
import type { OrderGroupView } from '../engine/types';
import { centiToCount } from '../engine/units';
import { rejectionError } from '../core/services';
import type { FixMessage } from '../../src-shared/fix/codec';
import type { SessionLink } from './link';
import { FixReject, readSubaccount, type Fields } from './orders';

const ACTIONS = { '1': 'createOrderGroup', '2': 'resetOrderGroup', '3': 'deleteOrderGroup', '4': 'triggerOrderGroup', '5': 'updateOrderGroupLimit' } as const;
type Action = keyof typeof ACTIONS;

class GroupRefusal extends Error {
  constructor(
    message: string,
    readonly reason: number,
  ) {
    super(message);
  }
}

/** Whole contracts 1-1,000,000 as centi-contracts (no floats). */
function readLimit(raw: string | undefined): number {
  if (raw === undefined || !/^\d{1,7}(\.0{1,2})?$/.test(raw)) throw new GroupRefusal(`OrderGroupContractsLimit (20132) ${raw ?? '(missing)'} must be whole contracts 1-1,000,000`, 0);
  const n = Number.parseInt(raw, 10);
  if (n < 1 || n > 1_000_000) throw new GroupRefusal(`OrderGroupContractsLimit (20132) ${raw} must be 1-1,000,000`, 0);
  return n * 100;
}

async function submitGroup(link: SessionLink, m: FixMessage, action: Action): Promise<OrderGroupView> {
  const t = link.trader;
  if (!t.canWrite) throw new GroupRefusal('this API key is read-only', 0);
  let subaccount: number;
  try {
    subaccount = readSubaccount(m, t);
  } catch (err) {
    if (err instanceof FixReject) throw new GroupRefusal(err.message, 0);
    throw err;
  }
  const node = link.svc.node;
  const base = { type: ACTIONS[action], nowMs: node.now(), userId: t.userId, subaccount };
  let cmd: Record<string, unknown>;
  if (action === '1') {
    if (m.get(20130) !== undefined) throw new GroupRefusal('OrderGroupID (20130) is made by the exchange: leave it out of a create', 0);
    cmd = { ...base, contractsLimitCenti: readLimit(m.get(20132)) };
  } else {
    const id = m.get(20130);
    if (!id) throw new GroupRefusal('OrderGroupID (20130) is required', 0);
    const g = node.core.engine.getOrderGroup(t.userId, id);
    if (!g || g.subaccount !== subaccount) throw new GroupRefusal(`ORDER_GROUP_NOT_FOUND: order group ${id} not found in subaccount ${subaccount}`, 1);
    cmd = { ...base, orderGroupId: id, ...(action === '5' ? { contractsLimitCenti: readLimit(m.get(20132)) } : {}) };
  }
  const outcome = await node.submit(cmd as never);
  if (!outcome.ok) {
    const e = rejectionError(outcome);
    throw new GroupRefusal(`${e.code}: ${e.message}`, e.code === 'not_found' ? 1 : 0);
  }
  const id = (outcome.result as { group?: OrderGroupView }).group?.order_group_id ?? (cmd['orderGroupId'] as string);
  const g = node.core.engine.getOrderGroup(t.userId, id);
  return g ?? ({ order_group_id: id, subaccount } as OrderGroupView);
}

/** OrderGroupRequest (UOG): the answer, queued in arrival order behind earlier ones. */
export async function orderGroupRequest(link: SessionLink, m: FixMessage): Promise<() => void> {
  const action = m.get(20131);
  if (action === undefined || !(action in ACTIONS)) {
    return () => link.businessReject(m, 'OrderGroupAction (20131) must be 1 create, 2 reset, 3 delete, 4 trigger or 5 update', 0);
  }
  try {
    const g = await submitGroup(link, m, action as Action);
    const limit = action === '3' ? undefined : (g as Partial<OrderGroupView>).contracts_limit;
    const body: Fields = [[20130, g.order_group_id], [20131, action], ...(limit !== undefined ? ([[20132, centiToCount(limit)]] as Fields) : []), [79, g.subaccount]];
    return () => link.send('UOH', body);
  } catch (err) {
    if (!(err instanceof GroupRefusal)) throw err;
    const { message, reason } = err;
    return () => link.businessReject(m, message, reason);
  }
}
