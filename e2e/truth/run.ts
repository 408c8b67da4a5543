// The display-truth run: a terminal on the embedded exchange, a trader at work (session.ts), and
// the screen sampled against the exchange's own state (screen.ts, exchange.ts) by the judge.
import type { Page } from '@playwright/test';
import { openHeatmap, openTerminal, restAs } from '../helpers';
import type { Terminal } from '../fixtures';
import { readExchange, type ExchangeSnapshot } from './exchange';
import { Judge } from './judge';
import { installFrameCounter, readScreen, type Screen } from './screen';
import { openLivelyMarket } from './select';
import { SCRIPT, trade } from './session';
import { TickerTimeline } from './timeline';
import { SettlementLeg } from './settle';
import { Health, installLongTasks, type Doing } from './health';
import type { Panel } from './figures';

export interface TruthOptions {
  /** how long to sample */
  ms: number;
  /** time between samples (each sample reads the exchange: its rate limits bound this) */
  intervalMs?: number;
  /**
   * After `ms`, how long the run may go on until every panel has been judged and the trader has
   * been through the whole script once (a slow machine gets there later; the run waits for it
   * rather than judging less). The spec fails on what is still missing when this is spent too.
   */
  graceMs?: number;
  /** never sample past this moment (ms since epoch): the test's own time limit, less what the report needs */
  stopBy?: number;
  /** hold a position through a settlement (settle.ts; the exchange runs a short market cycle) and judge it */
  settle?: boolean;
  log?: (line: string) => void;
}

/** The panels no value of which was judged yet. */
const unjudged = (judge: Judge): Panel[] => [...judge.report].filter(([, r]) => r.values === 0).map(([p]) => p);

/** What the run still waits for: panels never judged, and whether the script has gone round once. */
export function missing(judge: Judge, steps: readonly string[], leg?: SettlementLeg | null): string[] {
  const out = unjudged(judge).map((p) => `${p} never judged`);
  if (steps.length < SCRIPT.length) out.push(`the script's ${SCRIPT.length} steps not all done (${steps.length})`);
  if (leg) out.push(...leg.missing(judge));
  return out;
}

// `traded`: every market the trader holds or traded (its book marks today's P&L and the totals)
const tickersOf = (s: Screen | null, traded: readonly string[] = []) => ({
  books: [...new Set([...(s?.ladders.map((l) => l.ticker) ?? []), ...(s?.heatmap ? [s.heatmap.ticker] : []), ...(s?.positions?.map((p) => p.ticker) ?? []), ...traded])],
  trades: s?.tape ? [s.tape.ticker] : [],
  // every market a price is shown for: its price grid is read with it (the tick check)
  markets: [...new Set([...traded, ...(s?.markets?.map((m) => m.ticker) ?? []), ...(s?.positions?.map((p) => p.ticker) ?? []), ...(s?.ladders.map((l) => l.ticker) ?? []), ...(s?.tape ? [s.tape.ticker] : []), ...(s?.resting?.map((r) => r.ticker) ?? [])])],
});

export async function runTruth(page: Page, terminal: Terminal, opts: TruthOptions): Promise<{ judge: Judge; steps: string[]; samples: number; leg: SettlementLeg | null; health: string[] }> {
  const pub = restAs(terminal, 'counterparty');
  const trader = restAs(terminal, 'trader');
  await openTerminal(page, terminal);
  const ticker = await openLivelyMarket(page);
  // the depth heatmap beside the chart, linked to the ladder's market: its newest column is judged too
  await openHeatmap(page);
  await installFrameCounter(page);
  await installLongTasks(page);
  opts.log?.(`trading ${ticker}`);
  const creds = terminal.credentials();
  const cp = creds.accounts.find((a) => a.name === 'counterparty')!;
  const timeline = await TickerTimeline.open(creds.ws_url, { keyId: cp.api_key_id, privateKeyPem: cp.private_key_pem });
  const judge = new Judge(timeline);
  const leg = opts.settle ? new SettlementLeg(trader, opts.log) : null;
  const end = Date.now() + opts.ms;
  const hardEnd = Math.min(end + (opts.graceMs ?? 600_000), opts.stopBy ?? Infinity);
  const interval = opts.intervalMs ?? 300;
  let stop = false;
  const done: string[] = [];
  const doing: Doing = { step: '(not started)', since: Date.now() };
  const health = new Health(doing);
  // once the time asked for is over: the panels never judged yet, for the trader to hold in view
  const needs = () => (Date.now() < end ? [] : unjudged(judge));
  const trader$ = trade(page, terminal, () => stop || Date.now() >= hardEnd, undefined, done, doing, needs);
  let samples = 0;
  let waitLogged = false;
  // the time asked for, then until every panel was judged and the script went round (bounded)
  const goOn = () => {
    const now = Date.now();
    if (now < end) return true;
    if (now >= hardEnd) return false;
    const left = missing(judge, done, leg);
    if (left.length && !waitLogged) {
      waitLogged = true;
      opts.log?.(`time is up; going on until: ${left.join(', ')}`);
    }
    return left.length > 0;
  };
  try {
    let screen: Screen | null = await readScreen(page);
    let before: ExchangeSnapshot = await readExchange(pub, trader, tickersOf(screen));
    await health.line(page, 0, 0, true);
    while (goOn()) {
      const started = Date.now();
      screen = await readScreen(page);
      const at = Date.now();
      timeline.watchBooks([...screen.ladders.map((l) => l.ticker), ...(screen.heatmap ? [screen.heatmap.ticker] : [])]);
      // the tape's market may be new: read its trades from now on
      const after = await readExchange(pub, trader, tickersOf(screen, [...before.ledger.keys()]));
      health.note(at - started, Date.now() - at);
      judge.sample(screen, at, before, after);
      before = after;
      // a refused or failed try (a rate limit) is tried again after the next sample
      await leg?.step(after).catch((e: unknown) => opts.log?.(`settlement leg: ${(e as Error).message.split('\n')[0]}`));
      samples++;
      const line = await health.line(page, samples, judge.totalWrong());
      if (line) {
        // the wrong values as they are found (a run cut short still says which)
        const seen = [...judge.report].flatMap(([p, r]) => r.examples.map((e) => `${p}: ${e}`));
        opts.log?.(`${line}${seen.length ? `:\n  ${seen.join('\n  ')}` : ''}`);
      }
      // the page is left to itself at least as long as reading it took: on a starved page the
      // reads alone would otherwise fill its main thread, and the trader's keys and the host's
      // answers would wait behind them
      const rest = Math.max(interval - (Date.now() - started), at - started);
      if (rest > 0) await new Promise((r) => setTimeout(r, rest));
    }
  } finally {
    stop = true;
    timeline.close();
    await trader$.catch(() => undefined);
  }
  const steps = await trader$;
  await health.line(page, samples, judge.totalWrong(), true);
  return { judge, steps, samples, leg, health: health.lines };
}
