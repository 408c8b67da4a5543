// Candlesticks with volume for the selected market (1m / 1h / 1d), my fills as markers, live
// updates from the trade tape; and for its event, the markets' candles and the forecast
// percentile history.
import { useEffect, useMemo, useState } from 'react';
import { useMarketInfo } from '../../hooks/useMarketInfo';
import { fmtCount, toDate } from '../../lib/format';
import { marketStore } from '../../stores/market';
import { usePrivate } from '../../stores/private';
import { useSession } from '../../stores/session';
import { CandleChart, LineChart, type Candle, type ChartMarker, type LineDef } from '../../ui/charts';
import { Empty, ErrorState, Loading } from '../../ui/States';
import { Tabs } from '../../ui/Tabs';
import { applyTrade, bucketEnd, toCandles } from './candles';
import { PERIODS, useWindowRead, type Period } from './window-read';
import { useAwaitFirstMarket, usePanelTicker } from '../../hooks/useLink';
import { finestStep, priceDecimals, type PriceRange } from '../../../src-shared/price-ranges';
import { fmtPx, priceDecimalsOf } from '../../lib/ticks';
import { Decimal } from '../../../src-shared/money';

function PeriodPicker({ value, onChange }: { value: Period; onChange: (p: Period) => void }) {
  return (
    <div className="seg" role="group" aria-label="Candle period">
      {PERIODS.map((p) => (
        <button key={p.id} type="button" aria-pressed={value === p.id} onClick={() => onChange(p.id)}>
          {p.label}
        </button>
      ))}
    </div>
  );
}

function MarketChart({ ticker, period, archive }: { ticker: string; period: Period; archive: boolean }) {
  const info = useMarketInfo(ticker);
  const theme = useSession((s) => s.settings.theme);
  const series = info.seriesTicker;
  const live = useWindowRead('getMarketCandlesticks', period, { params: { series_ticker: series ?? '', ticker }, query: { period_interval: period } }, { enabled: !archive && !!series, keep: true });
  const old = useWindowRead('getHistoricalMarketCandlesticks', period, { params: { ticker }, query: { period_interval: period } }, { enabled: archive, keep: true });
  const q = archive ? old : live;
  const base = useMemo(() => toCandles(q.data?.candlesticks ?? []), [q.data]);
  const [candles, setCandles] = useState<Candle[]>(base);
  useEffect(() => setCandles(base), [base]);
  useEffect(() => {
    if (archive) return undefined;
    return marketStore.subscribe((s, prev) => {
      if (s.lastTrades === prev.lastTrades) return;
      const mine = s.lastTrades.filter((t) => t.ticker === ticker);
      if (!mine.length) return;
      setCandles((cs) => [...mine].sort((a, b) => a.ts - b.ts).reduce((acc, t) => applyTrade(acc, { ts: t.ts > 1e12 ? Math.floor(t.ts / 1000) : t.ts, yes_price_dollars: t.yes_price_dollars, count_fp: t.count_fp }, period), cs));
    });
  }, [ticker, period, archive]);

  const fills = usePrivate((s) => s.fills);
  // one marker per bar and side (issue 34: a label per fill stacked and overlapped on a busy
  // bar): the contracts added up, at the price, or the lowest-highest prices, of those fills
  const markers = useMemo<ChartMarker[]>(() => {
    const byBar = new Map<string, { time: number; side: 'buy' | 'sell'; count: Decimal; lo: Decimal; hi: Decimal }>();
    for (const f of fills) {
      if (f.ticker !== ticker) continue;
      const d = toDate(f.ts ?? null);
      if (!d) continue;
      const time = bucketEnd(Math.floor(d.getTime() / 1000), period);
      const side = f.side === 'ask' ? 'sell' : 'buy';
      const px = new Decimal(f.price);
      const at = byBar.get(`${time}|${side}`);
      if (!at) byBar.set(`${time}|${side}`, { time, side, count: new Decimal(f.count), lo: px, hi: px });
      else Object.assign(at, { count: at.count.add(f.count), lo: Decimal.min(at.lo, px), hi: Decimal.max(at.hi, px) });
    }
    return [...byBar.values()].map((m) => {
      const price = m.lo.eq(m.hi) ? fmtPx(ticker, m.lo) : `${fmtPx(ticker, m.lo)}-${fmtPx(ticker, m.hi)}`;
      return { time: m.time, side: m.side, text: `${m.side === 'sell' ? 'S' : 'B'} ${fmtCount(m.count)}@${price}` };
    });
  }, [fills, ticker, period]);

  if (!archive && info.event.isPending) return <Loading text={`Finding the series of ${ticker}…`} />;
  if (!archive && !series) return info.event.error ? <ErrorState error={info.event.error} onRetry={() => void info.event.refetch()} /> : <Empty>This market's event names no series, so it has no candles.</Empty>;
  if (q.isPending) return <Loading text={`Loading ${PERIODS.find((p) => p.id === period)!.label} candles…`} />;
  if (q.error && !q.data) return <ErrorState error={q.error} onRetry={() => void q.refetch()} context="Candles" />;
  if (!candles.length) return <Empty>No candles for {ticker} in this window{archive ? ' in the archive' : ''}.</Empty>;
  const decimals = priceDecimals(finestStep(info.market.data?.market.price_ranges as PriceRange[] | undefined));
  return <CandleChart candles={candles} markers={markers} theme={theme} label={`${ticker} candles`} decimals={decimals} />;
}

