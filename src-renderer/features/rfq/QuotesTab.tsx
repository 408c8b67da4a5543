// RFQ blotter, Quotes: quotes sent and received; accept, confirm or delete.
import { useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Quote } from '../../../src-shared/wire/communications';
import { rest } from '../../lib/rest';
import { fmtCount, fmtTime, isoTime } from '../../lib/format';
import { fmtPx } from '../../lib/ticks';
import { useRestPages } from '../../hooks/useRest';
import { useLatest } from '../../hooks/useLatest';
import { confirmAction } from '../../ui/confirm';
import { col, DataTable, type Columns, queryState } from '../../ui/DataTable';
import { exposure, run } from './rfq-actions';

export function QuoteTable() {
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
      body: `Buy ${side.toUpperCase()} on ${quote.market_ticker ?? 'the market'} at ${fmtPx(quote.market_ticker, price)}${quote.contracts_fp ? ` × ${fmtCount(quote.contracts_fp)}` : ''}. The quoter then confirms.`,
      confirmLabel: `Accept ${side.toUpperCase()}`,
    });
    if (ok) await run('Could not accept the quote', () => exposure(`Accept ${side.toUpperCase()} on quote ${quote.quote_id}`, 'acceptQuote', { params: { quote_id: quote.quote_id }, body: { accepted_side: side } }), `Accepted ${side.toUpperCase()} on quote ${quote.quote_id}`, qc);
  };  const acceptRef = useLatest(accept);

  const columns = useMemo<Columns<Quote>>(
    () => [
      col<Quote>({ id: 'time', header: 'Time', size: 78, accessorFn: (x) => x.updated_ts ?? x.created_ts ?? 0, cell: ({ getValue }) => fmtTime((getValue() as number) || null), meta: { csv: (x) => isoTime(x.updated_ts ?? x.created_ts ?? null) } }),
      col<Quote>({ id: 'market', header: 'Market', size: 160, accessorFn: (x) => x.market_ticker ?? '', cell: ({ getValue }) => <span className="mono">{String(getValue())}</span> }),
      col<Quote>({ id: 'yes', header: 'YES bid', size: 70, accessorFn: (x) => x.yes_bid_dollars, cell: ({ row, getValue }) => fmtPx(row.original.market_ticker, getValue() as string), meta: { num: true } }),
      col<Quote>({ id: 'no', header: 'NO bid', size: 70, accessorFn: (x) => x.no_bid_dollars, cell: ({ row, getValue }) => fmtPx(row.original.market_ticker, getValue() as string), meta: { num: true } }),
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
