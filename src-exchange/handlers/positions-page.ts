// One page of positions as GET /portfolio/positions and GET /fcm/positions both answer it: the
// engine's rows for one user, narrowed by count_filter and to what /historical/* does not serve,
// in (ticker, subaccount) order, paged by that key, presented with their event roll-up.
import type { Engine } from '../engine/engine';
import type { PositionView } from '../engine/types';
import { invalidParameters } from '../core/errors';
import { isLivePosition, type Cutoffs } from '../state/catalog';
import { presentEventPositions, presentPosition } from './present';
import { pageAfterSortKey } from './support';

/** `count_filter` names: a row passes when any named field is non-zero. */
const COUNT_FILTERS: Record<string, (p: PositionView) => boolean> = {
  position: (p) => p.position !== 0,
  total_traded: (p) => p.total_traded !== 0,
  resting_order_count: (p) => p.resting_orders_count !== 0,
  resting_orders_count: (p) => p.resting_orders_count !== 0,
};

function countFilter(text: string | undefined): (p: PositionView) => boolean {
  if (text === undefined) return () => true;
  const tests = text.split(',').map((name) => {
    const f = COUNT_FILTERS[name.trim()];
    if (!f) throw invalidParameters(`count_filter: unknown field ${JSON.stringify(name)} (use ${Object.keys(COUNT_FILTERS).join(', ')})`);
    return f;
  });
  return (p) => tests.some((t) => t(p));
}

export interface PositionsQuery {
  subaccount?: number;
  ticker?: string;
  event_ticker?: string;
  count_filter?: string;
  settlement_status?: 'unsettled' | 'settled' | 'all';
  limit?: number;
  cursor?: string;
}

/** The page; `none` answers an empty page (a read on an exchange index this exchange does not run) after checking the query. */
export function positionsPage(engine: Engine, userId: string, q: PositionsQuery, cut: Cutoffs, none = false) {
  const status = q.settlement_status ?? 'unsettled';
  const keep = countFilter(q.count_filter);
  const rows = none
    ? []
    : engine
        .getPositions(userId, { subaccount: q.subaccount, ticker: q.ticker, eventTicker: q.event_ticker, settled: status === 'all' ? undefined : status === 'settled' })
        .filter((p) => keep(p) && isLivePosition(engine, p, cut))
        .sort((a, b) => (a.ticker < b.ticker ? -1 : a.ticker > b.ticker ? 1 : a.subaccount - b.subaccount));
  // paged by (ticker, subaccount), the order above: a position closing between a client's pages hides none
  const page = pageAfterSortKey(rows, q.cursor, q.limit, (p) => [p.ticker, p.subaccount]);
  return {
    market_positions: page.items.map(presentPosition),
    event_positions: presentEventPositions(page.items),
    cursor: page.cursor,
    has_next: page.has_next,
  };
}
