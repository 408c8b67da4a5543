// The contract scenario, part 2: orders (V2 event-market writes, reads, queue positions),
// order groups, portfolio reads, money movement and subaccounts, through the official SDK.
import { randomUUID } from 'node:crypto';
import type { SdkClient } from './clients';
import { type Recorder, at, str } from './recorder';

const order = (ticker: string, side: 'bid' | 'ask', count: string, price: string, tif: 'good_till_canceled' | 'immediate_or_cancel' = 'good_till_canceled') => ({
  ticker,
  client_order_id: randomUUID(),
  side,
  count,
  price,
  // the SDK's model makes both of these required, so a bot always sends them
  time_in_force: tif,
  self_trade_prevention_type: 'taker_at_cross' as const,
});

/** counterparty rests, trader takes: a trade in `ticker` (fills, positions, candles, tape). */
export async function crossOps(rec: Recorder, trader: SdkClient, counterparty: SdkClient, ticker: string, price: string): Promise<void> {
  await rec.ok('createOrderV2', counterparty.orders.createOrderV2(order(ticker, 'ask', '5', price)));
  await rec.ok('createOrderV2', trader.orders.createOrderV2(order(ticker, 'bid', '5', price, 'immediate_or_cancel')));
}

export async function orderOps(rec: Recorder, trader: SdkClient, ticker: string, event: string): Promise<void> {
  const o = trader.orders;
  // resting bids and a resting ask (the book and queue positions have both sides)
  const a = await rec.ok('createOrderV2', o.createOrderV2(order(ticker, 'bid', '10', '0.21')));
  await rec.ok('createOrderV2', o.createOrderV2(order(ticker, 'ask', '3', '0.93')));
  await rec.ok('amendOrderV2', o.amendOrderV2(a.order_id, { ticker, side: 'bid', price: '0.22', count: '12' }));
  const amended = await rec.ok('getOrders', o.getOrders(ticker, undefined, undefined, undefined, 'resting'), ['orders']);
  const restingId = amended.orders.find((x) => x.order_id === a.order_id || at(x, 'book_side') === 'bid')?.order_id ?? amended.orders[0]!.order_id;
  await rec.ok('decreaseOrderV2', o.decreaseOrderV2(restingId, { reduce_by: '2' }));
  await rec.ok('decreaseOrderV2', o.decreaseOrderV2(restingId, { reduce_to: '9', exchange_index: 0 }));
  // the SDK's amend also carries the order's client id and a new one
  const b = await rec.ok('createOrderV2', o.createOrderV2(order(ticker, 'bid', '3', '0.12')));
  await rec.ok('amendOrderV2', o.amendOrderV2(b.order_id, { ticker, side: 'bid', price: '0.13', count: '3', client_order_id: b.client_order_id ?? '', updated_client_order_id: randomUUID(), exchange_index: 0 }));
  await rec.ok('getOrder', o.getOrder(restingId));
  await rec.ok('getOrderQueuePosition', o.getOrderQueuePosition(restingId));
  await rec.ok('getOrderQueuePositions', o.getOrderQueuePositions(ticker), ['queue_positions']);
  await rec.ok('getOrderQueuePositions', o.getOrderQueuePositions(undefined, event), ['queue_positions']);
  await rec.ok('getOrders', o.getOrders(), ['orders']);
  await rec.ok('getOrders', o.getOrders(undefined, undefined, undefined, undefined, 'executed'), ['orders']);
  const batch = await rec.ok('batchCreateOrdersV2', o.batchCreateOrdersV2({ orders: [order(ticker, 'bid', '1', '0.05'), order(ticker, 'bid', '1', '0.06')] }), ['orders']);
  // one failing entry too: the per-entry error object
  await rec.ok('batchCreateOrdersV2', o.batchCreateOrdersV2({ orders: [order(ticker, 'bid', '1', '0.07'), order('NO-SUCH-MARKET', 'bid', '1', '0.07')] }), ['orders']);
  const ids = batch.orders.map((x) => str(x, 'order_id'));
  await rec.ok('batchCancelOrdersV2', o.batchCancelOrdersV2({ orders: [{ order_id: ids[0]! }, { order_id: randomUUID() }] }), ['orders']);
  await rec.ok('cancelOrderV2', o.cancelOrderV2(ids[1]!));
  await rec.ok('cancelAllOrders', o.cancelAllOrders());
  // something resting again for the reads that follow (book, resting value, queue)
  await rec.ok('createOrderV2', o.createOrderV2(order(ticker, 'bid', '4', '0.15')));
}

