// RFQ blotter, Block trades: propose one to a counterparty, accept or cancel proposals.
import { useMemo, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BlockTradeProposal } from '../../../src-shared/wire/communications';
import { Decimal } from '../../../src-shared/money';
import { checkCountText, checkPriceText } from '../../lib/order-check';
import { fmtCount, fmtTime } from '../../lib/format';
import { fmtPx } from '../../lib/ticks';
import { useRestPages } from '../../hooks/useRest';
import { notify } from '../../stores/notices';
import { useTrading } from '../../stores/trading';
import { col, DataTable, type Columns, queryState } from '../../ui/DataTable';
import { Field } from '../../ui/Field';
import { InlineError } from '../../ui/States';
import { exposure, invalidateComms, run } from './rfq-actions';

function CreateBlock({ myId }: { myId: string | null }) {
  const qc = useQueryClient();
  const selected = useTrading((s) => s.ticker);
  const [f, setF] = useState({ ticker: selected ?? '', counterparty: '', iAm: 'buyer' as 'buyer' | 'seller', price: '', count: '', makerSide: 'yes' as 'yes' | 'no', minutes: '30' });
  const p = checkPriceText(f.price);
  const c = checkCountText(f.count);
  const minutes = /^\d+$/.test(f.minutes) ? Number(f.minutes) : 0;
  const valid = !!myId && !!f.ticker.trim() && !!f.counterparty.trim() && p.ok && c.ok && minutes > 0;
  const m = useMutation({
    mutationFn: () =>
      exposure(`Block trade in ${f.ticker.trim()}`, 'createBlockTradeProposal', {
        body: {
          buyer_user_id: f.iAm === 'buyer' ? myId! : f.counterparty.trim(),
          seller_user_id: f.iAm === 'seller' ? myId! : f.counterparty.trim(),
          market_ticker: f.ticker.trim(),
          price_centi_cents: p.value!.mul(10_000).toNumber(),
          centicount: c.value!.mul(100).toNumber(),
          maker_side: f.makerSide,
          expiration_ts: new Date(Date.now() + minutes * 60_000).toISOString(),
        },
      }),
    onSuccess: (r) => {
      notify('success', `Block trade proposal ${r.block_trade_proposal_id} sent`);
      invalidateComms(qc);
    },
  });
  return (
    <form
      className="form-grid section"
      onSubmit={(e) => {
        e.preventDefault();
        if (valid) m.mutate();
      }}
    >
      <Field label="Market">
        <input value={f.ticker} onChange={(e) => setF({ ...f, ticker: e.target.value })} />
      </Field>
      <Field label="Counterparty user id">
        <input value={f.counterparty} onChange={(e) => setF({ ...f, counterparty: e.target.value })} />
      </Field>
      <Field label="I am the">
        <select value={f.iAm} onChange={(e) => setF({ ...f, iAm: e.target.value as 'buyer' | 'seller' })}>
          <option value="buyer">Buyer</option>
          <option value="seller">Seller</option>
        </select>
      </Field>
      <Field label="Price ($)" error={f.price && !p.ok ? p.message : undefined}>
        <input className="num" value={f.price} onChange={(e) => setF({ ...f, price: e.target.value })} />
      </Field>
      <Field label="Contracts" error={f.count && !c.ok ? c.message : undefined}>
        <input className="num" value={f.count} onChange={(e) => setF({ ...f, count: e.target.value })} />
      </Field>
      <Field label="Maker side">
        <select value={f.makerSide} onChange={(e) => setF({ ...f, makerSide: e.target.value as 'yes' | 'no' })}>
          <option value="yes">YES</option>
          <option value="no">NO</option>
        </select>
      </Field>
      <Field label="Expires in (min)">
        <input className="num" value={f.minutes} onChange={(e) => setF({ ...f, minutes: e.target.value })} />
      </Field>
      <button type="submit" className="btn btn-primary" disabled={!valid || m.isPending} title={myId ? undefined : 'Your user id is not known yet'}>
        Propose block trade
      </button>
      {m.error ? <InlineError error={m.error} /> : null}
    </form>
  );
}

export function BlockTrades({ myId }: { myId: string | null }) {
  const qc = useQueryClient();
  const q = useRestPages('getBlockTradeProposals', { query: {} }, { pageSize: 200 });
  const rows = useMemo(() => q.data?.pages.flatMap((p) => p.block_trade_proposals) ?? [], [q.data]);
  const columns = useMemo<Columns<BlockTradeProposal>>(
    () => [
      col<BlockTradeProposal>({ id: 'time', header: 'Created', size: 78, accessorFn: (b) => b.created_ts ?? 0, cell: ({ getValue }) => fmtTime((getValue() as number) || null) }),
      col<BlockTradeProposal>({ id: 'market', header: 'Market', size: 160, accessorFn: (b) => b.market_ticker, cell: ({ getValue }) => <span className="mono">{String(getValue())}</span> }),
      col<BlockTradeProposal>({ id: 'price', header: 'Price', size: 70, accessorFn: (b) => (b.price_centi_cents === undefined ? '' : new Decimal(b.price_centi_cents).div(10_000).toFixed(4)), cell: ({ row, getValue }) => fmtPx(row.original.market_ticker, (getValue() as string) || null), meta: { num: true } }),
      col<BlockTradeProposal>({ id: 'count', header: 'Contracts', size: 76, accessorFn: (b) => (b.centicount === undefined ? '' : new Decimal(b.centicount).div(100).toFixed(2)), cell: ({ getValue }) => fmtCount((getValue() as string) || null), meta: { num: true } }),
      col<BlockTradeProposal>({ id: 'role', header: 'My role', size: 66, accessorFn: (b) => (b.buyer_user_id === myId ? 'buyer' : b.seller_user_id === myId ? 'seller' : '') }),
      col<BlockTradeProposal>({ id: 'accepted', header: 'Accepted', size: 110, accessorFn: (b) => `${b.buyer_accepted ? 'buyer ✓' : 'buyer …'} ${b.seller_accepted ? 'seller ✓' : 'seller …'}` }),
      col<BlockTradeProposal>({ id: 'status', header: 'Status', size: 80, accessorFn: (b) => b.status }),
      col<BlockTradeProposal>({ id: 'expires', header: 'Expires', size: 78, accessorFn: (b) => b.expiration_ts ?? '', cell: ({ getValue }) => fmtTime((getValue() as string) || null) }),
      col<BlockTradeProposal>({
        id: '_actions',
        header: '',
        size: 80,
        enableSorting: false,
        cell: ({ row }) => {
          const b = row.original;
          const mine = (b.buyer_user_id === myId && !b.buyer_accepted) || (b.seller_user_id === myId && !b.seller_accepted);
          return mine && !['executed', 'expired', 'canceled'].includes(b.status) ? (
            <button type="button" className="btn btn-sm btn-primary" onClick={() => void run('Could not accept the proposal', () => exposure(`Accept block trade ${b.id}`, 'acceptBlockTradeProposal', { params: { block_trade_proposal_id: b.id }, body: {} }), `Accepted block trade ${b.id}`, qc)}>
              Accept
            </button>
          ) : null;
        },
        meta: { csv: false },
      }),
    ],
    [myId, qc],
  );
  return (
    <>
      <CreateBlock myId={myId} />
      <DataTable
        label="Block trade proposals"
        data={rows}
        columns={columns}
        getRowId={(b) => b.id}
        {...queryState(q)}
        loadingText="Loading block trade proposals…"
        emptyText="No block trade proposals."
        initialSorting={[{ id: 'time', desc: true }]}
      />
    </>
  );
}
