// The judge: pairs every value a panel shows with the exchange's value for it, and follows each
// value over time. A sample is the screen read between two exchange snapshots (before and after);
// a value is judged only when the exchange had it the same in both (steady). A shown value that
// differs from a steady exchange value starts a "wrong since" clock; the clock resets when the
// exchange's value changes; a value still wrong at a later sample more than two frames after
// it was first seen wrong (in time and in the page's own animation frames) is a wrong value (its episode is counted once, its length kept).
import { Decimal } from '../../src-shared/money';
import { isOnTick, isPriceTextAtTick } from '../../src-shared/price-ranges';
import type { ExchangeSnapshot } from './exchange';
import { dollarsToTicks, num, PANELS, same, sameCash, TWO_FRAMES_MS, type Panel, type Shown } from './figures';
import { heatBookOf, heldByRow } from './heatmap';
import { pnlValues } from './pnl-values';
import type { Screen } from './screen';
import type { TickerTimeline } from './timeline';

export { TWO_FRAMES_MS, PANELS, num, type Panel, type Shown } from './figures';

/** Sizes at a ladder row: the view's bids floor to the row's step, its offers ceil, as the ladder buckets them. */
function ladderTruth(ticker: string, view: 'yes' | 'no', step: number, rowTicks: number, side: 'bid' | 'ask') {
  return (ex: ExchangeSnapshot): string | undefined => {
    const b = ex.books.get(ticker);
    if (!b) return undefined;
    // YES view: bids are YES bids, offers are NO bids at 1 - p. NO view: the mirror.
    const bidsOf = view === 'yes' ? b.yes : b.no;
    const asksOf = view === 'yes' ? b.no : b.yes;
    let sum = new Decimal(0);
    if (side === 'bid') {
      for (const [p, c] of bidsOf) if (Math.floor(dollarsToTicks(p) / step) * step === rowTicks) sum = sum.add(c);
    } else {
      for (const [p, c] of asksOf) if (Math.ceil((10_000 - dollarsToTicks(p)) / step) * step === rowTicks) sum = sum.add(c);
    }
    return sum.isZero() ? '' : sum.toString();
  };
}

/**
 * A price as the panel shows it, against its market's tick: on the market's grid and written
 * with exactly the decimals of its tick ("0.43" in a cent market, "0.095" in a tapered one's
 * tail). A ladder's row label is checked for the grid only: its rows may be spaced finer than the
 * tick and are written at the spacing's decimals, and only a row holding size must be on the grid.
 */
function tickCheck(panel: Panel, key: string, ticker: string, text: string, gridOnly = false): Shown | null {
  if (!/^\d+\.\d+$/.test(text)) return null; // "—", empty: no price shown
  return {
    key: `${panel}|tick|${key}`,
    panel,
    exact: true,
    shown: text,
    truth: (ex) => {
      const ranges = ex.ranges.get(ticker);
      if (!ranges) return undefined;
      return (gridOnly ? isOnTick(text, ranges) : isPriceTextAtTick(text, ranges)) ? text : `a price at the tick of ${ticker}`;
    },
  };
}

/** What each snapshot's book holds per heatmap row (read once per snapshot and row height). */
const heldCache = new WeakMap<ExchangeSnapshot, Map<string, Map<number, number> | undefined>>();
function heldAt(ex: ExchangeSnapshot, ticker: string, step: number): Map<number, number> | undefined {
  const byKey = heldCache.get(ex) ?? new Map<string, Map<number, number> | undefined>();
  heldCache.set(ex, byKey);
  const key = `${ticker}|${step}`;
  if (!byKey.has(key)) {
    const b = ex.books.get(ticker);
    byKey.set(key, b ? heldByRow(heatBookOf(b), step) : undefined);
  }
  return byKey.get(key);
}

/**
 * The depth heatmap's newest column: heat on a row where the book holds size (its bids floored to
 * the row, its offers ceiled), none elsewhere; judged while the row's levels held still.
 */
