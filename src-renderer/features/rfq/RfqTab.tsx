// RFQ blotter, RFQs: create one, see them, quote on others'.
import { useEffect, useMemo, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Rfq } from '../../../src-shared/wire/communications';
import { rest } from '../../lib/rest';
import { checkCountText, checkPriceText, parseUserDecimal, wireCount, wirePrice } from '../../lib/order-check';
import { fmtCashExact, fmtCount, fmtTime, isoTime } from '../../lib/format';
import { useRest, useRestPages } from '../../hooks/useRest';
import { useConnection } from '../../stores/connection';
import { notify } from '../../stores/notices';
import { useTrading } from '../../stores/trading';
import { col, DataTable, type Columns, queryState } from '../../ui/DataTable';
import { Field } from '../../ui/Field';
import { FormDialog } from '../../ui/FormDialog';
import { InlineError } from '../../ui/States';
import { exposure, invalidateComms, run } from './rfq-actions';

function CreateRfq() {
  const qc = useQueryClient();
  const selected = useTrading((s) => s.ticker);
  const [ticker, setTicker] = useState(selected ?? '');
  const [mode, setMode] = useState<'contracts' | 'cost'>('contracts');
  const [amount, setAmount] = useState('');
  const [rest_remainder, setRestRemainder] = useState(false);
  // clearing members ask on behalf of a subtrader (the exchange checks its blocks and daily cap)
  const fcmMember = useConnection((s) => s.view?.isFcmMember ?? false);
  const subtraders = useRest('getSubtraders', undefined, { enabled: fcmMember });
  const [subtrader, setSubtrader] = useState('');
  useEffect(() => {
    if (selected) setTicker(selected);
  }, [selected]);
  const countCheck = mode === 'contracts' ? checkCountText(amount) : null;
  const cost = mode === 'cost' ? parseUserDecimal(amount) : null;
  const costOk = !!cost && cost.gt(0) && cost.mul(10_000).isInteger();
  const valid = !!ticker.trim() && (amount === '' || (mode === 'contracts' ? countCheck?.ok : costOk));
  const m = useMutation({
    mutationFn: () =>
      rest('createRfq', {
        body: {
          market_ticker: ticker.trim(),
          rest_remainder,
          ...(amount && mode === 'contracts' && countCheck?.value ? { contracts_fp: wireCount(countCheck.value) } : {}),
          ...(amount && mode === 'cost' && cost ? { target_cost: cost.toFixed(4) } : {}),
          ...(fcmMember && subtrader ? { subtrader_id: subtrader } : {}),
        },
      }),
    onSuccess: (r) => {
      notify('success', `RFQ ${r.rfq.rfq_id} sent for ${ticker}${fcmMember && subtrader ? ` for subtrader ${subtrader}` : ''}`);
      setAmount('');
      invalidateComms(qc);
    },
  });
  return (
    <form
      className="row section"
      onSubmit={(e) => {
        e.preventDefault();
        if (valid) m.mutate();
      }}
    >
      <strong>New RFQ</strong>
      <input aria-label="Market ticker" placeholder="Market ticker" value={ticker} onChange={(e) => setTicker(e.target.value)} className="u-w-170" />
      <div className="seg" role="group" aria-label="Size by">
        <button type="button" aria-pressed={mode === 'contracts'} onClick={() => setMode('contracts')}>
          Contracts
        </button>
        <button type="button" aria-pressed={mode === 'cost'} onClick={() => setMode('cost')}>
          Target cost $
        </button>
      </div>
      <input className="num u-w-90" aria-label={mode === 'contracts' ? 'Contracts' : 'Target cost in dollars'} placeholder={mode === 'contracts' ? '100' : '50.00'} value={amount} onChange={(e) => setAmount(e.target.value)} />
      {fcmMember && (
        <select aria-label="On behalf of" value={subtrader} onChange={(e) => setSubtrader(e.target.value)} title="Ask for my own account or for one of my subtraders">
          <option value="">My account</option>
          {(subtraders.data?.subtraders ?? []).map((s) => (
            <option key={s.subtrader_id} value={s.subtrader_id}>
              Subtrader {s.subtrader_id}
            </option>
          ))}
        </select>
      )}
      <label className="check">
        <input type="checkbox" checked={rest_remainder} onChange={(e) => setRestRemainder(e.target.checked)} />
        Rest the remainder
      </label>
      <button type="submit" className="btn btn-primary btn-sm" disabled={!valid || m.isPending}>
        {m.isPending ? 'Sending…' : 'Request quotes'}
      </button>
      {amount && mode === 'contracts' && countCheck && !countCheck.ok && <span className="inline-error">{countCheck.message}</span>}
      {amount && mode === 'cost' && !costOk && <span className="inline-error">Target cost must be a positive dollar amount (4 decimals at most)</span>}
      {m.error ? <InlineError error={m.error} /> : null}
    </form>
  );
}

