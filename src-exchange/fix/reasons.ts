// The FIX standard's reject reason codes (FIX 5.0 SP2) for the engine's refusals: OrdRejReason
// (103) on an ExecutionReport that rejects an order, CxlRejReason (102) on an OrderCancelReject.
// The engine's own code and message stay in Text (58) as `<code>: <message>`.

/** OrdRejReason (103) values used here. */
export const ORD_REJ = {
  brokerOption: 0,
  unknownSymbol: 1,
  exchangeClosed: 2,
  exceedsLimit: 3,
  tooLateToEnter: 4,
  duplicateOrder: 6,
  unsupportedCharacteristic: 11,
  incorrectQuantity: 13,
  unknownAccount: 15,
  invalidPriceIncrement: 18,
  other: 99,
} as const;

/** CxlRejReason (102) values used here. */
export const CXL_REJ = {
  tooLateToCancel: 0,
  unknownOrder: 1,
  brokerOption: 2,
  duplicateClOrdId: 6,
  invalidPriceIncrement: 18,
  other: 99,
} as const;

export interface EngineRefusal {
  code?: string;
  message?: string;
  details?: string;
}

/** OrdRejReason of an engine refusal of a create. */
export function ordRejReason(r: EngineRefusal): number {
  const msg = r.message ?? '';
  if (r.code === 'not_found') return /^market /.test(msg) ? ORD_REJ.unknownSymbol : /subaccount|account/.test(msg) ? ORD_REJ.unknownAccount : ORD_REJ.other;
  if (r.details === 'market_not_open' || r.code === 'market_closed') return ORD_REJ.exchangeClosed;
  if (r.code === 'insufficient_balance' || r.details === 'order_group_tripped') return ORD_REJ.exceedsLimit;
  if (r.details === 'order_already_exists' || r.code === 'order_already_exists') return ORD_REJ.duplicateOrder;
  if (r.code === 'invalid_price') return ORD_REJ.invalidPriceIncrement;
  if (r.details === 'expiration_in_past') return ORD_REJ.tooLateToEnter;
  return ORD_REJ.other;
}

/** CxlRejReason of an engine refusal of a cancel or a replace. */
export function cxlRejReason(r: EngineRefusal): number {
  const msg = r.message ?? '';
  if (r.code === 'not_found') {
    // "order X is executed" / "is canceled": it exists but can no longer change
    if (/^order \S+ is (executed|canceled)/.test(msg)) return CXL_REJ.tooLateToCancel;
    if (/^order /.test(msg)) return CXL_REJ.unknownOrder;
    return CXL_REJ.other;
  }
  if (r.details === 'order_already_exists' || r.code === 'order_already_exists') return CXL_REJ.duplicateClOrdId;
  if (r.code === 'invalid_price') return CXL_REJ.invalidPriceIncrement;
  if (r.details === 'market_not_open' || r.code === 'market_closed') return CXL_REJ.brokerOption;
  return CXL_REJ.other;
}
