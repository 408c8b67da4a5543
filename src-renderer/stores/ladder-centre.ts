// "Centre the ladder on this price", asked by another panel (the depth heatmap's click on a price):
// every ladder showing that market centres on it and stops following the inside.
export interface LadderCentreRequest {
  ticker: string;
  /** the YES price in ticks */
  yesTicks: number;
}

const listeners = new Set<(r: LadderCentreRequest) => void>();

/** Asks the ladders of `ticker` to centre on a YES price; false when no ladder listens. */
export function centreLadders(r: LadderCentreRequest): boolean {
  for (const fn of listeners) fn(r);
  return listeners.size > 0;
}

export function onLadderCentre(fn: (r: LadderCentreRequest) => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
