// Where the heatmap's price window sits when it follows the market: centred on the mid, and moved
// only when the inside leaves the middle of the window (a window that moved with every tick would
// draw the whole history again each time).
import type { HeatColumn } from './heat-model';
import { heatHeight, midOf, rowsShown, topForCentre, type HeatGeometry } from './heat-view';

export function followTop(prevTop: number | null, latest: HeatColumn | undefined, g: Omit<HeatGeometry, 'top'>): number {
  const mid = (latest ? midOf(latest.bids, latest.asks) : null) ?? 5000;
  const fresh = topForCentre(mid, g);
  if (prevTop === null || heatHeight({ ...g, top: 0 }) <= 0) return fresh;
  const rows = rowsShown({ ...g, top: prevTop });
  const margin = Math.max(1, Math.floor(rows * 0.15)) * g.step;
  const lowest = prevTop - (rows - 1) * g.step;
  const bid = latest?.bids[0];
  const ask = latest?.asks[0];
  const inside = (p: number | undefined) => p === undefined || (p <= prevTop - margin && p >= lowest + margin);
  return inside(bid) && inside(ask) ? prevTop : fresh;
}
