// Section 2's load, the realistic mix: 70% resting creates, 20% cancels of the sender's own
// resting orders, 10% IOC orders that cross the book, spread over MIX_ACCOUNTS accounts. Creates
// reuse a signature for up to 100 ms per account (the path is the same; the exchange still
// verifies each request, from its cache of verified signatures); every cancel is signed afresh
// for its own path (off the generator's event loop, in libuv's thread pool), so the exchange
// runs a full RSA-PSS verification for it.
import type { ProvisionedAccount } from '../../src-shared/credentials';
import type { Op, Requester } from './load';
import { CREATE_PATH, ORDER_PATH, TICKER } from './market';
import { refreshedSigners, signAsync, type Account } from './signing';

export const MIX_ACCOUNTS = 4;
// BENCH_MIX=creates,cancels,iocs in tenths (default 7,2,1), to see what each kind costs
const MIX_TENTHS = (process.env.BENCH_MIX ?? '7,2,1').split(',').map(Number);
if (MIX_TENTHS.length !== 3 || MIX_TENTHS.some((n) => !Number.isInteger(n) || n < 0) || MIX_TENTHS[0]! + MIX_TENTHS[1]! + MIX_TENTHS[2]! !== 10) {
  throw new Error('BENCH_MIX must be three whole tenths adding up to 10, e.g. 7,2,1');
}
const MIX_SPLIT = [MIX_TENTHS[0]!, MIX_TENTHS[0]! + MIX_TENTHS[1]!] as const;

interface MixAccount extends Account {
  /** this account's resting orders, oldest first (an IOC may have filled some: cancel says 404) */
  resting: string[];
}

/** The mix accounts (`mix1`..), create headers re-signed every 100 ms until stop(). */
export function mixAccountsOf(list: readonly ProvisionedAccount[]): { accounts: MixAccount[]; stop(): void } {
  const mix = list.filter((a) => a.name.startsWith('mix'));
  if (mix.length !== MIX_ACCOUNTS) throw new Error(`expected ${MIX_ACCOUNTS} mix accounts, got ${mix.length}`);
  const signer = refreshedSigners(mix, 100);
  return { accounts: signer.accounts.map((a) => Object.assign(a, { resting: [] as string[] })), stop: signer.stop };
}

/** What the mix sent, and the answers that were not the expected ones (by status). */
export interface MixTally {
  counts: { create: number; cancel: number; cancelGone: number; ioc: number };
  unexpected: Map<number, number>;
}

/** The i-th request of the mix: 7 in 10 resting creates, 2 cancels, 1 crossing IOC (per BENCH_MIX); counted in `tally`. */
export function mixOp(request: Requester, accounts: MixAccount[], tally: MixTally): Op {
  const { counts } = tally;
  const expect = (status: number, ...expected: number[]): boolean => {
    if (expected.includes(status)) return true;
    tally.unexpected.set(status, (tally.unexpected.get(status) ?? 0) + 1);
    return false;
  };
  return async (i) => {
    const a = accounts[i % accounts.length]!;
    const kind = (i * 3) % 10; // 0..9, spread over the accounts
    if (kind >= MIX_SPLIT[1]) {
      counts.ioc++;
      const side = i % 2 === 0 ? 'ask' : 'bid';
      const body = `{"ticker":"${TICKER}","side":"${side}","count":"1","price":"${side === 'ask' ? '0.01' : '0.99'}","time_in_force":"immediate_or_cancel"}`;
      return expect((await request('POST', CREATE_PATH, a.headers, body)).status, 201);
    }
    if (kind >= MIX_SPLIT[0] && a.resting.length > 0) {
      counts.cancel++;
      const path = ORDER_PATH(a.resting.shift()!);
      const ts = Date.now();
      const headers = { 'SVC-ACCESS-KEY': a.keyId, 'SVC-ACCESS-TIMESTAMP': String(ts), 'SVC-ACCESS-SIGNATURE': await signAsync(a.key, `${ts}DELETE${path}`) };
      const { status } = await request('DELETE', path, headers, null);
      if (status === 404) counts.cancelGone++;
      return expect(status, 200, 404);
    }
    counts.create++;
    // resting: bids 20-38c, asks 62-80c, never crossing each other
    const side = i % 2 === 0 ? 'bid' : 'ask';
    const price = side === 'bid' ? 20 + (i % 19) : 62 + (i % 19);
    const res = await request('POST', CREATE_PATH, a.headers, `{"ticker":"${TICKER}","side":"${side}","count":"1","price":"0.${price}"}`);
    if (!expect(res.status, 201)) return false;
    a.resting.push((JSON.parse(res.body) as { order_id: string }).order_id);
    return true;
  };
}
