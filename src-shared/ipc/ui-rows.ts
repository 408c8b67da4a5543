// The endpoint rows that write which the renderer may send through the `request` passthrough:
// exactly the ones its panels use (src-main/ipc/ui-rows.test.ts keeps this list equal to the
// renderer's source). Reads pass (their answers are scrubbed of key material); every other write
// is refused in main, whatever a compromised page sends: orders go through the typed, gated
// methods (placeOrder, placeOrders, amendOrder, cancel*), keys through the vault's methods.
import type { EndpointId } from '../endpoints';

export const UI_WRITE_ROWS: ReadonlySet<EndpointId> = new Set<EndpointId>([
  // order groups
  'createOrderGroup',
  'deleteOrderGroup',
  'resetOrderGroup',
  'triggerOrderGroup',
  'updateOrderGroupLimit',
  // subaccounts and balances
  'setTargetBalanceAllocation',
  'createSubaccount',
  'transferBetweenSubaccounts',
  'setSubaccountNetting',
  // RFQ blotter (exposure rows pass main's risk gate)
  'createRfq',
  'deleteRfq',
  'createQuote',
  'deleteQuote',
  'acceptQuote',
  'confirmQuote',
  'createBlockTradeProposal',
  'acceptBlockTradeProposal',
  // FCM subtraders
  'createSubtrader',
  'setSubtraderBlockedCategory',
  'setSubtraderDailyCap',
  'clearSubtraderDailyCap',
  // account and collections
  'upgradeApiUsageLevel',
  'createMarketInCollection',
]);

/** What the panels use instead of a write row the passthrough refuses. */
export const TYPED_INSTEAD: Partial<Record<EndpointId, string>> = {
  createOrder: 'placeOrder',
  batchCreateOrders: 'placeOrders',
  amendOrder: 'amendOrder',
  deleteRfqQuote: 'request deleteQuote',
  acceptRfqQuote: 'request acceptQuote',
  confirmRfqQuote: 'request confirmQuote',
};
