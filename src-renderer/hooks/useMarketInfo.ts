// The selected market with its event and series: titles, rules, and the fee terms the ticket
// and the detail view need (an event override beats the series while it is set).
import { useRest } from './useRest';

export interface FeeTerms {
  type: string | null;
  multiplier: string | null;
  makerFees: boolean;
  overridden: boolean;
}

export function useMarketInfo(ticker: string | null) {
  const market = useRest('getMarket', ticker ? { params: { ticker } } : undefined, { enabled: !!ticker, staleTime: 30_000 });
  const eventTicker = market.data?.market.event_ticker;
  const event = useRest('getEvent', eventTicker ? { params: { event_ticker: eventTicker } } : undefined, { enabled: !!eventTicker, staleTime: 60_000 });
  const seriesTicker = event.data?.event.series_ticker;
  const series = useRest('getSeries', seriesTicker ? { params: { series_ticker: seriesTicker } } : undefined, { enabled: !!seriesTicker, staleTime: 300_000 });
  const ev = event.data?.event;
  const se = series.data?.series;
  const overridden = !!ev && (ev.fee_multiplier_override != null || ev.fee_type_override != null);
  const type = ev?.fee_type_override ?? se?.fee_type ?? null;
  const fee: FeeTerms = {
    type,
    multiplier: ev?.fee_multiplier_override ?? se?.fee_multiplier ?? null,
    makerFees: type === 'quadratic_with_maker_fees' || type === 'quadratic_with_combo_maker_fees',
    overridden,
  };
  return { market, event, series, fee, seriesTicker, eventTicker };
}
