// My orders: resting, executed, canceled. Seeded from GET /portfolio/orders and kept live by the
// 'private' stream. Amend, decrease, cancel, batch cancel of selected rows, cancel all; order groups.
import { useMemo, useState } from 'react';
import type { RowSelectionState } from '@tanstack/react-table';
import { useQueuePositions } from '../../hooks/useQueuePositions';
import { usePrivate } from '../../stores/private';
import { reseed, useSeed } from '../../stores/seed';
import { useSession } from '../../stores/session';
import { useTrading } from '../../stores/trading';
import type { OrderRow } from '../../stores/normalize';
import { cancelAllIn, cancelOrders } from '../../services/trade';
import { PendingOrders } from './PendingOrders';
import { LocalOrders } from './LocalOrders';
import { useTools, isLiveLocal } from '../../stores/tools';
import { confirmAction } from '../../ui/confirm';
import { DataTable } from '../../ui/DataTable';
import { TabbedPanel } from '../../ui/TabbedPanel';
import { OrderGroups } from './OrderGroups';
import { AmendDialog, DecreaseDialog } from './OrderDialogs';
import { sortTime, useOrderColumns } from './order-columns';

type Tab = 'resting' | 'executed' | 'canceled' | 'all' | 'local' | 'groups';
const TABS: { id: Tab; label: string }[] = [
  { id: 'resting', label: 'Resting' },
  { id: 'executed', label: 'Executed' },
  { id: 'canceled', label: 'Canceled' },
  { id: 'all', label: 'All' },
  { id: 'local', label: 'Local' },
  { id: 'groups', label: 'Order groups' },
];

/** The orders a blotter tab lists, newest first, and the queue position of each resting one. */
function useBlotterRows(tab: Tab, onlyMarket: boolean, ticker: string | null | undefined) {
  const ordersMap = usePrivate((s) => s.orders);
  const restingTickers = useMemo(() => [...new Set(Object.values(ordersMap).filter((o) => o.status === 'resting').map((o) => o.ticker))].slice(0, 100), [ordersMap]);
  // the ladder's source (one query for every panel): the same order reads the same queue here as on its ladder
  const queueBy = useQueuePositions(restingTickers);

  const rows = useMemo(() => {
    // a new list when the queue positions change too: the table caches each row's column values
    // (the Queue accessor included) until its data changes, so a position that came after the
    // row was first drawn stayed blank until the order itself changed
    if (!queueBy) return [];
    const all = Object.values(ordersMap).filter((o) => (tab === 'all' ? true : o.status === tab) && (!onlyMarket || o.ticker === ticker));
    return all.sort((a, b) => sortTime(b) - sortTime(a));
  }, [ordersMap, tab, onlyMarket, ticker, queueBy]);
  return { rows, queueBy };
}

function BlotterTools({ tab, onlyMarket, setOnlyMarket, ticker, selected, clearSelection }: { tab: Tab; onlyMarket: boolean; setOnlyMarket: (v: boolean) => void; ticker: string | null | undefined; selected: OrderRow[]; clearSelection: () => void }) {
  const confirmAll = useSession((s) => s.settings.confirmCancelAll);
  const cancelAll = async () => {
    const scope = onlyMarket && ticker ? ticker : undefined;
    const ok =
      !confirmAll ||
      (await confirmAction({
        title: 'Cancel all resting orders?',
        body: scope ? `Cancel every resting order of mine in ${scope}?` : 'Cancel every resting order of mine in every market (up to 10,000)?',
        confirmLabel: 'Cancel all',
        danger: true,
      }));
    if (ok) await cancelAllIn(scope, 'blotter');
  };
  return (
    <>
      <label className="check">
        <input type="checkbox" checked={onlyMarket} onChange={(e) => setOnlyMarket(e.target.checked)} disabled={!ticker} />
        Only {ticker ?? 'the selected market'}
      </label>
      {tab === 'resting' && (
        <>
          <button
            type="button"
            className="btn btn-sm"
            disabled={!selected.length}
            onClick={() => {
              void cancelOrders(selected).then(clearSelection);
            }}
          >
            Cancel selected ({selected.length})
          </button>
          <button type="button" className="btn btn-sm btn-danger" onClick={() => void cancelAll()}>
            {confirmAll ? 'Cancel all…' : 'Cancel all'}
          </button>
        </>
      )}
      <button type="button" className="btn btn-sm" onClick={() => void reseed('orders')} title="Reload from the exchange">
        Refresh
      </button>
    </>
  );
}

export function OrdersPanel() {
  const [tab, setTab] = useState<Tab>('resting');
  const [onlyMarket, setOnlyMarket] = useState(false);
  const ticker = useTrading((s) => s.ticker);
  const seed = useSeed((s) => s.orders);
  const [selection, setSelection] = useState<RowSelectionState>({});
  const [amend, setAmend] = useState<OrderRow | null>(null);
  const [decrease, setDecrease] = useState<OrderRow | null>(null);
  const localCount = useTools((s) => (s.local?.orders ?? []).filter((o) => isLiveLocal(o.state)).length);
  const { rows, queueBy } = useBlotterRows(tab, onlyMarket, ticker);
  const columns = useOrderColumns(queueBy, setAmend, setDecrease);

  const selected = rows.filter((o) => selection[o.order_id] && o.status === 'resting');
  const emptyText = { resting: 'No resting orders.', executed: 'No executed orders.', canceled: 'No canceled orders.', all: 'No orders yet.', groups: '', local: '' }[tab];

  const blotter = (
    <DataTable
      label={`${TABS.find((t) => t.id === tab)!.label} orders`}
      data={rows}
      columns={columns}
      getRowId={(o) => o.order_id}
      loading={seed.state === 'loading' || seed.state === 'idle'}
      loadingText="Loading orders…"
      error={seed.state === 'error' ? seed.error : undefined}
      onRetry={() => void reseed('orders')}
      emptyText={onlyMarket && ticker ? `${emptyText.replace(/\.$/, '')} in ${ticker}.` : emptyText}
      selectable={tab === 'resting'}
      selection={selection}
      onSelectionChange={setSelection}
      initialSorting={[{ id: 'time', desc: true }]}
      onActivate={(o) => o.status === 'resting' && setAmend(o)}
      onDelete={(o) => o.status === 'resting' && void cancelOrders([o])}
      tools={<BlotterTools tab={tab} onlyMarket={onlyMarket} setOnlyMarket={setOnlyMarket} ticker={ticker} selected={selected} clearSelection={() => setSelection({})} />}
    />
  );
  return (
    <>
      <TabbedPanel
        label="Order views"
        tabs={TABS.map((t) => ({ ...t, render: () => (t.id === 'groups' ? <OrderGroups /> : t.id === 'local' ? <LocalOrders /> : blotter), ...(t.id === 'local' && localCount ? { label: `Local (${localCount})` } : {}) }))}
        value={tab}
        onChange={setTab}
        strip={<PendingOrders />}
      />
      {amend && <AmendDialog order={amend} onClose={() => setAmend(null)} />}
      {decrease && <DecreaseDialog order={decrease} onClose={() => setDecrease(null)} />}
    </>
  );
}
