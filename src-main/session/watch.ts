// Which markets the session streams in full (book deltas and trades; every market's ticker comes
// anyway): what the renderer asked for, and what main's own tools pin by owner (alerts, local
// orders), whatever the renderer shows. Subscribes what is new and unsubscribes what nobody wants.
import type { StreamConnection } from '../stream/connection';

/** Channels subscribed per watched market; `ticker` is subscribed for all markets at start. */
const WATCHED_CHANNELS = ['orderbook_delta', 'trade'] as const;

export class MarketWatch {
  private readonly watched = new Set<string>();
  /** what the renderer asked to stream, and what main's own tools pin (alerts, local orders) */
  private rendererWatch: string[] = [];
  private readonly pins = new Map<string, string[]>();

  constructor(private readonly stream: Pick<StreamConnection, 'want' | 'unwant'>) {}

  /** The markets the renderer wants live (the ladder, watchlist and chart ask for these); main's pins are kept. */
  async watchMarkets(tickers: string[]): Promise<void> {
    this.rendererWatch = tickers;
    await this.apply();
  }

  /** Markets main's own tools need streamed whatever the renderer shows (by owner; an empty list unpins). */
  async pin(owner: string, tickers: string[]): Promise<void> {
    if (tickers.length) this.pins.set(owner, tickers);
    else this.pins.delete(owner);
    await this.apply();
  }

  private async apply(): Promise<void> {
    const next = new Set(this.rendererWatch);
    for (const list of this.pins.values()) for (const t of list) next.add(t);
    const add = [...next].filter((t) => !this.watched.has(t));
    const remove = [...this.watched].filter((t) => !next.has(t));
    for (const t of add) this.watched.add(t);
    for (const t of remove) this.watched.delete(t);
    if (add.length) {
      try {
        await Promise.all(WATCHED_CHANNELS.map((ch) => this.stream.want(ch, add)));
      } catch (err) {
        // not streamed: the next watch asks again instead of believing it is
        for (const t of add) this.watched.delete(t);
        throw err;
      }
    }
    if (remove.length) {
      await Promise.all(WATCHED_CHANNELS.map((ch) => this.stream.unwant(ch, remove).catch(() => undefined)));
    }
  }
}
