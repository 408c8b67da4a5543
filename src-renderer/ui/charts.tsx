// Chart wrappers over lightweight-charts 5. Prices reach this file as decimal strings and become
// plain numbers only here, as plot coordinates: nothing computed from them is ever shown as money.
import { useEffect, useRef } from 'react';
import {
  CandlestickSeries,
  ColorType,
  createChart,
  createSeriesMarkers,
  HistogramSeries,
  LineSeries,
  type IChartApi,
  type ISeriesApi,
  type ISeriesMarkersPluginApi,
  type SeriesMarker,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';

export interface Candle {
  /** bucket end, Unix seconds */
  time: number;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
}

export interface ChartMarker {
  time: number;
  side: 'buy' | 'sell';
  text: string;
}

export interface LinePoint {
  time: number;
  value: number;
}

export interface LineDef {
  id: string;
  label: string;
  points: LinePoint[];
}

const PALETTE = ['#5b9dff', '#e5a13b', '#b57cff', '#3fb2a8', '#e5635b', '#9bbf3f', '#d36fb8', '#8a929e'];
export const lineColor = (i: number): string => PALETTE[i % PALETTE.length]!;

function cssVar(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';
}

function chartColors() {
  return {
    bg: cssVar('--bg-panel'),
    text: cssVar('--text-dim'),
    grid: cssVar('--border'),
    up: cssVar('--bid'),
    down: cssVar('--ask'),
    volume: cssVar('--border-strong'),
  };
}

/**
 * Calls `apply` whenever the document's theme changes (data-theme on <html>). The chart's colours
 * are read from the CSS variables of the theme in force, so they must be read after <html> says
 * the new theme: App sets data-theme in an effect that runs after its children's effects, so a
 * chart that re-read its colours on the `theme` prop alone read the old theme's (it stayed dark).
 */
function useDocumentTheme(apply: () => void): void {
  const latest = useRef(apply);
  latest.current = apply;
  useEffect(() => {
    const mo = new MutationObserver(() => latest.current());
    mo.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => mo.disconnect();
  }, []);
}

/** The options a chart takes from the theme in force (the CSS variables of <html>'s data-theme). */
export function baseOptions() {
  const c = chartColors();
  return {
    autoSize: true,
    layout: { background: { type: ColorType.Solid, color: c.bg }, textColor: c.text, fontSize: 11, attributionLogo: false },
    grid: { vertLines: { color: c.grid }, horzLines: { color: c.grid } },
    // a fixed floor for the axis' width: sized by its widest label alone, it changed width as the
    // last volume's label did (875 -> 2.03K), and every change resized the chart's canvases and
    // laid out the page, several times a second under a live tape
    rightPriceScale: { borderColor: c.grid, minimumWidth: 64 },
    timeScale: { borderColor: c.grid, timeVisible: true, secondsVisible: false },
  };
}

const ts = (t: number) => t as UTCTimestamp;

/** Ascending, one point per time (the last wins), as lightweight-charts requires. */
function ascendingUnique<T extends { time: number }>(items: readonly T[]): readonly T[] {
  // the usual case (a series as the store keeps it, one point per time in order) is returned as is:
  // the candles change on every trade, and a copy and sort per trade is work for nothing
  let ordered = true;
  for (let i = 1; i < items.length && ordered; i++) ordered = items[i - 1]!.time < items[i]!.time;
  if (ordered) return items;
  const byTime = new Map<number, T>();
  for (const it of items) byTime.set(it.time, it);
  return [...byTime.values()].sort((a, b) => a.time - b.time);
}

function markerList(markers: readonly ChartMarker[]): SeriesMarker<Time>[] {
  const c = chartColors();
  return [...markers]
    .sort((a, b) => a.time - b.time)
    .map((m) => ({
      time: ts(m.time),
      position: m.side === 'buy' ? 'belowBar' : 'aboveBar',
      shape: m.side === 'buy' ? 'arrowUp' : 'arrowDown',
      color: m.side === 'buy' ? c.up : c.down,
      text: m.text,
    }));
}

/**
 * Candles with volume. `decimals` is the market's price decimals (2 for a cent market): the axis
 * and the crosshair show prices at the market's own tick, never sub-tick noise.
 */
export function CandleChart({ candles, markers, theme, label, decimals = 2 }: { candles: readonly Candle[]; markers: readonly ChartMarker[]; theme: string; label: string; decimals?: number }) {
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<IChartApi | null>(null);
  const candleSeries = useRef<ISeriesApi<'Candlestick'> | null>(null);
  const volumeSeries = useRef<ISeriesApi<'Histogram'> | null>(null);
  const markerApi = useRef<ISeriesMarkersPluginApi<Time> | null>(null);
  const shown = useRef<{ first: number; length: number; last: number } | null>(null);

  useEffect(() => {
    if (!host.current) return undefined;
    const c = chartColors();
    const ch = createChart(host.current, baseOptions());
    const cs = ch.addSeries(CandlestickSeries, {
      upColor: c.up,
      downColor: c.down,
      borderUpColor: c.up,
      borderDownColor: c.down,
      wickUpColor: c.up,
      wickDownColor: c.down,
      priceFormat: { type: 'price', precision: 4, minMove: 0.0001 },
    });
    const vs = ch.addSeries(HistogramSeries, { color: c.volume, priceFormat: { type: 'volume' }, priceScaleId: 'volume' });
    vs.priceScale().applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
    cs.priceScale().applyOptions({ scaleMargins: { top: 0.08, bottom: 0.25 } });
    chart.current = ch;
    candleSeries.current = cs;
    volumeSeries.current = vs;
    markerApi.current = createSeriesMarkers(cs, []);
    return () => {
      ch.remove();
      chart.current = null;
      candleSeries.current = null;
      volumeSeries.current = null;
      markerApi.current = null;
      shown.current = null;
    };
  }, []);

  useEffect(() => {
    // the chart library takes its display step as a number: 10^-decimals is exact enough for a label
    candleSeries.current?.applyOptions({ priceFormat: { type: 'price', precision: decimals, minMove: 1 / 10 ** decimals } });
  }, [decimals]);

  const markersRef = useRef(markers);
  markersRef.current = markers;
  // reads only refs: one function for the chart's life
  const applyTheme = useRef(() => {
    const c = chartColors();
    chart.current?.applyOptions(baseOptions());
    candleSeries.current?.applyOptions({ upColor: c.up, downColor: c.down, borderUpColor: c.up, borderDownColor: c.down, wickUpColor: c.up, wickDownColor: c.down });
    volumeSeries.current?.applyOptions({ color: c.volume });
    markerApi.current?.setMarkers(markerList(markersRef.current));
  }).current;
  useEffect(() => applyTheme(), [theme, applyTheme]);
  useDocumentTheme(applyTheme);

  useEffect(() => {
    const cs = candleSeries.current;
    const vs = volumeSeries.current;
    if (!cs || !vs) return;
    const data = ascendingUnique(candles);
    const first = data[0]?.time ?? 0;
    const prev = shown.current;
    const toBar = (k: Candle) => ({ time: ts(k.time), open: Number(k.open), high: Number(k.high), low: Number(k.low), close: Number(k.close) });
    const toVol = (k: Candle) => ({ time: ts(k.time), value: Number(k.volume) });
    const last = data[data.length - 1];
    // a live trade changes only the last bar (or opens one): update it instead of redrawing
    const sameTail =
      prev !== null &&
      last !== undefined &&
      prev.first === first &&
      ((data.length === prev.length && last.time === prev.last) || (data.length === prev.length + 1 && data[data.length - 2]?.time === prev.last));
    if (sameTail && last) {
      cs.update(toBar(last));
      vs.update(toVol(last));
    } else {
      cs.setData(data.map(toBar));
      vs.setData(data.map(toVol));
      // Show the recent part (the last 120 bars) with room on the right for markers and the
      // live bar; the rest is a scroll away. Fitting a day of 1m bars leaves the present a sliver.
      const scale = chart.current?.timeScale();
      if (scale && data.length > 120) scale.setVisibleLogicalRange({ from: data.length - 120, to: data.length + 6 });
      else scale?.fitContent();
    }
    shown.current = { first, length: data.length, last: last?.time ?? 0 };
  }, [candles]);

  useEffect(() => {
    markerApi.current?.setMarkers(markerList(markers));
  }, [markers, theme]);

  // the markers live on a canvas: list them for screen readers (and tests) as well
  return (
    <>
      <div className="chart-host" ref={host} role="img" aria-label={label} />
      <ul className="sr-only" aria-label={`My fills on the ${label}`}>
        {markers.map((m, i) => (
          <li key={`${m.time}-${i}`}>{m.text}</li>
        ))}
      </ul>
    </>
  );
}

export function LineChart({ lines, theme, label, decimals = 4 }: { lines: readonly LineDef[]; theme: string; label: string; decimals?: number }) {
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<IChartApi | null>(null);
  const series = useRef<Map<string, ISeriesApi<'Line'>>>(new Map());

  useEffect(() => {
    if (!host.current) return undefined;
    const ch = createChart(host.current, baseOptions());
    chart.current = ch;
    const map = series.current;
    return () => {
      ch.remove();
      chart.current = null;
      map.clear();
    };
  }, [decimals]);

  useEffect(() => {
    chart.current?.applyOptions(baseOptions());
  }, [theme, decimals]);
  useDocumentTheme(() => chart.current?.applyOptions(baseOptions()));

  useEffect(() => {
    const ch = chart.current;
    if (!ch) return;
    const map = series.current;
    const wanted = new Set(lines.map((l) => l.id));
    for (const [id, s] of map) {
      if (!wanted.has(id)) {
        ch.removeSeries(s);
        map.delete(id);
      }
    }
    lines.forEach((l, i) => {
      let s = map.get(l.id);
      if (!s) {
        s = ch.addSeries(LineSeries, { color: lineColor(i), lineWidth: 2, priceLineVisible: false, title: l.label, priceFormat: { type: 'price', precision: decimals, minMove: 1 / 10 ** decimals } });
        map.set(l.id, s);
      }
      s.setData(ascendingUnique(l.points).map((p) => ({ time: ts(p.time), value: p.value })));
    });
    ch.timeScale().fitContent();
  }, [lines, decimals]);

  return (
    <div className="chart-host" ref={host} role="img" aria-label={label}>
      <div className="chart-legend">
        {lines.map((l, i) => (
          <span key={l.id}>
            <span className="legend-swatch" style={{ background: lineColor(i) }} />
            {l.label}
          </span>
        ))}
      </div>
    </div>
  );
}
