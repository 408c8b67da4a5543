// My orders: resting, executed, canceled. Seeded from GET /portfolio/orders and kept live by the
// 'private' stream. Amend, decrease, cancel, batch cancel of selected rows, cancel all; order groups.
import { useMemo, useState } from 'react';
import type { RowSelectionState } from '@tanstack/react-table';
import { Decimal } from '../../../src-shared/money';
import { useAction } from '../../hooks/useAction';
import { getTerminalApi } from '../../lib/bridge';
import { useQueuePositions } from '../../hooks/useQueuePositions';
import { checkCountText, checkPriceText, wireCount, wirePrice } from '../../lib/order-check';
import { fmtCount, fmtTimeMs, isoTime } from '../../lib/format';
import { notify } from '../../stores/notices';
import { usePrivate } from '../../stores/private';
import { reseed, useSeed } from '../../stores/seed';
import { useSession } from '../../stores/session';
import { useTrading } from '../../stores/trading';
import type { OrderRow } from '../../stores/normalize';
import { amendOrderTo, cancelAllIn, cancelOrders } from '../../services/trade';
import { PendingOrders } from './PendingOrders';
import { LocalOrders } from './LocalOrders';
import { useTools, isLiveLocal } from '../../stores/tools';
import { confirmAction } from '../../ui/confirm';
import { col, DataTable, type Columns } from '../../ui/DataTable';
import { Field } from '../../ui/Field';
import { Modal } from '../../ui/Modal';
import { InlineError } from '../../ui/States';
import { TabbedPanel } from '../../ui/TabbedPanel';
import { OrderGroups } from './OrderGroups';
import { fmtPx } from '../../lib/ticks';

type Tab = 'resting' | 'executed' | 'canceled' | 'all' | 'local' | 'groups';
const TABS: { id: Tab; label: string }[] = [
  { id: 'resting', label: 'Resting' },
  { id: 'executed', label: 'Executed' },
  { id: 'canceled', label: 'Canceled' },
  { id: 'all', label: 'All' },
  { id: 'local', label: 'Local' },
  { id: 'groups', label: 'Order groups' },
];

const sortTime = (o: OrderRow) => {
  const t = o.created;
  if (t === undefined) return 0;
  return typeof t === 'number' ? t : Date.parse(t) || 0;
};

function AmendDialog({ order, onClose }: { order: OrderRow; onClose: () => void }) {
  const [price, setPrice] = useState(() => fmtPx(order.ticker, order.price));
  const [count, setCount] = useState(new Decimal(order.filled).add(order.remaining).toFixed(2));
  const { busy, error, run } = useAction();
  const p = checkPriceText(price);
  const c = checkCountText(count);
  // as it opens the dialog shows the order as it is: Enter (or Amend) does nothing until the trader changes something
  const changed = !!p.value && !!c.value && (!p.value.eq(order.price) || !c.value.eq(new Decimal(order.filled).add(order.remaining)));
  const submit = async () => {
    if (!p.value || !c.value || !changed) return;
    const [pv, cv] = [p.value, c.value];
    await run(async () => {
      if (!(await amendOrderTo(order, wirePrice(pv), wireCount(cv), 'blotter', `Amend ${order.order_id} to ${fmtCount(cv.toString())} @ ${fmtPx(order.ticker, pv)}`))) return;
      notify('success', `Amended ${order.order_id}`, `${fmtCount(cv.toString())} @ ${fmtPx(order.ticker, pv)}`);
      onClose();
    });
  };
  return (
    <Modal
      open
      narrow
      onClose={onClose}
      title={`Amend ${order.side === 'bid' ? 'buy' : 'sell'} ${order.ticker}`}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>
            Close
          </button>
          <button type="button" className="btn btn-primary" disabled={!p.ok || !c.ok || !changed || busy} title={changed ? undefined : 'Change the price or the count first'} onClick={() => void submit()}>
            {busy ? 'Amending…' : 'Amend'}
          </button>
        </>
      }
    >
      <form
        className="col"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Field label="New YES price" error={p.ok ? undefined : p.message}>
          <input autoFocus className="num" value={price} onChange={(e) => setPrice(e.target.value)} aria-invalid={!p.ok} />
        </Field>
        <Field label="Total count (filled + remaining)" error={c.ok ? undefined : c.message} hint={`filled so far ${fmtCount(order.filled)}`}>
          <input className="num" value={count} onChange={(e) => setCount(e.target.value)} aria-invalid={!c.ok} />
        </Field>
        <InlineError error={error} />
        <button type="submit" hidden />
      </form>
    </Modal>
  );
}

