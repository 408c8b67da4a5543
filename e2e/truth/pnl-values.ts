// Every P&L figure on screen, with its truth: each Positions row (position, cost, mark, value,
// unrealized, realized, net, fees; flat rows too when listed), the tab's totals over every
// position the account holds or held, and the Risk panel's today's P&L. The truth of position,
// cost, realized and fees is twofold: the exchange's position record (what the panel is fed)
// and what the exchange's fills and settlements give (ledger.ts); marks come from its books.
import { Decimal } from '../../src-shared/money';
import type { ExchangeSnapshot } from './exchange';
import { markTruth, num, type Shown } from './figures';
import { todayMarked, todayPnl } from './ledger';
import type { Screen } from './screen';
import type { TickerTimeline } from './timeline';

type Row = NonNullable<Screen['positions']>[number];
const ZERO = new Decimal(0);

/** The mark the Positions panel takes: the book's mid when both sides quote, else the last trade. */
function panelMark(ex: ExchangeSnapshot, ticker: string): { yes: Decimal; source: string } | null | undefined {
  const mid = markTruth(ex, ticker, 'mid');
  if (mid === undefined) return undefined;
  if (mid !== 'no mark') return { yes: new Decimal(mid.split(' ')[0]!), source: 'mid' };
  const last = ex.markets.get(ticker)?.last;
  if (last === undefined) return undefined;
  return last === '' || Number.isNaN(Number(last)) ? null : { yes: new Decimal(last), source: 'last' };
}

/** What the contracts are worth at a YES mark: YES at the mark, NO at 1 - the mark. */
const worth = (position: Decimal, yes: Decimal) => (position.gte(0) ? position.mul(yes) : position.abs().mul(new Decimal(1).minus(yes)));

/**
 * Whether a mark moved between two moments, from the exchange's ticker stream: a mid with either
 * side of the inside, a last trade with the last price (the inside can go and come back between
 * two reads at a high rate: a screen that showed the in-between mark is not wrong).
 */
function markMoved(timeline: TickerTimeline | undefined, ticker: string, source: string) {
  if (!timeline) return undefined;
  return (from: number, to: number) => (source === 'last' ? timeline.movedBetween(ticker, 'last', from, to) : timeline.movedBetween(ticker, 'bid', from, to) || timeline.movedBetween(ticker, 'ask', from, to) || timeline.movedBetween(ticker, 'last', from, to));
}
const withMoved = (moved: ((from: number, to: number) => boolean) | undefined) => (moved ? { movedBetween: moved } : {});

function rowValues(p: Row, timeline?: TickerTimeline): Shown[] {
  const out: Shown[] = [];
  const [count = '', sideWord = ''] = p.position.split(/\s+/);
  const signed = count === 'flat' ? '0' : sideWord === 'NO' ? `-${num(count)}` : num(count);
  const [markText = '', source = ''] = p.mark.split(/\s+/);
  const key = (f: string) => `positions|${p.ticker}|${f}`;
  const moved = withMoved(markMoved(timeline, p.ticker, source));
  out.push({ key: key('mark'), panel: 'positions', shown: p.mark === 'no mark' ? 'no mark' : `${num(markText)} ${source}`, truth: (ex) => markTruth(ex, p.ticker, source), exact: true, ...moved });
  // value and unrealized at the mark the row names; net = unrealized + realized - fees
  const atMark = (ex: ExchangeSnapshot, f: (pos: Decimal, cost: Decimal, yes: Decimal) => Decimal): string | undefined => {
    const e = ex.positions.get(p.ticker);
    if (!e) return undefined;
    const pos = new Decimal(e.position);
    if (pos.isZero()) return num(f(ZERO, ZERO, ZERO).toString());
    const m = markTruth(ex, p.ticker, source);
    if (m === undefined) return undefined;
    if (m === 'no mark') return '';
    return num(f(pos, new Decimal(e.cost).abs(), new Decimal(m.split(' ')[0]!)).toString());
  };
  const record = (ex: ExchangeSnapshot) => ex.positions.get(p.ticker);
  out.push({ key: key('value'), panel: 'positions', cash: true, shown: num(p.value), truth: (ex) => atMark(ex, (pos, _c, yes) => worth(pos, yes)), ...moved });
  out.push({ key: key('unrealized'), panel: 'positions', cash: true, shown: num(p.unrealized), truth: (ex) => atMark(ex, (pos, cost, yes) => worth(pos, yes).minus(cost)), ...moved });
  out.push({
    key: key('net'),
    panel: 'positions',
    cash: true,
    ...moved,
    shown: num(p.total),
    truth: (ex) => {
      const e = record(ex);
      if (!e) return undefined;
      const u = atMark(ex, (pos, cost, yes) => worth(pos, yes).minus(cost));
      if (u === undefined || u === '') return u;
      return num(new Decimal(u).add(e.realized || 0).minus(e.fees || 0).toString());
    },
  });
  for (const f of ['position', 'cost', 'realized', 'fees'] as const) {
    const shown = f === 'position' ? signed : num(p[f]);
    out.push({ key: key(f), panel: 'positions', shown, cash: f !== 'position', truth: (ex) => (record(ex) ? num(record(ex)![f]) : 'none') });
    // the same figure as the exchange's fills and settlements give it (a cost as what was paid, whatever sign the record gives it)
    out.push({ key: `pnl|${p.ticker}|${f} (fills)`, panel: 'pnl', shown: f === 'cost' ? shown.replace(/^-/, '') : shown, cash: f !== 'position', truth: (ex) => {
      const l = ex.ledger.get(p.ticker);
      if (!l) return record(ex) ? undefined : 'none';
      return num((f === 'cost' ? l.cost.abs() : l[f]).toString());
    } });
  }
  // figures in a column that gave way are not on screen: nothing shown, nothing to judge
  const colOf = (k: string) => { const f = k.split('|')[2]!.replace(' (fills)', ''); return f === 'net' ? 'total' : f; };
  return out.filter((v) => !p.absent.includes(colOf(v.key)));
}

