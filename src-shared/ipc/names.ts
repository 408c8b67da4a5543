// Method and stream names of TerminalApi without any runtime dependency, so the sandboxed
// preload (which can require nothing but electron) can enumerate them. contract.ts checks that
// its argument schemas cover exactly these names.
export const METHOD_NAMES = [
  'getAppState',
  'saveProfile',
  'deleteProfile',
  'activateProfile',
  'importKey',
  'generateKey',
  'rotateKey',
  'deleteKey',
  'keyStatus',
  'useKey',
  'request',
  'placeOrder',
  'amendOrder',
  'decreaseOrder',
  'cancelOrder',
  'batchCancel',
  'cancelAll',
  'watchMarkets',
  'getSettings',
  'saveSettings',
  'getLayout',
  'saveLayout',
  'placeOrders',
  'getRisk',
  'saveRiskLimits',
  'engageKillSwitch',
  'releaseKillSwitch',
  'getAuditLog',
  'revokeExchangeKey',
  'getAlerts',
  'saveAlert',
  'alertAction',
  'getLocalOrders',
  'placeLocalOrders',
  'placeBracket',
  'localOrderAction',
  'moveLocalOrder',
  'resumeLocalOrders',
] as const;
export type MethodName = (typeof METHOD_NAMES)[number];

export const STREAM_NAMES = ['books', 'market', 'private', 'connection', 'notices', 'commands', 'risk', 'alerts', 'local'] as const;
export type StreamName = (typeof STREAM_NAMES)[number];
