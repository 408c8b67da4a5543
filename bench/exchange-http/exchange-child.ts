// The exchange of section 2 in its own process, as the terminal runs it: started by
// server-cost.ts with its settings as the one argument (JSON). It opens the benchmark market,
// says hello (its port and accounts) over IPC, then answers 'cpu' (its CPU time, snapshots,
// event-loop delay and slowest group commit, resetting the last two), 'cancel' (every resting
// order) and 'exit'. The channel closing (the bench gone, SIGKILL included) ends it.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startExchange } from '../../src-exchange/server';
import type { AccountPlan } from '../../src-exchange/provision';
import { cancelAll, openBenchMarket } from './market';

export interface ExchangeChildSettings {
  dataDir: string;
  snapshotEvery: number;
  accounts: AccountPlan[];
}

const settings = JSON.parse(process.argv[2]!) as ExchangeChildSettings;
const ex = await startExchange({ dataDir: settings.dataDir, port: 0, sim: false, rateLimits: false, snapshotEvery: settings.snapshotEvery, accounts: settings.accounts });
const node = ex.svc.node;
const lag = monitorEventLoopDelay({ resolution: 5 });
lag.enable();
const ids = ex.credentials.accounts.map((a) => a.user_id);
await openBenchMarket(ex, ids);
async function answer(m: unknown): Promise<void> {
  if (m === 'cpu') {
    process.send!({
      cpu: process.cpuUsage(),
      snapshots: node.journalStats.snapshotsWritten,
      mode: node.snapshotMode,
      lagMaxMs: lag.max / 1e6,
      lagP99Ms: lag.percentile(99) / 1e6,
      flushMs: node.journalStats.slowestFlushMs,
    });
    lag.reset();
    node.journalStats.slowestFlushMs = 0;
  }
  if (m === 'cancel') {
    await cancelAll(ex, ids);
    process.send!({ canceled: true });
  }
  if (m === 'exit') {
    await ex.close();
    process.exit(0);
  }
}
process.on('message', (m) => void answer(m));
// this bench dying (SIGKILL included) closes the channel: the exchange goes with it
process.on('disconnect', () => process.exit(0));
process.send!({ port: ex.port, accounts: ex.credentials.accounts });