function QuoteDialog({ rfq, onClose }: { rfq: Rfq; onClose: () => void }) {
  const qc = useQueryClient();
  const [yes, setYes] = useState('');
  const [no, setNo] = useState('');
  const [postOnly, setPostOnly] = useState(false);
  const y = checkPriceText(yes);
  const n = checkPriceText(no);
  // the requester buys YES at yes_bid or NO at no_bid: below 1 together, the two prices sell the
  // pair for less than it pays out
  const sumTooLow = y.value && n.value && y.value.add(n.value).lt(1);
  const m = useMutation({
    mutationFn: () => exposure(`Quote on ${rfq.market_ticker}`, 'createQuote', { body: { rfq_id: rfq.rfq_id, yes_bid: wirePrice(y.value!), no_bid: wirePrice(n.value!), ...(postOnly ? { post_only: true } : {}) } }),
    onSuccess: (r) => {
      notify('success', `Quote ${r.quote.quote_id} sent on ${rfq.market_ticker}`);
      invalidateComms(qc);
      onClose();
    },
  });
  return (
    <FormDialog
      title={`Quote ${rfq.market_ticker}${rfq.contracts_fp ? ` × ${fmtCount(rfq.contracts_fp)}` : ''}`}
      onClose={onClose}
      onSubmit={() => m.mutate()}
      canSubmit={y.ok && n.ok && !sumTooLow}
      busy={m.isPending}
      confirmLabel="Send quote"
      error={m.error}
    >
      <Field label="Requester buys YES at (yes_bid)" error={yes && !y.ok ? y.message : undefined}>
        <input autoFocus className="num" value={yes} onChange={(e) => setYes(e.target.value)} placeholder="0.45" />
      </Field>
      <Field label="Requester buys NO at (no_bid)" error={no && !n.ok ? n.message : sumTooLow ? 'YES plus NO below 1 sells the pair for less than it pays out' : undefined}>
        <input className="num" value={no} onChange={(e) => setNo(e.target.value)} placeholder="0.50" />
      </Field>
      <label className="check">
        <input type="checkbox" checked={postOnly} onChange={(e) => setPostOnly(e.target.checked)} />
        Post only
      </label>
    </FormDialog>
  );
}

export function RfqTable({ myId }: { myId: string | null }) {
  const qc = useQueryClient();
  const [scope, setScope] = useState<'mine' | 'incoming'>('mine');
  const q = useRestPages('getRfqs', { query: scope === 'mine' ? { user_filter: 'self' } : {} }, { pageSize: 200 });
  const rows = useMemo(() => {
    const all = q.data?.pages.flatMap((p) => p.rfqs) ?? [];
    return scope === 'incoming' ? all.filter((r) => !myId || (r.creator_user_id ?? r.creator_id) !== myId) : all;
  }, [q.data, scope, myId]);
  const [quoting, setQuoting] = useState<Rfq | null>(null);
  const columns = useMemo<Columns<Rfq>>(
    () => [
      col<Rfq>({ id: 'time', header: 'Created', size: 78, accessorFn: (r) => r.created_ts ?? 0, cell: ({ getValue }) => fmtTime((getValue() as number) || null), meta: { csv: (r) => isoTime(r.created_ts ?? null) } }),
      col<Rfq>({ id: 'market', header: 'Market', size: 170, accessorFn: (r) => r.market_ticker, cell: ({ getValue }) => <span className="mono">{String(getValue())}</span> }),
      col<Rfq>({ id: 'contracts', header: 'Contracts', size: 76, accessorFn: (r) => r.contracts_fp ?? '', cell: ({ getValue }) => fmtCount((getValue() as string) || null), meta: { num: true } }),
      col<Rfq>({ id: 'cost', header: 'Target cost', size: 86, accessorFn: (r) => r.target_cost_dollars ?? '', cell: ({ getValue }) => fmtCashExact((getValue() as string) || null), meta: { num: true } }),
      col<Rfq>({ id: 'rest', header: 'Rests', size: 48, accessorFn: (r) => (r.rest_remainder ? 'yes' : 'no') }),
      col<Rfq>({ id: 'status', header: 'Status', size: 78, accessorFn: (r) => r.status, cell: ({ getValue }) => <span className={`badge${getValue() === 'open' ? ' badge-ok' : ''}`}>{String(getValue())}</span> }),
      col<Rfq>({
        id: '_actions',
        header: '',
        size: 100,
        enableSorting: false,
        cell: ({ row }) =>
          row.original.status !== 'open' ? null : scope === 'mine' ? (
            <button
              type="button"
              className="btn btn-sm btn-danger"
              onClick={() => void run('Could not delete the RFQ', () => rest('deleteRfq', { params: { rfq_id: row.original.rfq_id } }), `Deleted RFQ ${row.original.rfq_id}`, qc)}
            >
              Delete
            </button>
          ) : (
            <button type="button" className="btn btn-sm btn-primary" onClick={() => setQuoting(row.original)}>
              Quote…
            </button>
          ),
        meta: { csv: false },
      }),
      col<Rfq>({ id: 'id', header: 'RFQ id', size: 120, accessorFn: (r) => r.rfq_id, cell: ({ getValue }) => <span className="mono faint">{String(getValue())}</span> }),
    ],
    [scope, qc],
  );
  return (
    <>
      <CreateRfq />
      <DataTable
        label={scope === 'mine' ? 'My RFQs' : 'Incoming RFQs'}
        data={rows}
        columns={columns}
        getRowId={(r) => r.rfq_id}
        {...queryState(q)}
        loadingText="Loading RFQs…"
        emptyText={scope === 'mine' ? 'No RFQs of mine.' : 'No incoming RFQs.'}
        onActivate={(r) => scope === 'incoming' && r.status === 'open' && setQuoting(r)}
        tools={
          <div className="seg" role="group" aria-label="Whose RFQs">
            <button type="button" aria-pressed={scope === 'mine'} onClick={() => setScope('mine')}>
              Mine
            </button>
            <button type="button" aria-pressed={scope === 'incoming'} onClick={() => setScope('incoming')}>
              Incoming
            </button>
          </div>
        }
        initialSorting={[{ id: 'time', desc: true }]}
      />
      {quoting && <QuoteDialog rfq={quoting} onClose={() => setQuoting(null)} />}
    </>
  );
}
