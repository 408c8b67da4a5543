// The markets' price grids as main knows them (every market row read through the passthrough,
// else one market read), so an order at a price its market does not take is refused before
// anything is sent: the exchange would answer 400 invalid_price.
import type { PriceRange } from '../../src-shared/price-ranges';
import { offTickReason } from '../../src-shared/price-check';
import type { ApiClient } from '../api/client';
import { StateError } from '../base/errors';

export class PriceGrids {
  private readonly ranges = new Map<string, PriceRange[]>();

  /** Market rows in any answer (a `market`, a `markets` list, an event's markets) teach their grids. */
  note(answer: unknown): void {
    if (!answer || typeof answer !== 'object') return;
    const a = answer as { market?: unknown; markets?: unknown; event?: { markets?: unknown }; events?: unknown };
    const rows: unknown[] = [];
    if (a.market) rows.push(a.market);
    if (Array.isArray(a.markets)) rows.push(...(a.markets as unknown[]));
    if (a.event && Array.isArray(a.event.markets)) rows.push(...(a.event.markets as unknown[]));
    if (Array.isArray(a.events)) for (const e of a.events as { markets?: unknown }[]) if (Array.isArray(e?.markets)) rows.push(...(e.markets as unknown[]));
    for (const r of rows) {
      const m = r as { ticker?: unknown; price_ranges?: unknown } | null;
      if (m && typeof m.ticker === 'string') this.ranges.set(m.ticker, Array.isArray(m.price_ranges) ? (m.price_ranges as PriceRange[]) : []);
    }
  }

  /** Refuses (StateError invalid_price) a price the market does not take; reads the market once when its grid is not known yet. */
  async check(client: Pick<ApiClient, 'getMarket'>, ticker: string, price: string | undefined): Promise<void> {
    if (price === undefined) return;
    let ranges = this.ranges.get(ticker);
    if (!ranges) {
      const m = await client.getMarket({ params: { ticker } }).catch(() => null);
      // unknown market: the exchange answers for it
      if (!m) return;
      this.note(m);
      ranges = this.ranges.get(ticker) ?? [];
    }
    const why = offTickReason(price, ranges);
    if (why) throw new StateError(`not sent: ${ticker} ${why}`, 'invalid_price');
  }
}
