// FIX against REST on the embedded exchange, in the same run: the order round trip (one order in
// flight: NewOrderSingle -> ExecutionReport against POST /portfolio/orders -> answer, through the
// terminal's signed REST client) and FIX order messages per second through the acceptor (a
// pipelined burst of NewOrderSingles until every ExecutionReport is back). Exchange in this
// process on 127.0.0.1, simulation and rate limits off. Target: fix_roundtrip_vs_rest <= 0.5.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startExchange } from '../src-exchange/server';
import { withKeys } from '../src-shared/credentials';
import { Client } from '../src-exchange/fix/raw-client';
import { createApiClient } from '../src-main/api/client';
import { figure, median, scaled } from './lib';

const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-fix-'));
const ex = await startExchange({ dataDir, port: 0, sim: false, rateLimits: false, seed: 3 });
try {
  const trader = withKeys(ex.credentials).accounts.find((a) => a.name === 'trader')!;
  const rest = createApiClient({
    profile: { kind: 'custom', name: 'bench', baseUrl: ex.baseUrl, wsUrl: ex.wsUrl, headerPrefix: 'SVC-' },
    credentials: { keyId: trader.api_key_id, privateKeyPem: trader.private_key_pem },
  });
  const node = ex.svc.node;
  const ticker = 'BENCHFIX-1';
  await node.submit({ type: 'addMarket', nowMs: node.now(), ticker, eventTicker: 'BENCHFIX', seriesTicker: 'BENCHFIXS' });
  await node.submit({ type: 'openMarket', nowMs: node.now(), ticker });

  const fix = await Client.open(ex.fixPort, trader.api_key_id, 'KalshiNR');
  fix.logon(trader.private_key_pem);
  await fix.type('A');

  const N = scaled(300, 60);
  const REPS = scaled(5, 2);
  let id = 0;
  const fixOne = async () => {
    fix.send('D', [[11, `b${++id}`], [55, ticker], [54, 1], [38, 1], [40, 2], [44, 1]]);
    const er = await fix.type('8');
    if (er.get(150) === '8') throw new Error(`FIX order refused: ${er.get(58)}`);
  };
  const restOne = async () => {
    await rest.createOrder({ body: { ticker, side: 'bid', price: '0.0100', count: '1', client_order_id: `r${++id}` } });
  };
  const timed = async (one: () => Promise<void>): Promise<number> => {
    const t0 = performance.now();
    for (let i = 0; i < N; i++) await one();
    return ((performance.now() - t0) * 1000) / N; // us per order
  };
  // warm both paths, then alternate so drift hits both alike
  await timed(fixOne);
  await timed(restOne);
  const fixUs: number[] = [];
  const restUs: number[] = [];
  for (let r = 0; r < REPS; r++) {
    fixUs.push(await timed(fixOne));
    restUs.push(await timed(restOne));
  }
  const f = median(fixUs);
  const rr = median(restUs);
  const ratio = f / rr;
  console.log(`  FIX order round trip ${f.toFixed(0)} us, REST ${rr.toFixed(0)} us (medians of ${REPS} x ${N}); ratio ${ratio.toFixed(3)}, target <= 0.5: ${ratio <= 0.5 ? 'met' : 'MISSED'}`);

  // pipelined: a burst of NewOrderSingles, every ExecutionReport back
  const BURST = scaled(2_000, 300);
  const rates: number[] = [];
  for (let r = 0; r < REPS; r++) {
    const t0 = performance.now();
    for (let i = 0; i < BURST; i++) fix.send('D', [[11, `p${++id}`], [55, ticker], [54, 1], [38, 1], [40, 2], [44, 1]]);
    for (let got = 0; got < BURST; got++) await fix.type('8');
    rates.push((BURST * 1000) / (performance.now() - t0));
  }
  const perSec = median(rates);
  console.log(`  FIX NewOrderSingle -> ExecutionReport through the acceptor: ${perSec.toFixed(0)} orders/s (median of ${REPS} bursts of ${BURST})`);
  figure('fix_roundtrip_vs_rest', ratio, 'x (time)', rr, ratio);
  figure('fix_orders_per_s', perSec, 'orders/s', null, null);
  fix.sock.destroy();
  await ex.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(ratio <= 0.5 ? 0 : 2);
} catch (err) {
  console.error(err);
  await ex.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(1);
}
