// The RFQ blotter: my RFQs and incoming ones, quoting, accepting (YES or NO) and confirming,
// deleting; block trade proposals. Live through the 'private' stream's rfqs and quotes.
import { useEffect, useMemo, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BlockTradeProposal, Quote, Rfq } from '../../../src-shared/wire/communications';
import { Decimal } from '../../../src-shared/money';
import type { EndpointId } from '../../../src-shared/endpoints';
import { rest, restAs, type RestCall, type RestResult } from '../../lib/rest';
import { withRiskConfirm } from '../../services/trade';
import { checkCountText, checkPriceText, parseUserDecimal, wireCount, wirePrice } from '../../lib/order-check';
import { fmtCash, fmtCount, fmtPrice, fmtTime, isoTime } from '../../lib/format';
import { useRest, useRestPages } from '../../hooks/useRest';
import { useLatest } from '../../hooks/useLatest';
import { toastAction } from '../../hooks/useAction';
import { useConnection } from '../../stores/connection';
import { notify } from '../../stores/notices';
import { usePrivate } from '../../stores/private';
import { useTrading } from '../../stores/trading';
import { confirmAction } from '../../ui/confirm';
import { col, DataTable, type Columns, queryState } from '../../ui/DataTable';
import { Field } from '../../ui/Field';
import { Modal } from '../../ui/Modal';
import { InlineError } from '../../ui/States';
import { TabbedPanel } from '../../ui/TabbedPanel';


const invalidateComms = (qc: ReturnType<typeof useQueryClient>) =>
  void qc.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'rest' && ['getRfqs', 'getQuotes', 'getBlockTradeProposals'].includes(String(q.queryKey[1])) });

/** Quotes, acceptances and block trades go through main's risk gate; a confirmable refusal asks the trader. */
async function exposure<K extends EndpointId>(what: string, id: K, ...a: RestCall<K>): Promise<RestResult<K>> {
  const r = await withRiskConfirm(what, (confirmed) => restAs({ origin: 'rfq', ...(confirmed ? { confirmed } : {}) }, id, ...a));
  if (r === null) throw new Error('Not sent: kept back at the confirmation');
  return r;
}

async function run(title: string, fn: () => Promise<unknown>, ok: string, qc: ReturnType<typeof useQueryClient>) {
  if (await toastAction(title, fn, ok)) invalidateComms(qc);
}

function useMyId(): string | null {
  const fromConn = useConnection((s) => s.view?.userId ?? null);
  const q = useRest('getCommunicationsId', undefined, { enabled: !fromConn, staleTime: Infinity });
  return fromConn ?? q.data?.user_id ?? null;
}

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
      <input aria-label="Market ticker" placeholder="Market ticker" value={ticker} onChange={(e) => setTicker(e.target.value)} style={{ width: 170 }} />
      <div className="seg" role="group" aria-label="Size by">
        <button type="button" aria-pressed={mode === 'contracts'} onClick={() => setMode('contracts')}>
          Contracts
        </button>
        <button type="button" aria-pressed={mode === 'cost'} onClick={() => setMode('cost')}>
          Target cost $
        </button>
      </div>
      <input className="num" aria-label={mode === 'contracts' ? 'Contracts' : 'Target cost in dollars'} placeholder={mode === 'contracts' ? '100' : '50.00'} value={amount} onChange={(e) => setAmount(e.target.value)} style={{ width: 90 }} />
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
    <Modal
      open
      narrow
      onClose={onClose}
      title={`Quote ${rfq.market_ticker}${rfq.contracts_fp ? ` × ${fmtCount(rfq.contracts_fp)}` : ''}`}
      footer={
        <button type="button" className="btn btn-primary" disabled={!y.ok || !n.ok || !!sumTooLow || m.isPending} onClick={() => m.mutate()}>
          Send quote
        </button>
      }
    >
      <form
        className="col"
        onSubmit={(e) => {
          e.preventDefault();
          if (y.ok && n.ok && !sumTooLow) m.mutate();
        }}
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
        <InlineError error={m.error} />
        <button type="submit" hidden />
      </form>
    </Modal>
  );
}

