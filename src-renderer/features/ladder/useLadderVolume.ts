// Session volume at price for the ladder, from the trades the renderer receives (the market
// store's tape seeds it, each later batch adds to it). Kept here, by trade id, so the store's
// shape stays as it is and a trade counted once is never counted twice.
import { useEffect, useRef } from 'react';
import { countToCenti, dollarsToTicks } from '../../../src-shared/money';
import type { TradeView } from '../../../src-shared/ipc/contract';
import { TAPE, marketStore, useTapeShown } from '../../stores/market';
import type { TradeLite } from './ladder-model';

/**
 * Trade ids remembered for de-duplication: the newest this many. A trade is only ever presented
 * again while it is on the market store's tape (its newest TAPE while a ladder shows the market),
 * so older ids can go: the session volume stays in `byPrice`, and a busy market's day no longer
 * grows the map by every trade. Twice the tape: a batch's trades are presented with the tape.
 */
export const KEEP_TRADE_IDS = 2 * TAPE;

export interface LadderTrades {
  /** the market's trades seen this session, by id (the newest KEEP_TRADE_IDS of them) */
  byId: Map<string, TradeLite>;
  /**
   * the same trades summed per YES price (one entry a price): what the volume column reads each
   * frame, so a paint walks the prices traded, not every trade of the session
   */
  byPrice: Map<number, TradeLite>;
  /** the newest trade, for the last-trade mark */
  last: TradeLite | null;
}

function lite(t: TradeView): TradeLite | null {
  try {
    return { yesTicks: dollarsToTicks(t.yes_price_dollars), centi: countToCenti(t.count_fp) };
  } catch {
    return null; // a price finer than the tick is in the tape, not on the ladder
  }
}

/** Keeps `ref.current` up to date for `ticker` and calls `onChange` when a trade of it arrives. */
export function useLadderTrades(ticker: string | null, onChange: () => void) {
  // the market's whole tape is kept while a ladder shows it (the seed of its volume and last trade)
  useTapeShown(ticker);
  const ref = useRef<LadderTrades>({ byId: new Map(), byPrice: new Map(), last: null });
  useEffect(() => {
    const acc: LadderTrades = { byId: new Map(), byPrice: new Map(), last: null };
    ref.current = acc;
    if (!ticker) return undefined;
    const add = (list: readonly TradeView[]) => {
      let changed = false;
      for (const t of list) {
        if (t.ticker !== ticker || acc.byId.has(t.trade_id)) continue;
        const l = lite(t);
        if (!l) continue;
        acc.byId.set(t.trade_id, l);
        const at = acc.byPrice.get(l.yesTicks);
        acc.byPrice.set(l.yesTicks, { yesTicks: l.yesTicks, centi: (at?.centi ?? 0) + l.centi });
        changed = true;
      }
      if (acc.byId.size > KEEP_TRADE_IDS) {
        // a Map iterates in insertion order: the first keys are the oldest trades
        for (const id of acc.byId.keys()) {
          if (acc.byId.size <= KEEP_TRADE_IDS) break;
          acc.byId.delete(id);
        }
      }
      const newest = marketStore.getState().trades[ticker]?.[0];
      const last = newest ? (acc.byId.get(newest.trade_id) ?? null) : null;
      if (last !== acc.last) {
        acc.last = last;
        changed = true;
      }
      return changed;
    };
    // the tape is newest first: oldest first is the order they happened in
    add([...(marketStore.getState().trades[ticker] ?? [])].reverse());
    onChange();
    return marketStore.subscribe((s, prev) => {
      // every trade of this market lands on its tape: an update that left the tape as it was
      // (another market's trades, the ticker) has nothing for this ladder
      if (s.trades[ticker] === prev.trades[ticker]) return;
      if (add([...s.lastTrades, ...(s.trades[ticker] ?? [])])) onChange();
    });
  }, [ticker, onChange]);
  return ref;
}