function EventCharts({ ticker, period }: { ticker: string; period: Period }) {
  const info = useMarketInfo(ticker);
  const theme = useSession((s) => s.settings.theme);
  const params = info.seriesTicker && info.eventTicker ? { series_ticker: info.seriesTicker, ticker: info.eventTicker } : null;
  const ev = useWindowRead('getEventCandlesticks', period, params ? { params, query: { period_interval: period } } : undefined, { enabled: !!params });
  const fc = useWindowRead('getForecastPercentileHistory', period, params ? { params, query: { percentiles: [1000, 2500, 5000, 7500, 9000], period_interval: period } } : undefined, { enabled: !!params });
  const eventLines = useMemo<LineDef[]>(() => {
    const d = ev.data;
    if (!d) return [];
    return d.market_tickers.map((t, i) => ({
      id: t,
      label: t.split('-').slice(-1)[0] ?? t,
      points: toCandles(d.market_candlesticks[i] ?? []).map((c) => ({ time: c.time, value: Number(c.close) })),
    }));
  }, [ev.data]);
  const forecastLines = useMemo<LineDef[]>(() => {
    const byPct = new Map<number, LineDef>();
    for (const p of fc.data?.percentile_points ?? []) {
      let l = byPct.get(p.percentile);
      if (!l) byPct.set(p.percentile, (l = { id: String(p.percentile), label: `p${p.percentile / 100}`, points: [] }));
      l.points.push({ time: p.ts, value: p.value });
    }
    return [...byPct.values()].sort((a, b) => Number(a.id) - Number(b.id));
  }, [fc.data]);

  if (info.market.isPending || info.event.isPending) return <Loading text="Loading the event…" />;
  if (!params) return <Empty>This market has no event series to chart.</Empty>;
  return (
    <div className="vsplit">
      <div className="section dim">Markets of {info.eventTicker} (closing price)</div>
      <div className="u-fx-1-1-50-d-flex-minh-0">
        {ev.isPending ? <Loading text="Loading event candles…" /> : ev.error ? <ErrorState error={ev.error} onRetry={() => void ev.refetch()} /> : eventLines.every((l) => !l.points.length) ? <Empty>No event candles in this window.</Empty> : <LineChart lines={eventLines} theme={theme} decimals={Math.max(2, ...eventLines.map((l) => priceDecimalsOf(l.id) ?? 2))} label={`Markets of ${info.eventTicker}`} />}
      </div>
      <div className="section dim">Forecast percentiles</div>
      <div className="u-fx-1-1-50-d-flex-minh-0">
        {fc.isPending ? <Loading text="Loading forecast history…" /> : fc.error ? <ErrorState error={fc.error} onRetry={() => void fc.refetch()} context="Forecast history" /> : forecastLines.length === 0 ? <Empty>This event has no forecast history.</Empty> : <LineChart lines={forecastLines} theme={theme} decimals={2} label="Forecast percentile history" />}
      </div>
    </div>
  );
}

export function ChartPanel() {
  const ticker = usePanelTicker();
  useAwaitFirstMarket(ticker); // a new panel in a link colour is fed by the next pick in Markets
  const [tab, setTab] = useState<'market' | 'event'>('market');
  const [period, setPeriod] = useState<Period>(60);
  const [archive, setArchive] = useState(false);
  return (
    <div className="panel">
      <div className="panel-bar">
        <Tabs label="Chart views" tabs={[{ id: 'market', label: 'Market' }, { id: 'event', label: 'Event' }]} value={tab} onChange={setTab} />
        <strong className="mono">{ticker ?? ''}</strong>
        <span className="grow" />
        <PeriodPicker value={period} onChange={setPeriod} />
        {tab === 'market' && (
          <label className="check" title="Candles of markets that have moved to the historical archive">
            <input type="checkbox" checked={archive} onChange={(e) => setArchive(e.target.checked)} />
            Archive
          </label>
        )}
      </div>
      <div className="panel-body u-d-flex-fd-column">
        {!ticker ? (
          <Empty>No market selected.</Empty>
        ) : tab === 'market' ? (
          <MarketChart key={`${ticker}-${period}-${archive}`} ticker={ticker} period={period} archive={archive} />
        ) : (
          <EventCharts ticker={ticker} period={period} />
        )}
      </div>
    </div>
  );
}
