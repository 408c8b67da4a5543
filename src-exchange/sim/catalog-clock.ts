// The catalog's clock: series fee changes scheduled for a time that has come are applied (to
// the series and its markets) by an ordinary journaled command; the activity only decides when
// to send it (checked every 15 s while the exchange runs with sim on). Market opening and
// closing on schedule is the simulation's lifecycle (sim/lifecycle.ts).
import type { CoreCommand } from '../core/core';
import { catalogOf } from '../core/catalog-module';
import type { CatalogState } from '../state/catalog';
import type { Activity } from '../server-types';

export const CATALOG_CLOCK_MS = 15_000;

/** The commands that bring the catalog up to `nowMs` (none when nothing is due). */
export function dueCatalogCommands(cat: CatalogState, nowMs: number): CoreCommand[] {
  const out: CoreCommand[] = [];
  if (cat.seriesFeeChanges.some((c) => !c.applied && c.effective_ms <= nowMs)) out.push({ type: 'catalogApplyDueFeeChanges', nowMs });
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
      for (const cmd of dueCatalogCommands(catalogOf(svc.node.core), nowMs)) await svc.node.submit(cmd);
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
