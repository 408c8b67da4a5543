// The Positions panel's P&L figures: the shared module (src-shared/position-pnl.ts), which the
// P&L truth test (integration/pnl-truth.int.test.ts) checks against the exchange.
export * from '../../../src-shared/position-pnl';
