// Through a settlement. With the simulation's short market cycle (`--sim-market-minutes`), the
// trader buys 1 YES in a market the simulation added that closes soon, over REST with the
// trader's own key (as from another device of the same account: the terminal learns of it from
// its streams), and holds it until the exchange settles the market. The Positions panel (its
// flat rows listed) and the Risk panel's today's P&L are judged while it is held and after it
// settled, against the exchange's fills and settlements (ledger.ts); the run is not done until
// they were judged after the settlement.
import { randomUUID } from 'node:crypto';
import type { ApiClient } from '../../src-main/api/client';
import { Decimal } from '../../src-shared/money';
import { SIM_MARKET_MARK } from '../../src-exchange/sim/lifecycle';
import type { ExchangeSnapshot } from './exchange';
import type { Judge } from './judge';

/** A market to buy into closes at least this long from now (time to buy and be judged holding it)… */
const CLOSES_AFTER_MS = 30_000;
/** …and at most this long (the run must see it settle). */
const CLOSES_BEFORE_MS = 5 * 60_000;
const TRY_EVERY_MS = 5_000;

export class SettlementLeg {
  /** the market held into its settlement, once bought */
  ticker: string | null = null;
  /** when a snapshot first held its settlement */
  settledAt: number | null = null;
  private lastTry = 0;

  constructor(
    private readonly trader: ApiClient,
    private readonly log?: (line: string) => void,
  ) {}

  /** After each snapshot: buy into a market closing soon (once), then note when it settled. */
  async step(ex: ExchangeSnapshot): Promise<void> {
    if (this.settledAt !== null) return;
    if (this.ticker !== null) {
      const s = ex.settlements.find((r) => r.ticker === this.ticker);
      if (s) {
        this.settledAt = ex.at;
        this.log?.(`${this.ticker} settled: revenue ${s.revenue.toString()} cents for 1 YES`);
      }
      return;
    }
    if (Date.now() - this.lastTry < TRY_EVERY_MS) return;
    this.lastTry = Date.now();
    const now = Date.now();
    const { markets } = await this.trader.getMarkets({ query: { status: 'open', limit: 1000, min_close_ts: Math.ceil((now + CLOSES_AFTER_MS) / 1000), max_close_ts: Math.floor((now + CLOSES_BEFORE_MS) / 1000) } });
    const pick = markets
      .filter((m) => m.ticker.includes(SIM_MARKET_MARK) && m.yes_ask_dollars !== undefined && new Decimal(String(m.yes_ask_dollars)).gt(0))
      .sort((a, b) => Date.parse(String(a.close_time)) - Date.parse(String(b.close_time)))[0];
    if (!pick) return;
    // a buy at up to 0.99, immediate or cancel: it takes the best offer
    const r = await this.trader.createOrder({ body: { ticker: pick.ticker, side: 'bid', price: '0.9900', count: '1.00', time_in_force: 'immediate_or_cancel', client_order_id: randomUUID() } });
    if (new Decimal(String(r.fill_count ?? '0')).gt(0)) {
      this.ticker = pick.ticker;
      this.log?.(`holding 1 YES ${pick.ticker} into its settlement (closes ${String(pick.close_time)})`);
    }
  }

  /** What the run still waits for: the held market's Positions row and today's P&L judged after it settled. */
  missing(judge: Judge): string[] {
    if (this.ticker === null) return ['no position held into a settlement yet'];
    if (this.settledAt === null) return [`${this.ticker} not settled yet`];
    const after = (key: string) => (judge.lastJudged(key) ?? 0) > this.settledAt!;
    const out: string[] = [];
    if (!after(`positions|${this.ticker}|realized`)) out.push(`the settled ${this.ticker} not judged in Positions`);
    if (!after('risk|today pnl')) out.push("today's P&L not judged after the settlement");
    return out;
  }
}
