// The catalog's clock: what the schedule says should have happened by now. Series fee changes
// that came due are applied, catalog markets whose open time passed are opened, and open or
// paused ones whose close time passed are closed. Each is an ordinary journaled command; the
// activity only decides when to send them (every 15 s while the exchange runs with sim on).
import type { CoreCommand } from '../core/core';
import type { Engine } from '../engine/engine';
import { catalogOf } from '../core/catalog-module';
import type { CatalogState } from '../state/catalog';
import type { Activity } from '../server';

export const CATALOG_CLOCK_MS = 15_000;

/** The commands that bring the catalog up to `nowMs` (none when nothing is due). */
export function dueCatalogCommands(cat: CatalogState, engine: Engine, nowMs: number): CoreCommand[] {
  const out: CoreCommand[] = [];
  if (cat.seriesFeeChanges.some((c) => !c.applied && c.effective_ms <= nowMs)) out.push({ type: 'catalogApplyDueFeeChanges', nowMs });
  for (const event of cat.eventOrder) {
    for (const ticker of cat.events[event]?.markets ?? []) {
      const meta = cat.markets[ticker];
      const m = engine.getMarket(ticker);
      if (!meta || !m) continue;
      if (m.status === 'unopened' && meta.open_ms <= nowMs && nowMs < meta.close_ms) out.push({ type: 'catalogMarketLifecycle', nowMs, ticker, action: 'open' });
      else if ((m.status === 'open' || m.status === 'paused') && meta.close_ms <= nowMs) out.push({ type: 'catalogMarketLifecycle', nowMs, ticker, action: 'close' });
    }
  }
  return out;
}

/** Register in server.ts `activities` to keep schedules moving while the exchange runs. */
export const catalogClock: Activity = (svc) => {
  let busy = false;
  const tick = async () => {
    if (busy) return;
    busy = true;
    try {
      const nowMs = svc.node.now();
      for (const cmd of dueCatalogCommands(catalogOf(svc.node.core), svc.node.core.engine, nowMs)) await svc.node.submit(cmd);
    } catch (err) {
      console.error('[exchange] catalog clock failed', err);
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void tick(), CATALOG_CLOCK_MS);
  timer.unref?.();
  void tick();
  return { stop: () => clearInterval(timer) };
};