function DecreaseDialog({ order, onClose }: { order: OrderRow; onClose: () => void }) {
  const [mode, setMode] = useState<'by' | 'to'>('by');
  const [value, setValue] = useState('');
  const { busy, error, run } = useAction();
  const check = mode === 'by' ? checkCountText(value) : value.trim() === '0' ? { ok: true, value: new Decimal(0) } : checkCountText(value);
  const tooMuch = check.value && (mode === 'by' ? check.value.gt(order.remaining) : check.value.gte(order.remaining));
  const submit = async () => {
    if (!check.ok || !check.value || tooMuch) return;
    const amount = wireCount(check.value);
    await run(async () => {
      await getTerminalApi().decreaseOrder({
        order_id: order.order_id,
        ticker: order.ticker,
        ...(mode === 'by' ? { reduce_by: amount } : { reduce_to: amount }),
        ...(order.subaccount ? { subaccount: order.subaccount } : {}),
      });
      notify('success', `Decreased ${order.order_id}`, mode === 'by' ? `by ${fmtCount(amount)}` : `to ${fmtCount(amount)}`);
      onClose();
    });
  };
  return (
    <Modal
      open
      narrow
      onClose={onClose}
      title={`Decrease ${order.ticker} (${fmtCount(order.remaining)} resting)`}
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>
            Close
          </button>
          <button type="button" className="btn btn-primary" disabled={!check.ok || !!tooMuch || busy} onClick={() => void submit()}>
            {busy ? 'Decreasing…' : 'Decrease'}
          </button>
        </>
      }
    >
      <form
        className="col"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <div className="seg" role="group" aria-label="Decrease mode">
          <button type="button" aria-pressed={mode === 'by'} onClick={() => setMode('by')}>
            Reduce by
          </button>
          <button type="button" aria-pressed={mode === 'to'} onClick={() => setMode('to')}>
            Reduce to
          </button>
        </div>
        <Field label={mode === 'by' ? 'Contracts to take off' : 'Contracts to leave resting'} error={value && !check.ok ? check.message : tooMuch ? (mode === 'by' ? 'More than is resting: cancel instead' : 'Must be below what is resting') : undefined}>
          <input autoFocus className="num" value={value} onChange={(e) => setValue(e.target.value)} />
        </Field>
        <InlineError error={error} />
        <button type="submit" hidden />
      </form>
    </Modal>
  );
}

export function OrdersPanel() {
  const [tab, setTab] = useState<Tab>('resting');
  const [onlyMarket, setOnlyMarket] = useState(false);
  const ordersMap = usePrivate((s) => s.orders);
  const ticker = useTrading((s) => s.ticker);
  const seed = useSeed((s) => s.orders);
  const confirmAll = useSession((s) => s.settings.confirmCancelAll);
  const [selection, setSelection] = useState<RowSelectionState>({});
  const [amend, setAmend] = useState<OrderRow | null>(null);
  const [decrease, setDecrease] = useState<OrderRow | null>(null);
  const localCount = useTools((s) => (s.local?.orders ?? []).filter((o) => isLiveLocal(o.state)).length);

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

  const columns = useMemo<Columns<OrderRow>>(
    () => [
      col<OrderRow>({ id: 'time', header: 'Time', size: 104, accessorFn: sortTime, cell: ({ row }) => fmtTimeMs(row.original.created ?? null), meta: { csv: (o) => isoTime(o.created ?? null) } }),
      col<OrderRow>({ id: 'ticker', header: 'Market', size: 160, accessorFn: (o) => o.ticker, cell: ({ getValue }) => <span className="mono">{String(getValue())}</span> }),
      col<OrderRow>({
        id: 'side',
        header: 'Side',
        size: 64,
        accessorFn: (o) => o.side,
        cell: ({ row }) => (row.original.side === 'bid' ? <span className="bid-text">▲ Buy</span> : <span className="ask-text">▼ Sell</span>),
        meta: { csv: (o) => (o.side === 'bid' ? 'buy' : 'sell') },
      }),
      col<OrderRow>({ id: 'price', header: 'YES price', size: 72, accessorFn: (o) => o.price, cell: ({ row, getValue }) => fmtPx(row.original.ticker, getValue() as string), meta: { num: true } }),
      col<OrderRow>({ id: 'remaining', header: 'Resting', size: 66, accessorFn: (o) => o.remaining, cell: ({ getValue }) => fmtCount(getValue() as string), meta: { num: true } }),
      col<OrderRow>({ id: 'filled', header: 'Filled', size: 60, accessorFn: (o) => o.filled, cell: ({ getValue }) => fmtCount(getValue() as string), meta: { num: true } }),
      col<OrderRow>({ id: 'queue', header: 'Queue', size: 60, accessorFn: (o) => queueBy.get(o.order_id) ?? '', cell: ({ getValue }) => (getValue() ? fmtCount(getValue() as string) : ''), meta: { num: true } }),
      col<OrderRow>({ id: 'status', header: 'Status', size: 74, accessorFn: (o) => o.status }),
      col<OrderRow>({ id: 'group', header: 'Group', size: 90, accessorFn: (o) => o.order_group_id ?? '' }),
      col<OrderRow>({ id: 'sub', header: 'Sub', size: 36, accessorFn: (o) => o.subaccount ?? 0, meta: { num: true } }),
      col<OrderRow>({ id: 'order_id', header: 'Order id', size: 120, accessorFn: (o) => o.order_id, cell: ({ getValue }) => <span className="mono faint">{String(getValue())}</span> }),
      col<OrderRow>({
        id: '_actions',
        header: '',
        // Amend, Decrease and Cancel side by side; narrower clips Cancel off the right edge
        size: 196,
        enableSorting: false,
        cell: ({ row }) =>
          row.original.status === 'resting' ? (
            <>
              <button type="button" className="btn btn-sm" onClick={() => setAmend(row.original)}>
                Amend
              </button>
              <button type="button" className="btn btn-sm" onClick={() => setDecrease(row.original)}>
                Decrease
              </button>
              <button type="button" className="btn btn-sm btn-danger" onClick={() => void cancelOrders([row.original])}>
                Cancel
              </button>
            </>
          ) : null,
        meta: { csv: false },
      }),
    ],
    [queueBy],
  );

  const selected = rows.filter((o) => selection[o.order_id] && o.status === 'resting');
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
      tools={
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
                  void cancelOrders(selected).then(() => setSelection({}));
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
      }
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
