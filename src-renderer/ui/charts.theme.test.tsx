// @vitest-environment jsdom
// The charts follow the document's theme (data-theme on <html>, as App sets it): the options given
// to lightweight-charts are the light theme's when <html> says light, and the dark theme's when it
// says dark, also when <html> changes after the chart's `theme` prop did (App's effect, which sets
// data-theme, runs after its children's: the chart read the old theme's colours and stayed dark).
// lightweight-charts (a third-party library drawing on a canvas jsdom lacks) is replaced by a
// recorder of the options it is given; the two themes' CSS variables are declared as app.css
// declares them (the renderer's tests may not read files).
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, render, waitFor } from '@testing-library/react';

interface Applied {
  layout?: { background?: { color?: string }; textColor?: string };
  grid?: { vertLines?: { color?: string } };
}
const charts: { options: Applied[] }[] = [];
const seriesOptions: Record<string, unknown>[] = [];

vi.mock('lightweight-charts', () => {
  const series = () => ({
    applyOptions: (o: Record<string, unknown>) => seriesOptions.push(o),
    priceScale: () => ({ applyOptions: () => undefined }),
    setData: () => undefined,
    update: () => undefined,
  });
  return {
    ColorType: { Solid: 'solid' },
    CandlestickSeries: 'Candlestick',
    HistogramSeries: 'Histogram',
    LineSeries: 'Line',
    createSeriesMarkers: () => ({ setMarkers: () => undefined }),
    createChart: (_host: unknown, options: Applied) => {
      const rec = { options: [options] };
      charts.push(rec);
      return {
        applyOptions: (o: Applied) => rec.options.push(o),
        addSeries: (_kind: unknown, o: Record<string, unknown>) => {
          seriesOptions.push(o);
          return series();
        },
        removeSeries: () => undefined,
        timeScale: () => ({ fitContent: () => undefined, setVisibleLogicalRange: () => undefined }),
        remove: () => undefined,
      };
    },
  };
});

const { CandleChart, LineChart } = await import('./charts');

const THEMES = {
  dark: { bg: '#13161b', text: '#8a929e', grid: '#272c35' },
  light: { bg: '#ffffff', text: '#5b6370', grid: '#dadee4' },
};
const last = () => charts[charts.length - 1]!.options.at(-1)!;

beforeAll(() => {
  const style = document.createElement('style');
  const vars = (t: keyof typeof THEMES, bid: string, ask: string) =>
    `:root[data-theme='${t}'] { --bg-panel: ${THEMES[t].bg}; --text-dim: ${THEMES[t].text}; --border: ${THEMES[t].grid}; --border-strong: #999; --bid: ${bid}; --ask: ${ask}; }`;
  style.textContent = `${vars('dark', '#3fb27f', '#e5635b')}\n${vars('light', '#16845a', '#c8382f')}`;
  document.head.appendChild(style);
});

afterEach(() => {
  cleanup();
  charts.length = 0;
  seriesOptions.length = 0;
});

describe('chart options per theme', () => {
  for (const theme of ['dark', 'light'] as const) {
    it(`a chart opened in the ${theme} theme takes the ${theme} theme's colours`, () => {
      document.documentElement.dataset.theme = theme;
      render(<CandleChart candles={[]} markers={[]} theme={theme} label="c" />);
      expect(last().layout?.background?.color).toBe(THEMES[theme].bg);
      expect(last().layout?.textColor).toBe(THEMES[theme].text);
      expect(last().grid?.vertLines?.color).toBe(THEMES[theme].grid);
    });
  }

  it('the candle chart follows a switch to light and back, <html> changing after the prop as in App', async () => {
    document.documentElement.dataset.theme = 'dark';
    const r = render(<CandleChart candles={[]} markers={[]} theme="dark" label="c" />);
    expect(last().layout?.background?.color).toBe(THEMES.dark.bg);
    r.rerender(<CandleChart candles={[]} markers={[]} theme="light" label="c" />);
    document.documentElement.dataset.theme = 'light';
    await waitFor(() => expect(last().layout?.background?.color).toBe(THEMES.light.bg));
    expect(last().layout?.textColor).toBe(THEMES.light.text);
    // the candles take the light theme's bid/ask colours too
    expect(seriesOptions.at(-2)).toMatchObject({ upColor: '#16845a', downColor: '#c8382f' });
    r.rerender(<CandleChart candles={[]} markers={[]} theme="dark" label="c" />);
    document.documentElement.dataset.theme = 'dark';
    await waitFor(() => expect(last().layout?.background?.color).toBe(THEMES.dark.bg));
  });

  it('the line chart follows the switch too', async () => {
    document.documentElement.dataset.theme = 'dark';
    const r = render(<LineChart lines={[]} theme="dark" label="l" />);
    r.rerender(<LineChart lines={[]} theme="light" label="l" />);
    document.documentElement.dataset.theme = 'light';
    await waitFor(() => expect(last().layout?.background?.color).toBe(THEMES.light.bg));
  });
});
