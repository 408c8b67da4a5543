// Clearing-member tools: subtraders (list, create), and per subtrader the blocked categories,
// the daily cap, orders and positions; FCM fills across subtraders; resting order value. One
// file per view.
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Subtrader } from '../../../src-shared/wire/fcm';
import { rest } from '../../lib/rest';
import { fmtCents } from '../../lib/format';
import { useRest } from '../../hooks/useRest';
import { useConnection } from '../../stores/connection';
import { notify } from '../../stores/notices';
import { col, DataTable, type Columns, queryState } from '../../ui/DataTable';
import { Empty, InlineError } from '../../ui/States';
import { Tabs } from '../../ui/Tabs';
import { Blocked } from './Blocked';
import { DailyCap } from './DailyCap';
import { SubtraderOrders } from './SubtraderOrders';
import { SubtraderPositions } from './SubtraderPositions';
import { FcmFills } from './FcmFills';

const SUFFIX_RE = /^[A-Za-z0-9]{1,16}$/;

const subtraderColumns: Columns<Subtrader> = [
  col<Subtrader>({ id: 'id', header: 'Subtrader', size: 200, accessorFn: (s) => s.subtrader_id, cell: ({ getValue }) => <span className="mono">{String(getValue())}</span> }),
  col<Subtrader>({ id: 'shards', header: 'Shards', size: 70, accessorFn: (s) => (s.exchange_indices ?? []).join(',') }),
  col<Subtrader>({ id: 'blocked', header: 'Trading', size: 110, accessorFn: (s) => (s.trading_blocked || s.fcm_trading_blocked ? 'blocked' : 'allowed'), cell: ({ getValue }) => <span className={`badge${getValue() === 'blocked' ? ' badge-error' : ' badge-ok'}`}>{String(getValue())}</span> }),
  col<Subtrader>({ id: 'pending', header: 'Propagating', size: 86, accessorFn: (s) => (s.propagation_pending ? 'yes' : '') }),
];

type SubTab = 'blocked' | 'cap' | 'orders' | 'positions';

export function FcmPanel() {
  const member = useConnection((s) => s.view?.isFcmMember ?? false);
  const qc = useQueryClient();
  const subtraders = useRest('getSubtraders', undefined, { enabled: member });
  const resting = useRest('getTotalRestingOrderValue', undefined, { enabled: member });
  const [picked, setPicked] = useState<string | null>(null);
  const [sub, setSub] = useState<SubTab>('blocked');
  const [view, setView] = useState<'subtraders' | 'fills'>('subtraders');
  const [suffix, setSuffix] = useState('');
  const create = useMutation({
    mutationFn: () => rest('createSubtrader', { body: { subtrader_suffix: suffix } }),
    onSuccess: (r) => {
      notify('success', `Created subtrader ${r.subtrader_id}`);
      setSuffix('');
      void qc.invalidateQueries({ queryKey: ['rest', 'getSubtraders'] });
    },
  });
  if (!member) return <Empty>FCM tools are for clearing-member accounts; this account is not one.</Empty>;
  return (
    <div className="panel">
      <div className="panel-bar">
        <Tabs
          label="FCM views"
          tabs={[
            { id: 'subtraders', label: 'Subtraders' },
            { id: 'fills', label: 'FCM fills' },
          ]}
          value={view}
          onChange={setView}
        />
        <span className="grow" />
        <span className="dim">Resting order value: {resting.data ? fmtCents(resting.data.total_resting_order_value) : resting.error ? 'unavailable' : '…'}</span>
      </div>
      {view === 'fills' ? (
        <FcmFills />
      ) : (
        <div className="split">
          <div className="u-fx-1-1-45-d-flex-fd-column-br-1px-solid-var-border">
            <DataTable
              label="Subtraders"
              data={subtraders.data?.subtraders ?? []}
              columns={subtraderColumns}
              getRowId={(s) => s.subtrader_id}
              {...queryState(subtraders)}
              loadingText="Loading subtraders…"
              emptyText="No subtraders yet."
              onActivate={(s) => setPicked(s.subtrader_id)}
              rowClassName={(s) => (s.subtrader_id === picked ? 'active-row' : undefined)}
              tools={
                <form
                  className="row"
                  onSubmit={(e) => {
                    e.preventDefault();
                    if (SUFFIX_RE.test(suffix)) create.mutate();
                  }}
                >
                  <input placeholder="New subtrader suffix" aria-label="Suffix of the new subtrader" value={suffix} onChange={(e) => setSuffix(e.target.value)} aria-invalid={!!suffix && !SUFFIX_RE.test(suffix)} className="u-w-150" />
                  <button type="submit" className="btn btn-sm" disabled={!SUFFIX_RE.test(suffix) || create.isPending}>
                    Create
                  </button>
                  {suffix && !SUFFIX_RE.test(suffix) && <span className="inline-error">1-16 letters or digits</span>}
                  {create.error ? <InlineError error={create.error} /> : null}
                </form>
              }
            />
          </div>
          <div className="u-fx-1-1-55-d-flex-fd-column-minw-0">
            {picked ? (
              <>
                <div className="panel-bar">
                  <strong className="mono">{picked}</strong>
                  <Tabs
                    label="Subtrader views"
                    tabs={[
                      { id: 'blocked', label: 'Blocked categories' },
                      { id: 'cap', label: 'Daily cap' },
                      { id: 'orders', label: 'Orders' },
                      { id: 'positions', label: 'Positions' },
                    ]}
                    value={sub}
                    onChange={setSub}
                  />
                </div>
                <div className="tabpanel">
                  {sub === 'blocked' && <Blocked id={picked} />}
                  {sub === 'cap' && <DailyCap id={picked} />}
                  {sub === 'orders' && <SubtraderOrders id={picked} />}
                  {sub === 'positions' && <SubtraderPositions id={picked} />}
                </div>
              </>
            ) : (
              <div className="state">Open a subtrader (Enter or double-click) to manage it.</div>
            )}
          </div>
        </div>
      )}
    </div>
  );
}
