// Order groups: a rolling contracts limit over several orders. Create, change the limit, reset,
// trigger (cancel the group's orders) and delete; live changes arrive on the 'private' stream.
import { useEffect, useMemo, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OrderGroup } from '../../../src-shared/wire/orders';
import { rest } from '../../lib/rest';
import { errorText } from '../../lib/errors';
import { checkCountText, wireCount } from '../../lib/order-check';
import { fmtCount } from '../../lib/format';
import { useRest } from '../../hooks/useRest';
import { useLatest } from '../../hooks/useLatest';
import { notify } from '../../stores/notices';
import { usePrivate } from '../../stores/private';
import { confirmAction } from '../../ui/confirm';
import { col, DataTable, type Columns, queryState } from '../../ui/DataTable';
import { Field } from '../../ui/Field';
import { FormDialog } from '../../ui/FormDialog';
import { Modal } from '../../ui/Modal';
import { InlineError, QueryView } from '../../ui/States';

const GROUPS_KEY = ['rest', 'getOrderGroups'];

function GroupDetail({ id, onClose }: { id: string; onClose: () => void }) {
  const q = useRest('getOrderGroup', { params: { id } });
  return (
    <Modal open onClose={onClose} title={`Order group ${id}`} narrow>
      <QueryView query={q} loading="Loading the group…">
        {(g) => {
          const orders = Array.isArray(g.orders) ? (g.orders as string[]) : [];
          const auto = (g as { is_auto_cancel_enabled?: boolean }).is_auto_cancel_enabled;
          return (
          <div className="col">
            <div>
              Used {fmtCount(g.contracts_used ?? '0')} of {fmtCount(g.contracts_limit ?? '0')} contracts
              {auto !== undefined ? `; auto-cancel ${auto ? 'on' : 'off'}` : ''}.
            </div>
            {orders.length ? (
              <ul className="mono u-m-0-pl-16">
                {orders.map((o) => (
                  <li key={o}>{o}</li>
                ))}
              </ul>
            ) : (
              <div className="dim">No orders in this group.</div>
            )}
          </div>
          );
        }}
      </QueryView>
    </Modal>
  );
}

function LimitDialog({ group, onClose }: { group: OrderGroup; onClose: () => void }) {
  const qc = useQueryClient();
  const [limit, setLimit] = useState(group.contracts_limit ?? '');
  const check = checkCountText(limit);
  const m = useMutation({
    mutationFn: () => rest('updateOrderGroupLimit', { params: { id: group.order_group_id }, body: { contracts_limit: wireCount(check.value!) } }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: GROUPS_KEY });
      notify('success', `Limit of ${group.order_group_id} set to ${fmtCount(limit)}`);
      onClose();
    },
  });
  return (
    <FormDialog title={`Contracts limit of ${group.order_group_id}`} onClose={onClose} onSubmit={() => m.mutate()} canSubmit={check.ok} busy={m.isPending} confirmLabel="Set limit" error={m.error} closeButton={false}>
      <Field label="Contracts limit" error={limit && !check.ok ? check.message : undefined}>
        <input autoFocus className="num" value={limit} onChange={(e) => setLimit(e.target.value)} />
      </Field>
    </FormDialog>
  );
}

/** The groups as the exchange last listed them, with the live used/limit figures from the 'private' stream laid over. */
function useGroupRows() {
  const qc = useQueryClient();
  const q = useRest('getOrderGroups');
  const live = usePrivate((s) => s.orderGroups);
  const commsVersion = usePrivate((s) => s.commsVersion);
  useEffect(() => {
    if (commsVersion) void qc.invalidateQueries({ queryKey: GROUPS_KEY });
  }, [commsVersion, qc]);
  const rows = useMemo(() => {
    return (q.data?.order_groups ?? []).map((g) => {
      const l = live[g.order_group_id];
      if (!l) return g;
      const used = l.contracts_used;
      const limit = l.contracts_limit_fp ?? l.contracts_limit;
      return { ...g, ...(used !== undefined ? { contracts_used: String(used) } : {}), ...(limit !== undefined ? { contracts_limit: String(limit) } : {}) };
    });
  }, [q.data, live]);
  return { q, rows };
}

type GroupAction = 'reset' | 'trigger' | 'delete';

/** Reset, trigger or delete a group (the last two asked first); the outcome goes to a toast. */
function useGroupAction() {
  const qc = useQueryClient();
  const act = async (g: OrderGroup, what: GroupAction) => {
    if (what !== 'reset') {
      const ok = await confirmAction({
        title: what === 'trigger' ? 'Trigger the group?' : 'Delete the group?',
        body: what === 'trigger' ? `Cancel every order in ${g.order_group_id} now and block new ones until it is reset.` : `Delete ${g.order_group_id}; its orders are canceled.`,
        confirmLabel: what === 'trigger' ? 'Trigger' : 'Delete',
        danger: true,
      });
      if (!ok) return;
    }
    try {
      const params = { params: { id: g.order_group_id } };
      if (what === 'reset') await rest('resetOrderGroup', { ...params, body: {} });
      else if (what === 'trigger') await rest('triggerOrderGroup', { ...params, body: {} });
      else await rest('deleteOrderGroup', params);
      notify('success', `${what === 'reset' ? 'Reset' : what === 'trigger' ? 'Triggered' : 'Deleted'} ${g.order_group_id}`);
      void qc.invalidateQueries({ queryKey: GROUPS_KEY });
    } catch (err) {
      notify('error', `Could not ${what} ${g.order_group_id}`, errorText(err));
    }
  };
  return useLatest(act);
}

