// Everything about the selected market: rules, times, the event and its metadata, the series,
// the fee schedule (with worked examples) and scheduled fee changes of the series and the event.
import type { ReactNode } from 'react';
import { Decimal, fillFee, isDecimalString, MAKER_FEE_RATE, TAKER_FEE_RATE } from '../../../src-shared/money';
import { useMarketInfo } from '../../hooks/useMarketInfo';
import { useRest } from '../../hooks/useRest';
import { runCommand } from '../../lib/commands';
import { fmtCash, fmtCount, fmtDateTime } from '../../lib/format';
import { fmtPx } from '../../lib/ticks';
import { isOnTick, type PriceRange } from '../../../src-shared/price-ranges';
import { useTrading } from '../../stores/trading';
import { freeForm, KeyValues } from '../../ui/Field';
import { Empty, ErrorState, Loading } from '../../ui/States';
import { yesAsk, yesBid } from './market-columns';
import { usePanelTicker } from '../../hooks/useLink';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="section">
      <h3>{title}</h3>
      {children}
    </section>
  );
}

function FeeExamples({ ticker, multiplier, makerFees, price }: { ticker: string; multiplier: string | null; makerFees: boolean; price: string | undefined }) {
  const m = multiplier && isDecimalString(multiplier) ? new Decimal(multiplier) : new Decimal(1);
  const p = price && isDecimalString(price) && new Decimal(price).gt(0) && new Decimal(price).lt(1) ? new Decimal(price) : new Decimal('0.5');
  return (
    <table className="grid u-w-auto">
      <thead>
        <tr>
          <th>Contracts at {fmtPx(ticker, p)}</th>
          <th className="num">Taker fee</th>
          {makerFees && <th className="num">Maker fee</th>}
        </tr>
      </thead>
      <tbody>
        {['1', '10', '100', '1000'].map((c) => (
          <tr key={c}>
            <td className="num">{c}</td>
            <td className="num">{fmtCash(fillFee(TAKER_FEE_RATE, m, new Decimal(c), p))}</td>
            {makerFees && <td className="num">{fmtCash(fillFee(MAKER_FEE_RATE, m, new Decimal(c), p))}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

type MarketInfo = ReturnType<typeof useMarketInfo>;
type Market = NonNullable<NonNullable<MarketInfo['market']['data']>['market']>;

/** The event's metadata and the fee changes of the series and the event, read beside the market. */
function useDetailQueries(info: MarketInfo) {
  const meta = useRest('getEventMetadata', info.eventTicker ? { params: { event_ticker: info.eventTicker } } : undefined, { enabled: !!info.eventTicker, staleTime: 300_000 });
  const seriesFees = useRest('getSeriesFeeChanges', info.seriesTicker ? { query: { series_ticker: info.seriesTicker, show_historical: true } } : undefined, {
    enabled: !!info.seriesTicker,
    staleTime: 300_000,
  });
  const eventFees = useRest('getEventFeeChanges', info.eventTicker ? { query: { event_ticker: info.eventTicker, limit: 100 } } : undefined, { enabled: !!info.eventTicker, staleTime: 300_000 });
  return { meta, seriesFees, eventFees };
}
type DetailQueries = ReturnType<typeof useDetailQueries>;

/** The price the fee examples use: the mid, or the bid when the mid falls between two ticks, or the last trade. */
function examplePrice(m: Market): string | undefined {
  const b = yesBid(m);
  const a = yesAsk(m);
  if (isDecimalString(b) && isDecimalString(a) && new Decimal(b).gt(0) && new Decimal(a).gt(0)) {
    // the mid, or the bid when the mid falls between two ticks
    const mid = new Decimal(b).add(a).div(2);
    return isOnTick(mid, m.price_ranges as PriceRange[] | undefined) ? mid.toFixed(4) : b;
  }
  return m.last_price_dollars;
}

function MarketBar({ m, ticker }: { m: Market; ticker: string }) {
  const watched = useTrading((s) => s.watchlist.includes(ticker));
  const toggleWatch = useTrading((s) => s.toggleWatch);
  return (
    <div className="panel-bar">
      <strong className="mono">{m.ticker}</strong>
      <span className="badge">{m.status}</span>
      <span className="grow" />
      <button type="button" className="btn btn-sm" onClick={() => toggleWatch(m.ticker)} aria-pressed={watched}>
        {watched ? '★ Watching' : '☆ Watch'}
      </button>
      <button type="button" className="btn btn-sm" onClick={() => runCommand('panel.ladder')}>
        Ladder
      </button>
      <button type="button" className="btn btn-sm" onClick={() => runCommand('ticket.focusPrice')}>
        Trade
      </button>
    </div>
  );
}

function MarketSection({ m }: { m: Market }) {
  return (
    <Section title="Market">
      <div className="u-fs-13-mb-4">{m.title}</div>
      {m.subtitle && <div className="dim">{m.subtitle}</div>}
      <KeyValues
        entries={[
          ['YES means', m.yes_sub_title ?? '—'],
          ['NO means', m.no_sub_title ?? '—'],
          ['YES bid / ask', `${fmtPx(m.ticker, yesBid(m))} / ${fmtPx(m.ticker, yesAsk(m))}`],
          ['Last', fmtPx(m.ticker, m.last_price_dollars ?? null)],
          ['Volume (24h)', `${fmtCount(m.volume_fp)} (${fmtCount(m.volume_24h_fp ?? null)})`],
          ['Open interest', fmtCount(m.open_interest_fp ?? null)],
          ['Opens', fmtDateTime(m.open_time ?? null)],
          ['Closes', fmtDateTime(m.close_time ?? null)],
          ['Expected expiration', fmtDateTime(m.expected_expiration_time ?? null)],
          ['Latest expiration', fmtDateTime(m.latest_expiration_time ?? null)],
          ['Can close early', m.can_close_early === undefined ? '—' : m.can_close_early ? `yes${m.early_close_condition ? `: ${m.early_close_condition}` : ''}` : 'no'],
          ['Strike', [m.strike_type, m.floor_strike ?? undefined, m.cap_strike ?? undefined, m.functional_strike ?? undefined].filter((x) => x !== undefined && x !== null).join(' ') || '—'],
          ['Result', m.result ? `${m.result}${m.settlement_value_dollars ? ` (${fmtPx(m.ticker, m.settlement_value_dollars)})` : ''}` : '—'],
          ['Price steps', `${m.price_level_structure ? `${m.price_level_structure}: ` : ''}${m.price_ranges?.length ? m.price_ranges.map((r) => `${r.start}–${r.end} by ${r.step}`).join('; ') : 'whole cents'}`],
          ['Shard', m.exchange_index === undefined ? '—' : String(m.exchange_index)],
        ]}
      />
    </Section>
  );
}

function FeesSection({ m, info, seriesFees, eventFees }: { m: Market; info: MarketInfo; seriesFees: DetailQueries['seriesFees']; eventFees: DetailQueries['eventFees'] }) {
  const mid = examplePrice(m);
  return (
    <Section title="Fees">
      <div className="u-mb-4">
        Taker: ceil to the cent of 0.07 × {info.fee.multiplier ?? '1'} × contracts × P × (1 − P).{' '}
        {info.fee.makerFees ? 'Makers pay 0.0175 × the same.' : 'Makers pay no fee in this series.'}
        {info.fee.overridden ? ' An event override applies.' : ''}
        {info.fee.type ? ` Fee type ${info.fee.type}.` : ''}
      </div>
      <FeeExamples ticker={m.ticker} multiplier={info.fee.multiplier} makerFees={info.fee.makerFees} price={mid} />
      <h3 className="u-mt-8">Series fee changes</h3>
      {seriesFees.isPending && info.seriesTicker ? (
        <Loading text="Loading series fee changes…" />
      ) : seriesFees.error ? (
        <ErrorState error={seriesFees.error} onRetry={() => void seriesFees.refetch()} />
      ) : (seriesFees.data?.series_fee_change_arr.length ?? 0) === 0 ? (
        <div className="dim">No scheduled changes.</div>
      ) : (
        <ul className="u-m-0-pl-16">
          {seriesFees.data?.series_fee_change_arr.map((f, i) => (
            <li key={f.id ?? i}>
              {fmtDateTime(f.effective_ts)}: {f.fee_type ?? ''} {f.fee_multiplier ? `× ${f.fee_multiplier}` : ''}
              {f.taker_fee != null ? ` taker ${f.taker_fee}` : ''}
              {f.maker_fee != null ? ` maker ${f.maker_fee}` : ''}
            </li>
          ))}
        </ul>
      )}
      <h3 className="u-mt-8">Event fee changes</h3>
      {eventFees.isPending && info.eventTicker ? (
        <Loading text="Loading event fee changes…" />
      ) : eventFees.error ? (
        <ErrorState error={eventFees.error} onRetry={() => void eventFees.refetch()} />
      ) : (eventFees.data?.event_fee_changes.length ?? 0) === 0 ? (
        <div className="dim">No event overrides.</div>
      ) : (
        <ul className="u-m-0-pl-16">
          {eventFees.data?.event_fee_changes.map((f, i) => (
            <li key={f.id ?? i}>
              {fmtDateTime(f.effective_ts ?? f.scheduled_ts ?? null)}:{' '}
              {f.fee_type_override === null && f.fee_multiplier_override === null ? 'override cleared (series fee applies)' : `${f.fee_type_override ?? ''} × ${f.fee_multiplier_override ?? '—'}`}
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

function EventSection({ info, meta }: { info: MarketInfo; meta: DetailQueries['meta'] }) {
  const ev = info.event.data?.event;
  return (
    <Section title="Event">
      {info.event.isPending ? (
        <Loading text="Loading the event…" />
      ) : info.event.error ? (
        <ErrorState error={info.event.error} onRetry={() => void info.event.refetch()} />
      ) : ev ? (
        <KeyValues
          entries={[
            ['Event', `${ev.title} (${ev.event_ticker})`],
            ['Subtitle', ev.sub_title ?? '—'],
            ['Category', ev.category ?? '—'],
            ['Mutually exclusive', ev.mutually_exclusive === undefined ? '—' : ev.mutually_exclusive ? 'yes' : 'no'],
            ['Strike date', fmtDateTime(ev.strike_date ?? null)],
            ['Strike period', ev.strike_period ?? '—'],
            ['Collateral return', ev.collateral_return_type ?? '—'],
            ...(meta.data
              ? ([
                  ['Competition', meta.data.competition ?? '—'],
                  ['Tags', meta.data.tags.join(', ') || '—'],
                  ['Categories', meta.data.categories.join(', ') || '—'],
                  ['Settlement sources', meta.data.settlement_sources.map((s) => s.name ?? s.url).join(', ') || '—'],
                  ['Image', meta.data.image_url ? <span className="mono">{meta.data.image_url}</span> : '—'],
                ] as [string, ReactNode][])
              : meta.error
                ? ([['Metadata', <ErrorState key="e" error={meta.error} />]] as [string, ReactNode][])
                : []),
            ...Object.entries(ev.product_metadata ?? {}).map(([k, v]): [string, ReactNode] => [k, freeForm(v)]),
          ]}
        />
      ) : (
        <div className="dim">No event.</div>
      )}
    </Section>
  );
}

function SeriesSection({ info }: { info: MarketInfo }) {
  const se = info.series.data?.series;
  return (
    <Section title="Series">
      {se ? (
        <KeyValues
          entries={[
            ['Series', `${se.title} (${se.ticker})`],
            ['Category', se.category],
            ['Frequency', se.frequency ?? '—'],
            ['Fee type', se.fee_type ?? '—'],
            ['Fee multiplier', se.fee_multiplier],
            ['Settlement sources', se.settlement_sources.map((s) => s.name ?? s.url).join(', ') || '—'],
            ['Contract terms', se.contract_terms_url ? <span className="mono">{se.contract_terms_url}</span> : '—'],
            ['Prohibitions', se.additional_prohibitions.join('; ') || '—'],
          ]}
        />
      ) : info.series.error ? (
        <ErrorState error={info.series.error} onRetry={() => void info.series.refetch()} />
      ) : info.seriesTicker ? (
        <Loading text="Loading the series…" />
      ) : (
        <div className="dim">The event names no series.</div>
      )}
    </Section>
  );
}

export function MarketDetail() {
  const ticker = usePanelTicker();
  const info = useMarketInfo(ticker);
  const { meta, seriesFees, eventFees } = useDetailQueries(info);

  if (!ticker) return <Empty>No market selected. Open one from Markets, Events or the Watchlist.</Empty>;
  if (info.market.isPending) return <Loading text={`Loading ${ticker}…`} />;
  if (info.market.error) return <ErrorState error={info.market.error} onRetry={() => void info.market.refetch()} context={`Market ${ticker}`} />;
  const m = info.market.data?.market;
  if (!m) return <Empty>The exchange returned no market {ticker}.</Empty>;

  return (
    <div className="panel-body">
      <MarketBar m={m} ticker={ticker} />
      <MarketSection m={m} />
      <Section title="Rules">
        {m.rules_primary ? <div className="prose">{m.rules_primary}</div> : <div className="dim">No rules text.</div>}
        {m.rules_secondary && (
          <div className="prose dim u-mt-6">
            {m.rules_secondary}
          </div>
        )}
      </Section>
      <FeesSection m={m} info={info} seriesFees={seriesFees} eventFees={eventFees} />
      <EventSection info={info} meta={meta} />
      <SeriesSection info={info} />
    </div>
  );
}
