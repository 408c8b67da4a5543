// The one declared entry for what main runs of the exchange in-process; everything else of the
// exchange main knows only over the wire (lint: local/floors, MAIN_RUNS_OF_EXCHANGE). Three pieces:
//   - replay: a recording as integer columns (the tape) and replayed books with the queue model,
//     which backtests run (src-main/strategies/backtest.ts, strategy-thread.ts);
//   - fees: the exchange's fee schedule, so a backtest charges what the exchange would;
//   - the worker-thread spawner (tsx's loader in development), which the recorder's DuckDB
//     worker uses like the exchange's snapshot worker does.
export { decodeTape, K_TRADE, YES, type Tape } from './replay/tape';
export { ReplayBooks, type ReplayFill } from './replay/queue';
export { fillFeeCents, TAKER_K } from './engine/fees';
export { spawnWorkerThread } from './core/snapshot-worker';
