// Drives the index channels: a timer aligned to the generator's ticks that runs only while some
// subscription wants an index. Each tick sends `cfbenchmarks_value_5hz`; the first tick of each
// second also sends `cfbenchmarks_value` and `pyth_value` (one per underlying a subscription
// takes). A message is built once per index and shared.
import type { Sub } from './connection';
import { IndexGenerator, PYTH_UNDERLYINGS, isPythUnderlying, type IndexId, type PythUnderlying } from './index-feed';

export class IndexFeed {
  private readonly gen: IndexGenerator;
  private timer: NodeJS.Timeout | null = null;
  private lastTick = -1;
  private lastSecond = -1;

  constructor(
    seed: number,
    private readonly tickMs: number,
    private readonly clock: () => number,
    private readonly subs: () => { value: ReadonlySet<Sub>; fast: ReadonlySet<Sub>; pyth: ReadonlySet<Sub> },
  ) {
    this.gen = new IndexGenerator(seed, tickMs);
  }

  /** A subscription appeared: make sure the timer runs. */
  wake(): void {
    if (this.timer) return;
    this.schedule();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    const now = this.clock();
    const next = (Math.floor(now / this.tickMs) + 1) * this.tickMs;
    this.timer = setTimeout(() => this.fire(), Math.max(1, next - now));
  }

  private fire(): void {
    this.timer = null;
    const { value, fast, pyth } = this.subs();
    if (value.size === 0 && fast.size === 0 && pyth.size === 0) return; // idle until the next subscribe wakes us
    const now = this.clock();
    const tick = this.gen.tickOf(now);
    if (tick !== this.lastTick) {
      this.lastTick = tick;
      this.send(fast, 'cfbenchmarks_value_5hz', (i) => this.gen.fastMsg(i, now));
      const second = Math.floor(now / 1000);
      if (second !== this.lastSecond) {
        this.lastSecond = second;
        this.send(value, 'cfbenchmarks_value', (i) => this.gen.valueMsg(i, now));
        this.sendPyth(pyth, now);
      }
    }
    this.schedule();
  }

  private sendPyth(subs: ReadonlySet<Sub>, now: number): void {
    if (subs.size === 0) return;
    const cache = new Map<string, string>();
    for (const sub of subs) {
      const u = sub.underlyings;
      if (!u) continue;
      const streamed: readonly PythUnderlying[] = u.all ? PYTH_UNDERLYINGS : [...u.tickers].filter(isPythUnderlying);
      for (const id of streamed) {
        let json = cache.get(id);
        if (json === undefined) cache.set(id, (json = JSON.stringify(this.gen.pythMsg(id, now))));
        sub.conn.sendData(sub, 'pyth_value', json);
      }
    }
  }

  private send(subs: ReadonlySet<Sub>, type: string, build: (index: IndexId) => object): void {
    if (subs.size === 0) return;
    const cache = new Map<IndexId, string>();
    for (const sub of subs) {
      for (const index of sub.indices ?? []) {
        let json = cache.get(index);
        if (json === undefined) cache.set(index, (json = JSON.stringify(build(index))));
        sub.conn.sendData(sub, type, json);
      }
    }
  }
}