/** The totals over every position (flat and settled included): unrealized at each open row's mark. */
function totalValues(t: NonNullable<Screen['pnlTotals']>, timeline?: TickerTimeline): Shown[] {
  const sums = (ex: ExchangeSnapshot) => {
    let unrealized = ZERO;
    let realized = ZERO;
    let fees = ZERO;
    open = [...ex.ledger].filter(([, l]) => !l.position.isZero()).map(([ticker]) => ticker);
    for (const [ticker, l] of ex.ledger) {
      realized = realized.add(l.realized);
      fees = fees.add(l.fees);
      if (l.position.isZero()) continue;
      const m = panelMark(ex, ticker);
      if (m === undefined) return undefined;
      if (m !== null) unrealized = unrealized.add(worth(l.position, m.yes).minus(l.cost.abs()));
    }
    return { unrealized, realized, fees, net: unrealized.add(realized).minus(fees) };
  };
  // the marks of every open position in the last snapshot judged (a total moves with any of them)
  let open: string[] = [];
  const moved = (from: number, to: number) => open.some((ticker) => markMoved(timeline, ticker, 'mid')?.(from, to) ?? false);
  return (['unrealized', 'realized', 'fees', 'net'] as const).map((f) => ({
    key: `pnl|totals|${f}`,
    panel: 'pnl',
    cash: true,
    ...(timeline && (f === 'unrealized' || f === 'net') ? { movedBetween: moved } : {}),
    shown: num(t[f]),
    truth: (ex) => {
      const s = sums(ex);
      return s ? num(s[f].toString()) : undefined;
    },
  }));
}

/** Today's P&L (the Risk panel's): today's fills at the books' best prices where they could close. */
function todayValue(shown: string, timeline?: TickerTimeline): Shown {
  // the markets held net of today's fills in the last snapshot judged: the figure moves with any of their insides
  // (which can go and come back between two reads at a high rate, as the marks above)
  let traded: string[] = [];
  const moved = (from: number, to: number) => traded.some((ticker) => markMoved(timeline, ticker, 'mid')?.(from, to) ?? false);
  return {
    key: 'risk|today pnl',
    panel: 'risk',
    cash: true,
    ...(timeline ? { movedBetween: moved } : {}),
    shown: num(shown),
    truth: (ex) => {
      const book = (ticker: string) => {
        const b = ex.books.get(ticker);
        if (!b) return undefined;
        const best = (levels: [string, string][]) => levels.reduce<Decimal | null>((m, [p]) => (m === null || new Decimal(p).gt(m) ? new Decimal(p) : m), null);
        const noBid = best(b.no);
        return { bid: best(b.yes), ask: noBid === null ? null : new Decimal(1).minus(noBid) };
      };
      const result = (ticker: string) => {
        const r = ex.markets.get(ticker)?.result;
        return r === 'yes' ? new Decimal(1) : r === 'no' ? ZERO : null;
      };
      traded = todayMarked(ex.fills, ex.at);
      const v = todayPnl(ex.fills, ex.at, book, result);
      return v === undefined ? undefined : num(v.toString());
    },
  };
}

export function pnlValues(s: Screen, timeline?: TickerTimeline): Shown[] {
  const out: Shown[] = [];
  if (s.positions) {
    const withFlat = s.positionsWithFlat;
    out.push({
      key: 'positions|tickers',
      panel: 'positions',
      exact: true,
      shown: JSON.stringify(s.positions.map((p) => p.ticker).sort()),
      truth: (ex) => JSON.stringify([...ex.positions].filter(([, p]) => withFlat || !new Decimal(p.position).isZero()).map(([t]) => t).sort()),
    });
    for (const p of s.positions) out.push(...rowValues(p, timeline));
  }
  if (s.pnlTotals) out.push(...totalValues(s.pnlTotals, timeline));
  if (s.todayPnl !== null) out.push(todayValue(s.todayPnl, timeline));
  return out;
}