function useGroupColumns(onDetail: (id: string) => void, onEdit: (g: OrderGroup) => void): Columns<OrderGroup> {
  const actRef = useGroupAction();
  return useMemo<Columns<OrderGroup>>(
    () => [
      col<OrderGroup>({ id: 'id', header: 'Group', size: 160, accessorFn: (g) => g.order_group_id, cell: ({ getValue }) => <span className="mono">{String(getValue())}</span> }),
      col<OrderGroup>({ id: 'used', header: 'Used', size: 70, accessorFn: (g) => g.contracts_used ?? '', cell: ({ getValue }) => fmtCount((getValue() as string) || '0'), meta: { num: true } }),
      col<OrderGroup>({ id: 'limit', header: 'Limit', size: 70, accessorFn: (g) => g.contracts_limit ?? '', cell: ({ getValue }) => fmtCount((getValue() as string) || null), meta: { num: true } }),
      col<OrderGroup>({ id: 'auto', header: 'Auto-cancel', size: 80, accessorFn: (g) => {
          const auto = (g as { is_auto_cancel_enabled?: boolean }).is_auto_cancel_enabled;
          return auto === undefined ? '' : auto ? 'on' : 'off';
        } }),
      col<OrderGroup>({
        id: '_actions',
        header: '',
        size: 250,
        enableSorting: false,
        cell: ({ row }) => (
          <>
            <button type="button" className="btn btn-sm" onClick={() => onDetail(row.original.order_group_id)}>
              Orders
            </button>
            <button type="button" className="btn btn-sm" onClick={() => onEdit(row.original)}>
              Limit
            </button>
            <button type="button" className="btn btn-sm" onClick={() => void actRef.current(row.original, 'reset')}>
              Reset
            </button>
            <button type="button" className="btn btn-sm" onClick={() => void actRef.current(row.original, 'trigger')}>
              Trigger
            </button>
            <button type="button" className="btn btn-sm btn-danger" onClick={() => void actRef.current(row.original, 'delete')}>
              Delete
            </button>
          </>
        ),
        meta: { csv: false },
      }),
    ],
    // the latest act, through a ref, and state setters: the columns are built once
    [actRef, onDetail, onEdit],
  );
}

function CreateGroup() {
  const qc = useQueryClient();
  const [limitText, setLimitText] = useState('');
  const [subaccount, setSubaccount] = useState('');
  const limitCheck = checkCountText(limitText);
  const create = useMutation({
    mutationFn: () =>
      rest('createOrderGroup', { body: { contracts_limit: wireCount(limitCheck.value!), ...(subaccount && /^\d+$/.test(subaccount) ? { subaccount: Number(subaccount) } : {}) } }),
    onSuccess: (r) => {
      notify('success', `Created order group ${r.order_group_id}`);
      setLimitText('');
      void qc.invalidateQueries({ queryKey: GROUPS_KEY });
    },
  });
  return (
    <form
      className="row"
      onSubmit={(e) => {
        e.preventDefault();
        if (limitCheck.ok) create.mutate();
      }}
    >
      <input className="num u-w-110" placeholder="Contracts limit" aria-label="Contracts limit of the new group" value={limitText} onChange={(e) => setLimitText(e.target.value)} aria-invalid={!!limitText && !limitCheck.ok} />
      <input className="num u-w-80" placeholder="Subaccount" aria-label="Subaccount of the new group" value={subaccount} onChange={(e) => setSubaccount(e.target.value)} />
      <button type="submit" className="btn btn-sm" disabled={!limitCheck.ok || create.isPending}>
        Create group
      </button>
      {limitText && !limitCheck.ok && <span className="inline-error">{limitCheck.message}</span>}
      {create.error ? <InlineError error={create.error} /> : null}
    </form>
  );
}

export function OrderGroups() {
  const { q, rows } = useGroupRows();
  const [detail, setDetail] = useState<string | null>(null);
  const [editing, setEditing] = useState<OrderGroup | null>(null);
  const columns = useGroupColumns(setDetail, setEditing);
  return (
    <>
      <DataTable
        label="Order groups"
        data={rows}
        columns={columns}
        getRowId={(g) => g.order_group_id}
        {...queryState(q)}
        loadingText="Loading order groups…"
        emptyText="No order groups. Create one to cap how many contracts a set of orders may fill."
        onActivate={(g) => setDetail(g.order_group_id)}
        tools={<CreateGroup />}
      />
      {detail && <GroupDetail id={detail} onClose={() => setDetail(null)} />}
      {editing && <LimitDialog group={editing} onClose={() => setEditing(null)} />}
    </>
  );
}