function heatmapValues(h: NonNullable<Screen['heatmap']>, timeline?: TickerTimeline): Shown[] {
  const { ticker, step } = h;
  return h.rows.map((r) => ({
    key: `heatmap|${ticker}|${r.price}`,
    panel: 'heatmap' as const,
    exact: true,
    shown: r.heat ? 'heat' : 'none',
    truth: (ex: ExchangeSnapshot) => {
      const held = heldAt(ex, ticker, step);
      return held === undefined ? undefined : (held.get(r.price) ?? 0) > 0 ? 'heat' : 'none';
    },
    // a YES bid in [row, row + step) or an offer (a NO bid at 1 - p) with p in (row - step, row]
    ...(timeline ? { movedBetween: (a: number, b: number) => (timeline.bookMovedBetween(ticker, 'yes', r.price, r.price + step - 1, a, b) ?? true) || (timeline.bookMovedBetween(ticker, 'no', 10_000 - r.price, 10_000 - r.price + step - 1, a, b) ?? true) } : {}),
  }));
}

/** Every value the screen shows, with its truth. */
export function shownValues(s: Screen, timeline?: TickerTimeline): Shown[] {
  const out: Shown[] = [];
  const push = (v: Shown | null) => v && out.push(v);
  for (const l of s.ladders) for (const r of l.rows) if (r.bid || r.ask) push(tickCheck('ladder', `${l.ticker}|${l.view}|${r.price}`, l.ticker, r.price, true));
  for (const m of s.markets ?? []) for (const f of ['bid', 'ask', 'last'] as const) push(tickCheck('markets', `${m.ticker}|${f}`, m.ticker, m[f]));
  if (s.tape) for (const r of s.tape.rows.slice(0, 5)) push(tickCheck('tape', `${s.tape.ticker}|${r.id}`, s.tape.ticker, r.price));
  for (const r of s.resting ?? []) push(tickCheck('blotter', r.id, r.ticker, r.price));
  for (const [li, l] of s.ladders.entries()) {
    const ticks = l.rows.map((r) => dollarsToTicks(r.price));
    const step = ticks.length > 1 ? Math.abs(ticks[0]! - ticks[1]!) : 100;
    for (const [i, r] of l.rows.entries()) {
      const at = ticks[i]!;
      for (const side of ['bid', 'ask'] as const) {
        // the book side and prices (ticks) whose levels land in this row
        const bookSide = (side === 'bid') === (l.view === 'yes') ? 'yes' : 'no';
        const [lo, hi] = side === 'bid' ? [at, at + step - 1] : [10_000 - at, 10_000 - at + step - 1];
        out.push({
          key: `ladder#${li}|${l.ticker}|${l.view}|${r.price}|${side}`,
          panel: 'ladder',
          shown: side === 'bid' ? r.bid : r.ask,
          truth: ladderTruth(l.ticker, l.view, step, at, side),
          // not followed yet: cannot tell whether it moved in between, so no judgment
          ...(timeline ? { movedBetween: (a: number, b: number) => timeline.bookMovedBetween(l.ticker, bookSide, lo, hi, a, b) ?? true } : {}),
        });
      }
    }
  }
  if (s.heatmap) out.push(...heatmapValues(s.heatmap, timeline));
  for (const m of s.markets ?? []) {
    for (const f of ['bid', 'ask', 'last'] as const) {
      out.push({ key: `markets|${m.ticker}|${f}`, panel: 'markets', shown: m[f], truth: (ex) => ex.markets.get(m.ticker)?.[f], ...(timeline ? { movedBetween: (a: number, b: number) => timeline.movedBetween(m.ticker, f, a, b), note: () => `the exchange's ticker stream last said ${timeline.lastValue(m.ticker, f) ?? 'nothing'}`, published: (t: string) => { const last = timeline.lastValue(m.ticker, f); return last === undefined || same(last, t); } } : {}) });
    }
  }
  if (s.tape) {
    const { ticker, rows } = s.tape;
    // the exchange's newest trades lead the tape: those newer than the sixth are in its first
    // rows, and its first row is one of the newest (trades of one instant may list in any order)
    const ids = rows.map((r) => r.id);
    out.push({
      key: `tape|${ticker}|newest`,
      panel: 'tape',
      shown: JSON.stringify(ids),
      truth: (ex) => {
        const t = ex.trades.get(ticker);
        if (!t) return undefined;
        const sixth = t[5]?.time;
        const newest = t.filter((x) => x.time === t[0]?.time).map((x) => x.id);
        return JSON.stringify({ lead: t.slice(0, 5).filter((x) => sixth === undefined || x.time !== sixth).map((x) => x.id), first: newest });
      },
      matches: (shown, truth) => {
        const s = JSON.parse(shown) as string[];
        const t = JSON.parse(truth) as { lead: string[]; first: string[] };
        if (t.first.length === 0) return s.length === 0;
        return t.first.includes(s[0] ?? '') && t.lead.every((id) => s.slice(0, 12).includes(id));
      },
    });
    for (const r of rows.slice(0, 5)) {
      const side = r.side.includes('buy') ? 'yes' : r.side.includes('sell') ? 'no' : '';
      out.push({
        key: `tape|${ticker}|${r.id}`,
        panel: 'tape',
        exact: true,
        shown: `${num(r.price)}|${num(r.size)}|${side}`,
        truth: (ex) => {
          const t = ex.trades.get(ticker)?.find((x) => x.id === r.id);
          return t ? `${num(t.price)}|${num(t.count)}|${t.taker}` : undefined;
        },
      });
    }
  }
  if (s.resting) {
    const rows = new Map(s.resting.map((r) => [r.id, r]));
    out.push({ key: 'blotter|resting ids', panel: 'blotter', exact: true, shown: JSON.stringify([...rows.keys()].sort()), truth: (ex) => JSON.stringify([...ex.resting.keys()].sort()) });
    for (const r of s.resting) {
      out.push({
        key: `blotter|${r.id}`,
        panel: 'blotter',
        exact: true,
        shown: `${r.ticker}|${num(r.price)}|${num(r.remaining)}`,
        truth: (ex) => {
          const o = ex.resting.get(r.id);
          return o ? `${o.ticker}|${num(o.price)}|${num(o.remaining)}` : 'not resting';
        },
      });
    }
  }
  // Positions & P&L (rows, flat ones when listed, totals) and the Risk panel's today's P&L
  out.push(...pnlValues(s, timeline));
  if (s.balance !== null) out.push({ key: 'balance', panel: 'balance', shown: num(s.balance), truth: (ex) => num(ex.balance), cash: true });
  // the exchange answered both reads around the sample: the terminal's link to it should be live
  out.push({ key: 'status|connection', panel: 'status', exact: true, shown: s.status.startsWith('Live') ? 'Live' : s.status, truth: () => 'Live' });
  return out;
}

