// Queue positions of the trader's resting orders, one source for every panel that shows them.
// The ladder (its Mine cells, "5 · q41") and the Orders panel (its Queue column) each asked the
// exchange on their own: different markets in the key, different polls, and the Orders panel only
// on its Resting tab, so the same order could read q41 on the ladder while the Queue cell stayed
// blank for 20 s. Now every consumer registers the markets it needs and all of them read one
// query over the union (one request per poll, whatever the number of panels), kept while a new
// union loads so a cell never blanks when a panel opens or a market gains its first order.
import { useEffect, useId, useMemo } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { create } from 'zustand';
import { rest, restKey } from '../lib/rest';

/** the exchange takes up to 100 markets in one ask */
const MAX_MARKETS = 100;

const useWanted = create<{ by: Record<string, string> }>(() => ({ by: {} }));

const csv = (tickers: Iterable<string>): string => [...new Set(tickers)].filter(Boolean).sort().slice(0, MAX_MARKETS).join(',');
const split = (c: string): string[] => (c ? c.split(',') : []);

/** Queue position (contracts ahead, as the exchange says it) of each resting order in `tickers`, by order id. */
export function useQueuePositions(tickers: readonly string[]): ReadonlyMap<string, string> {
  const id = useId();
  const mine = useMemo(() => csv(tickers), [tickers]);
  useEffect(() => {
    useWanted.setState((s) => ({ by: { ...s.by, [id]: mine } }));
    return () =>
      useWanted.setState((s) => {
        const by = { ...s.by };
        delete by[id];
        return { by };
      });
  }, [id, mine]);
  // every consumer computes the same union, so they share one query (and its polls)
  const others = useWanted((s) => csv(Object.values(s.by).flatMap(split)));
  const all = useMemo(() => csv([...split(others), ...split(mine)]), [others, mine]);
  const args = { query: { market_tickers: all } };
  const q = useQuery({
    queryKey: restKey('getQueuePositions', args),
    queryFn: () => rest('getQueuePositions', args),
    enabled: mine.length > 0,
    refetchInterval: 3000,
    staleTime: 2000,
    placeholderData: keepPreviousData,
  });
  return useMemo(() => new Map((q.data?.queue_positions ?? []).map((p) => [p.order_id, p.queue_position])), [q.data]);
}
