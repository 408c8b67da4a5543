// The watchlist (kept per profile in localStorage), with live prices.
import { useMemo, useState } from 'react';
import type { Market } from '../../../src-shared/wire/markets';
import { useRest } from '../../hooks/useRest';
import { useTrading } from '../../stores/trading';
import { DataTable } from '../../ui/DataTable';
import { marketColumns, useLiveMarkets } from './market-columns';
import { useSelectMarket } from '../../hooks/useLink';

export function Watchlist() {
  const list = useTrading((s) => s.watchlist);
  const toggle = useTrading((s) => s.toggleWatch);
  const select = useSelectMarket();
  const [adding, setAdding] = useState('');
  const q = useRest('getMarkets', { query: { tickers: list.join(','), limit: 1000 } }, { enabled: list.length > 0 });
  const listed = useMemo(() => {
    const byTicker = new Map((q.data?.markets ?? []).map((m) => [m.ticker, m]));
    return list.map((t) => byTicker.get(t)).filter((m): m is Market => !!m);
  }, [q.data, list]);
  const rows = useLiveMarkets(listed);
  const missing = q.data ? list.filter((t) => !q.data.markets.some((m) => m.ticker === t)) : [];
  const columns = useMemo(() => marketColumns(), []);
  const add = () => {
    const t = adding.trim().toUpperCase();
    if (t && !list.includes(t)) toggle(t);
    setAdding('');
  };
  return (
    <DataTable
      label="Watchlist"
      data={rows}
      columns={columns}
      getRowId={(m) => m.ticker}
      loading={list.length > 0 && q.isPending}
      loadingText="Loading the watchlist…"
      error={q.error}
      onRetry={() => void q.refetch()}
      emptyText={list.length ? 'None of the watched markets exist on this exchange.' : 'The watchlist is empty. Star a market (☆) to add it, or type a ticker above.'}
      onActivate={(m) => {
        select(m.ticker);
      }}
      tools={
        <>
          <input placeholder="Add ticker" aria-label="Add a ticker to the watchlist" value={adding} onChange={(e) => setAdding(e.target.value)} onKeyDown={(e) => e.key === 'Enter' && add()} className="u-w-150" />
          <button type="button" className="btn btn-sm" onClick={add} disabled={!adding.trim()}>
            Add
          </button>
          {missing.length > 0 && (
            <span className="dim" title={missing.join(', ')}>
              {missing.length} not found{' '}
              <button type="button" className="btn btn-sm" onClick={() => missing.forEach(toggle)}>
                remove them
              </button>
            </span>
          )}
        </>
      }
    />
  );
}
