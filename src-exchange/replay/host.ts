// The exchange's replay slot: at most one recording replayed at a time. Loading one pauses the
// simulation and clears the simulated participants' orders from the recording's markets (the
// books are the recording's alone); unloading cancels the replay's orders and resumes the
// simulation. Driven by the admin route (admin.ts) or the CLI's --replay.
import type { Services } from '../core/services';
import { users } from '../core/services';
import { ExchangeReplay } from './exchange-replay';
import type { Speed } from './player';
import type { Tape } from './tape';
import { ExchangeError } from '../core/errors';

/** paper cash of a trader's replay subaccount: $100,000 */
const REPLAY_TRADER_CASH_MICRO = 100_000 * 1_000_000;

export interface ReplayHostHooks {
  pauseSim(): Promise<void>;
  resumeSim(): void;
}

export class ReplayHost {
  current: ExchangeReplay | null = null;
  private busy: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly svc: Services,
    readonly hooks: ReplayHostHooks,
  ) {}

  /** One load or unload at a time. */
  private serial<T>(f: () => Promise<T>): Promise<T> {
    const next = this.busy.then(f, f);
    this.busy = next.catch(() => undefined);
    return next;
  }

  load(tape: Tape, speed?: Speed, account?: string): Promise<ExchangeReplay> {
    return this.serial(async () => {
      await this.unloadNow(false);
      await this.hooks.pauseSim();
      await this.clearSim(tape.markets);
      const replay = await ExchangeReplay.start(this.svc, tape, speed !== undefined ? { speed } : {});
      // the trader's replay account: a subaccount of their own, never the live one's positions and cash
      if (account) replay.traderSubaccount = await this.replaySubaccount(account);
      this.current = replay;
      return this.current;
    });
  }

  /** per trader, the subaccount replays trade in (opened and funded on the first replay) */
  private readonly replaySubaccounts = new Map<string, number>();

  private async replaySubaccount(userId: string): Promise<number> {
    const known = this.replaySubaccounts.get(userId);
    if (known !== undefined) return known;
    if (!users(this.svc).users[userId]) throw new ExchangeError(400, 'invalid_parameters', `replay control: no account ${userId}`);
    const created = await this.svc.node.submit({ type: 'createSubaccount', nowMs: this.svc.node.now(), userId });
    if (!created.ok) throw new ExchangeError(409, 'conflict', `replay control: cannot open a replay subaccount: ${JSON.stringify(created.result)}`);
    const n = (created.result as { subaccount: number }).subaccount;
    const funded = await this.svc.node.submit({ type: 'deposit', nowMs: this.svc.node.now(), userId, subaccount: n, amountMicro: REPLAY_TRADER_CASH_MICRO });
    if (!funded.ok) throw new ExchangeError(409, 'conflict', `replay control: cannot fund the replay subaccount: ${JSON.stringify(funded.result)}`);
    this.replaySubaccounts.set(userId, n);
    return n;
  }

  unload(): Promise<void> {
    return this.serial(() => this.unloadNow(true));
  }

  /** The exchange is closing: the replay goes, the simulation is not resumed. */
  close(): Promise<void> {
    return this.serial(() => this.unloadNow(false));
  }

  private async unloadNow(resume: boolean): Promise<void> {
    const r = this.current;
    if (!r) return;
    this.current = null;
    await r.close();
    if (resume) this.hooks.resumeSim();
  }

  /** The simulated participants' resting orders in these markets are canceled. */
  private async clearSim(tickers: readonly string[]): Promise<void> {
    const sim = new Set(Object.values(users(this.svc).users).filter((u) => u.name.startsWith('sim-')).map((u) => u.user_id));
    const e = this.svc.node.core.engine;
    const done: Promise<unknown>[] = [];
    for (const ticker of tickers) {
      for (const o of e.listOrders({ ticker, status: 'resting' })) {
        if (sim.has(o.user_id)) done.push(this.svc.node.submit({ type: 'cancelOrder', nowMs: this.svc.node.now(), userId: o.user_id, orderId: o.order_id, subaccount: o.subaccount }));
      }
    }
    await Promise.all(done);
  }
}