function RfqTable({ myId }: { myId: string | null }) {
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
      col<Rfq>({ id: 'cost', header: 'Target cost', size: 86, accessorFn: (r) => r.target_cost_dollars ?? '', cell: ({ getValue }) => fmtCash((getValue() as string) || null, 4), meta: { num: true } }),
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

function QuoteTable() {
  const qc = useQueryClient();
  const [scope, setScope] = useState<'received' | 'sent'>('received');
  const q = useRestPages('getQuotes', { query: scope === 'received' ? { rfq_user_filter: 'self' } : { user_filter: 'self' } }, { pageSize: 200 });
  const rows = useMemo(() => q.data?.pages.flatMap((p) => p.quotes) ?? [], [q.data]);
  const accept = async (quote: Quote, side: 'yes' | 'no') => {
    // the quote's yes_bid / no_bid is the price per YES / NO contract the requester pays
    // (the exchange executes an accepted YES at yes_bid, an accepted NO at no_bid)
    const price = side === 'yes' ? quote.yes_bid_dollars : quote.no_bid_dollars;
    const ok = await confirmAction({
      title: `Accept ${side.toUpperCase()}?`,
      body: `Buy ${side.toUpperCase()} on ${quote.market_ticker ?? 'the market'} at ${fmtPrice(price)}${quote.contracts_fp ? ` × ${fmtCount(quote.contracts_fp)}` : ''}. The quoter then confirms.`,
      confirmLabel: `Accept ${side.toUpperCase()}`,
    });
    if (ok) await run('Could not accept the quote', () => exposure(`Accept ${side.toUpperCase()} on quote ${quote.quote_id}`, 'acceptQuote', { params: { quote_id: quote.quote_id }, body: { accepted_side: side } }), `Accepted ${side.toUpperCase()} on quote ${quote.quote_id}`, qc);
  };  const acceptRef = useLatest(accept);

  const columns = useMemo<Columns<Quote>>(
    () => [
      col<Quote>({ id: 'time', header: 'Time', size: 78, accessorFn: (x) => x.updated_ts ?? x.created_ts ?? 0, cell: ({ getValue }) => fmtTime((getValue() as number) || null), meta: { csv: (x) => isoTime(x.updated_ts ?? x.created_ts ?? null) } }),
      col<Quote>({ id: 'market', header: 'Market', size: 160, accessorFn: (x) => x.market_ticker ?? '', cell: ({ getValue }) => <span className="mono">{String(getValue())}</span> }),
      col<Quote>({ id: 'yes', header: 'YES bid', size: 70, accessorFn: (x) => x.yes_bid_dollars, cell: ({ getValue }) => fmtPrice(getValue() as string), meta: { num: true } }),
      col<Quote>({ id: 'no', header: 'NO bid', size: 70, accessorFn: (x) => x.no_bid_dollars, cell: ({ getValue }) => fmtPrice(getValue() as string), meta: { num: true } }),
      col<Quote>({ id: 'contracts', header: 'Contracts', size: 76, accessorFn: (x) => x.contracts_fp ?? '', cell: ({ getValue }) => fmtCount((getValue() as string) || null), meta: { num: true } }),
      col<Quote>({ id: 'status', header: 'Status', size: 78, accessorFn: (x) => x.status, cell: ({ getValue }) => <span className="badge">{String(getValue())}</span> }),
      col<Quote>({ id: 'side', header: 'Accepted', size: 66, accessorFn: (x) => x.accepted_side ?? '' }),
      col<Quote>({
        id: '_actions',
        header: '',
        size: 170,
        enableSorting: false,
        cell: ({ row }) => {
          const x = row.original;
          if (scope === 'received' && x.status === 'open')
            return (
              <>
                <button type="button" className="btn btn-sm btn-bid" onClick={() => void acceptRef.current(x, 'yes')}>
                  Accept YES
                </button>
                <button type="button" className="btn btn-sm btn-ask" onClick={() => void acceptRef.current(x, 'no')}>
                  Accept NO
                </button>
              </>
            );
          if (scope === 'sent' && x.status === 'accepted')
            return (
              <button type="button" className="btn btn-sm btn-primary" onClick={() => void run('Could not confirm', () => exposure(`Confirm quote ${x.quote_id}`, 'confirmQuote', { params: { quote_id: x.quote_id }, body: {} }), `Confirmed quote ${x.quote_id}`, qc)}>
                Confirm
              </button>
            );
          if (scope === 'sent' && x.status === 'open')
            return (
              <button type="button" className="btn btn-sm btn-danger" onClick={() => void run('Could not delete the quote', () => rest('deleteQuote', { params: { quote_id: x.quote_id } }), `Deleted quote ${x.quote_id}`, qc)}>
                Delete
              </button>
            );
          return null;
        },
        meta: { csv: false },
      }),
      col<Quote>({ id: 'rfq', header: 'RFQ id', size: 110, accessorFn: (x) => x.rfq_id, cell: ({ getValue }) => <span className="mono faint">{String(getValue())}</span> }),
    ],
    // the latest accept, through a ref
    [scope, qc, acceptRef],
  );
  return (
    <DataTable
      label={scope === 'received' ? 'Quotes on my RFQs' : 'My quotes'}
      data={rows}
      columns={columns}
      getRowId={(x) => x.quote_id}
      {...queryState(q)}
      loadingText="Loading quotes…"
      emptyText={scope === 'received' ? 'No quotes on my RFQs yet.' : 'No quotes of mine.'}
      initialSorting={[{ id: 'time', desc: true }]}
      tools={
        <div className="seg" role="group" aria-label="Which quotes">
          <button type="button" aria-pressed={scope === 'received'} onClick={() => setScope('received')}>
            On my RFQs
          </button>
          <button type="button" aria-pressed={scope === 'sent'} onClick={() => setScope('sent')}>
            Sent by me
          </button>
        </div>
      }
    />
  );
}

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

function BlockTrades({ myId }: { myId: string | null }) {
  const qc = useQueryClient();
  const q = useRestPages('getBlockTradeProposals', { query: {} }, { pageSize: 200 });
  const rows = useMemo(() => q.data?.pages.flatMap((p) => p.block_trade_proposals) ?? [], [q.data]);
  const columns = useMemo<Columns<BlockTradeProposal>>(
    () => [
      col<BlockTradeProposal>({ id: 'time', header: 'Created', size: 78, accessorFn: (b) => b.created_ts ?? 0, cell: ({ getValue }) => fmtTime((getValue() as number) || null) }),
      col<BlockTradeProposal>({ id: 'market', header: 'Market', size: 160, accessorFn: (b) => b.market_ticker, cell: ({ getValue }) => <span className="mono">{String(getValue())}</span> }),
      col<BlockTradeProposal>({ id: 'price', header: 'Price', size: 70, accessorFn: (b) => (b.price_centi_cents === undefined ? '' : new Decimal(b.price_centi_cents).div(10_000).toFixed(4)), cell: ({ getValue }) => fmtPrice((getValue() as string) || null), meta: { num: true } }),
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

export function RfqPanel() {
  const qc = useQueryClient();
  const myId = useMyId();
  const commsVersion = usePrivate((s) => s.commsVersion);
  useEffect(() => {
    if (commsVersion) invalidateComms(qc);
  }, [commsVersion, qc]);
  return (
    <TabbedPanel
      label="RFQ views"
      tabs={[
        { id: 'rfqs', label: 'RFQs', render: () => <RfqTable myId={myId} /> },
        { id: 'quotes', label: 'Quotes', render: () => <QuoteTable /> },
        { id: 'blocks', label: 'Block trades', render: () => <BlockTrades myId={myId} /> },
      ]}
    />
  );
}
