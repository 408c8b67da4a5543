// The simulation's tuning, as a type of its own: the server's options name it without importing
// the simulation (which is one of the server's activities).
import type { LifecycleOptions } from './lifecycle';
import type { ParticipantOptions } from './participants';

export interface SimOptions extends ParticipantOptions, LifecycleOptions {
  seed: number;
  /** commands per second, all participants together (lifecycle steps come on top, bounded) */
  ratePerSecond: number;
  /** how often the simulation acts */
  tickMs: number;
  /** how often the lifecycle pass, top-ups and the list of quoted markets refresh */
  lifecycleMs: number;
  /** open markets quoted at most (newest first) */
  maxActiveMarkets: number;
  /** share of the command budget spent on takers */
  takerShare: number;
  /** the busiest markets (by volume) get `hotShare` of the activity, like an active real market */
  hotMarkets: number;
  hotShare: number;
}