interface Track {
  truth: string;
  /** first sample time this value was seen wrong against `truth` */
  wrongSince: number | null;
  /** the page's frame count at that sample */
  wrongSinceFrame: number;
  lastWrong: number;
  counted: boolean;
}

export interface PanelReport {
  samples: number;
  values: number;
  /** seen differing at one sample only (in flight within the sampling interval) */
  transient: number;
  wrong: number;
  longestWrongMs: number;
  examples: string[];
}

/** Follows every value across samples; `sample` takes the screen and the snapshots around it. */
export class Judge {
  private tracks = new Map<string, Track>();
  /** when each value was last judged (a sample whose truth held still across it) */
  private readonly judgedAt = new Map<string, number>();
  readonly report = new Map<Panel, PanelReport>(PANELS.map((p) => [p, { samples: 0, values: 0, transient: 0, wrong: 0, longestWrongMs: 0, examples: [] }]));

  constructor(private readonly timeline?: TickerTimeline) {}

  sample(screen: Screen, at: number, before: ExchangeSnapshot, after: ExchangeSnapshot): void {
    const seenPanels = new Set<Panel>();
    const seenKeys = new Set<string>();
    for (const v of shownValues(screen, this.timeline)) {
      seenPanels.add(v.panel);
      seenKeys.add(v.key);
      const t0 = v.truth(before);
      const t1 = v.truth(after);
      if (t0 === undefined || t1 === undefined || t0 !== t1 || v.movedBetween?.(before.startedAt, after.at) || v.published?.(t0) === false) {
        // the exchange's value moved across the sample (or cannot be read): no judgment, the clock restarts
        this.close(v.key, v.panel);
        continue;
      }
      const r = this.report.get(v.panel)!;
      r.values++;
      this.judgedAt.set(v.key, at);
      let track = this.tracks.get(v.key);
      if (!track || track.truth !== t0) {
        if (track) this.close(v.key, v.panel);
        track = { truth: t0, wrongSince: null, wrongSinceFrame: 0, lastWrong: 0, counted: false };
        this.tracks.set(v.key, track);
      }
      const ok = v.matches ? v.matches(v.shown, t0) : v.exact ? v.shown === t0 : v.cash ? sameCash(v.shown, t0) : same(v.shown, t0);
      if (ok) {
        this.close(v.key, v.panel);
        this.tracks.set(v.key, { truth: t0, wrongSince: null, wrongSinceFrame: 0, lastWrong: 0, counted: false });
        continue;
      }
      if (track.wrongSince === null) {
        track.wrongSince = at;
        track.wrongSinceFrame = screen.frames;
      }
      track.lastWrong = at;
      const wrongFor = at - track.wrongSince;
      // longer than two frames: in time, and in frames the page ran (a starved page that ran no
      // frame in between has not had the chance to paint; one that kept painting a stale value has)
      if (wrongFor > TWO_FRAMES_MS && screen.frames - track.wrongSinceFrame > 2) {
        if (!track.counted) {
          track.counted = true;
          r.wrong++;
          if (r.examples.length < 8) r.examples.push(`${v.key}: shows "${v.shown}", exchange "${t0}"${v.note ? ` (${v.note()})` : ''}`);
        }
        r.longestWrongMs = Math.max(r.longestWrongMs, wrongFor);
      }
    }
    for (const p of seenPanels) this.report.get(p)!.samples++;
    // a value no longer shown ends its episode
    for (const key of [...this.tracks.keys()]) if (!seenKeys.has(key)) this.close(key, key.split(/[|#]/)[0] as Panel);
  }

  private close(key: string, panel: Panel): void {
    const t = this.tracks.get(key);
    if (t && t.wrongSince !== null && !t.counted) this.report.get(panel)!.transient++;
    this.tracks.delete(key);
  }

  /** When the value under `key` was last judged (undefined: never). */
  lastJudged(key: string): number | undefined {
    return this.judgedAt.get(key);
  }

  /** Wrong values in all panels. */
  totalWrong(): number {
    return [...this.report.values()].reduce((n, r) => n + r.wrong, 0);
  }

  table(): string {
    const lines = ['panel       samples  values checked  in flight  wrong  longest wrong'];
    for (const [p, r] of this.report) lines.push(`${p.padEnd(11)} ${String(r.samples).padStart(7)}  ${String(r.values).padStart(14)}  ${String(r.transient).padStart(9)}  ${String(r.wrong).padStart(5)}  ${r.wrong ? `${Math.round(r.longestWrongMs)} ms` : '-'}`);
    for (const [p, r] of this.report) for (const e of r.examples) lines.push(`  ${p}: ${e}`);
    return lines.join('\n');
  }
}
