// The display-truth run: a terminal on the embedded exchange, a trader at work (session.ts), and
// the screen sampled against the exchange's own state (screen.ts, exchange.ts) by the judge.
import type { Page } from '@playwright/test';
import { openTerminal, restAs, selectLivelyMarket } from '../helpers';
import type { Terminal } from '../fixtures';
import { readExchange, type ExchangeSnapshot } from './exchange';
import { Judge } from './judge';
import { installFrameCounter, readScreen, type Screen } from './screen';
import { trade } from './session';
import { TickerTimeline } from './timeline';

export interface TruthOptions {
  /** how long to sample */
  ms: number;
  /** time between samples (each sample reads the exchange: its rate limits bound this) */
  intervalMs?: number;
  log?: (line: string) => void;
}

const tickersOf = (s: Screen | null) => ({
  books: [...new Set([...(s?.ladders.map((l) => l.ticker) ?? []), ...(s?.positions?.map((p) => p.ticker) ?? [])])],
  trades: s?.tape ? [s.tape.ticker] : [],
  // every market a price is shown for: its price grid is read with it (the tick check)
  markets: [...new Set([...(s?.markets?.map((m) => m.ticker) ?? []), ...(s?.positions?.map((p) => p.ticker) ?? []), ...(s?.ladders.map((l) => l.ticker) ?? []), ...(s?.tape ? [s.tape.ticker] : []), ...(s?.resting?.map((r) => r.ticker) ?? [])])],
});

export async function runTruth(page: Page, terminal: Terminal, opts: TruthOptions): Promise<{ judge: Judge; steps: string[]; samples: number }> {
  const pub = restAs(terminal, 'counterparty');
  const trader = restAs(terminal, 'trader');
  await openTerminal(page, terminal);
  const ticker = await selectLivelyMarket(page);
  await installFrameCounter(page);
  opts.log?.(`trading ${ticker}`);
  const creds = terminal.credentials();
  const cp = creds.accounts.find((a) => a.name === 'counterparty')!;
  const timeline = await TickerTimeline.open(creds.ws_url, { keyId: cp.api_key_id, privateKeyPem: cp.private_key_pem });
  const judge = new Judge(timeline);
  const end = Date.now() + opts.ms;
  const interval = opts.intervalMs ?? 300;
  let stop = false;
  const trader$ = trade(page, terminal, () => stop || Date.now() >= end);
  let samples = 0;
  try {
    let screen: Screen | null = await readScreen(page);
    let before: ExchangeSnapshot = await readExchange(pub, trader, tickersOf(screen));
    let lastLog = Date.now();
    while (Date.now() < end) {
      const started = Date.now();
      screen = await readScreen(page);
      const at = Date.now();
      timeline.watchBooks(screen.ladders.map((l) => l.ticker));
      // the tape's market may be new: read its trades from now on
      const after = await readExchange(pub, trader, tickersOf(screen));
      judge.sample(screen, at, before, after);
      before = after;
      samples++;
      if (Date.now() - lastLog > 30_000) {
        lastLog = Date.now();
        opts.log?.(`${samples} samples, ${judge.totalWrong()} wrong so far`);
      }
      const rest = interval - (Date.now() - started);
      if (rest > 0) await new Promise((r) => setTimeout(r, rest));
    }
  } finally {
    stop = true;
    timeline.close();
    await trader$.catch(() => undefined);
  }
  const steps = await trader$;
  return { judge, steps, samples };
}
