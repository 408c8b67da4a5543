// Section 3 (no target): client round trip, ours vs kalshi-typescript. The terminal's REST
// client (src-main/api/client.ts createOrder) and the official SDK (OrdersApi.createOrderV2,
// KALSHI- headers, which the exchange accepts), each signing every request itself, drive the
// same number of creates against the exchange in this process; the ratio is printed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Configuration, OrdersApi } from 'kalshi-typescript';
import { figure, fmtRate, median, scaled } from '../lib';
import { startExchange } from '../../src-exchange/server';
import { createApiClient } from '../../src-main/api/client';
import { withKeys } from '../../src-shared/credentials';
import { run, RUNS } from './load';
import { cancelAll, openBenchMarket, TICKER } from './market';
import { traderAndCounterparty } from './signing';

export async function clientRoundTrip(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-http-clients-'));
  const ex = await startExchange({ dataDir, port: 0, sim: false, rateLimits: false });
  const ids = traderAndCounterparty(withKeys(ex.credentials).accounts).map((a) => a.user_id);
  await openBenchMarket(ex, ids);
  const trader = withKeys(ex.credentials).accounts.find((a) => a.name === 'trader')!;
  const ours = createApiClient({
    profile: { kind: 'custom', name: 'bench', baseUrl: ex.baseUrl, wsUrl: ex.wsUrl, headerPrefix: 'SVC-' },
    credentials: { keyId: trader.api_key_id, privateKeyPem: trader.private_key_pem },
  });
  const sdk = new OrdersApi(new Configuration({ basePath: ex.baseUrl, apiKey: trader.api_key_id, privateKeyPem: trader.private_key_pem }));
  const N = Number(process.env.BENCH_CLIENT_CREATES ?? scaled(1_000, 400, 100));
  const C = 16;
  const price = (i: number) => `0.${(40 + (i % 5)).toString()}`;
  // a closed loop of C in flight; its rate
  const drive = async (one: (i: number) => Promise<unknown>) =>
    (
      await run(
        async (i) => {
          await one(i);
          return true;
        },
        N,
        C,
      )
    ).opsPerSec;
  const oursOne = (i: number) => ours.createOrder({ body: { ticker: TICKER, side: 'bid', count: '1', price: price(i) } });
  const sdkOne = (i: number) =>
    sdk.createOrderV2({ ticker: TICKER, side: 'bid', count: '1', price: price(i), time_in_force: 'good_till_canceled', self_trade_prevention_type: 'taker_at_cross' });
  // both answer the same thing: check once
  const a = (await oursOne(0)) as { order_id: string };
  const b = (await sdkOne(1)).data as { order_id?: string };
  if (!a.order_id || !b.order_id) throw new Error('a client did not get an order id');
  const oursRates: number[] = [];
  const sdkRates: number[] = [];
  await drive(oursOne);
  await drive(sdkOne);
  for (let r = 0; r < RUNS; r++) {
    oursRates.push(await drive(oursOne));
    await cancelAll(ex, ids);
    sdkRates.push(await drive(sdkOne));
    await cancelAll(ex, ids);
  }
  await ex.close();
  rmSync(dataDir, { recursive: true, force: true });
  console.log(`\n## client round trip: ours vs kalshi-typescript (${N} signed creates x ${RUNS} runs, ${C} in flight, each client signs every request)`);
  console.log(`  ours (src-main/api/client.ts createOrder)   median ${fmtRate(median(oursRates)).padStart(10)}  (min ${fmtRate(Math.min(...oursRates))}, max ${fmtRate(Math.max(...oursRates))})`);
  console.log(`  kalshi-typescript OrdersApi.createOrderV2   median ${fmtRate(median(sdkRates)).padStart(10)}  (min ${fmtRate(Math.min(...sdkRates))}, max ${fmtRate(Math.max(...sdkRates))})`);
  console.log(`  ratio ours / kalshi-typescript: ${(median(oursRates) / median(sdkRates)).toFixed(2)}x (rate)`);
  // the target is stated in round-trip time: ours / the SDK's (lower is better)
  const timeRatio = median(sdkRates) / median(oursRates);
  figure('order_roundtrip_vs_sdk', 1000 / median(oursRates), 'ms per create at 16 in flight', 1000 / median(sdkRates), timeRatio);
}