export async function orderGroupOps(rec: Recorder, trader: SdkClient, ticker: string): Promise<void> {
  const g = trader.orderGroups;
  const created = await rec.ok('createOrderGroup', g.createOrderGroup({ contracts_limit: 50 }));
  const id = created.order_group_id;
  await rec.ok('createOrderV2', trader.orders.createOrderV2({ ...order(ticker, 'bid', '2', '0.11'), order_group_id: id }));
  await rec.ok('getOrderGroups', g.getOrderGroups(), ['order_groups']);
  await rec.ok('getOrderGroup', g.getOrderGroup(id), ['orders']);
  await rec.ok('updateOrderGroupLimit', g.updateOrderGroupLimit(id, { contracts_limit: 80 }));
  await rec.ok('resetOrderGroup', g.resetOrderGroup(id));
  await rec.ok('triggerOrderGroup', g.triggerOrderGroup(id));
  const spare = await rec.ok('createOrderGroup', g.createOrderGroup({ contracts_limit_fp: '20.00' }));
  await rec.ok('deleteOrderGroup', g.deleteOrderGroup(spare.order_group_id));
}

export async function portfolioOps(rec: Recorder, trader: SdkClient, fcm: SdkClient, settledTicker: string): Promise<void> {
  const p = trader.portfolio;
  await rec.ok('getBalance', p.getBalance());
  await rec.ok('getBalance', p.getBalance(0, 0));
  await rec.ok('getFills', p.getFills(), ['fills']);
  await rec.ok('getPositions', p.getPositions(), ['market_positions', 'event_positions']);
  await rec.ok('getSettlements', p.getSettlements(100, undefined, settledTicker), ['settlements']);
  await rec.ok('getDeposits', p.getDeposits(), ['deposits']);
  await rec.ok('getWithdrawals', p.getWithdrawals(), ['withdrawals']);
  const transfers = await rec.ok('getIntraExchangeInstanceTransfers', p.getIntraExchangeInstanceTransfers(), ['transfers']);
  await rec.ok('getIntraExchangeInstanceTransfer', p.getIntraExchangeInstanceTransfer(str(transfers, 'transfers.0.transfer_id')));
  await rec.ok('getPortfolioRestingOrderTotalValue', fcm.portfolio.getPortfolioRestingOrderTotalValue());
  await rec.ok('setTargetBalanceAllocation', p.setTargetBalanceAllocation({ allocations: [{ exchange_index: 0, percent: 100 }], resting_margin_reservation: 'sum' }));
  await rec.ok('getTargetBalanceAllocation', p.getTargetBalanceAllocation(), ['allocations']);
}

export async function subaccountOps(rec: Recorder, trader: SdkClient): Promise<void> {
  const p = trader.portfolio;
  const created = await rec.ok('createSubaccount', p.createSubaccount({}));
  // the SDK's own call without a request object (it then sends "{}" as JSON)
  await rec.ok('createSubaccount', p.createSubaccount());
  const sub = created.subaccount_number;
  await rec.ok('applySubaccountTransfer', p.applySubaccountTransfer({ client_transfer_id: randomUUID(), from_subaccount: 0, to_subaccount: sub, amount_cents: 2500 }));
  await rec.ok('getSubaccountBalances', p.getSubaccountBalances(), ['subaccount_balances']);
  await rec.ok('getSubaccountTransfers', p.getSubaccountTransfers(), ['transfers']);
  await rec.ok('updateSubaccountNetting', p.updateSubaccountNetting({ subaccount_number: sub, enabled: true }));
  await rec.ok('getSubaccountNetting', p.getSubaccountNetting(), ['netting_configs']);
}
