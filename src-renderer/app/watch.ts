// Tells main which markets to stream: the selected one first, every link group's and pinned
// panel's, then the watchlist, then markets
// where I have resting orders or a position. At most 100; re-sent after a reconnect.
import { getTerminalApi } from '../lib/bridge';
import { privateStore } from '../stores/private';
import { useTrading } from '../stores/trading';
import { notify } from '../stores/notices';
import { errorText } from '../lib/errors';

const LIMIT = 100;
let last = '';
let timer: ReturnType<typeof setTimeout> | null = null;
/** when a list last went out to main */
let sentAt = Number.NEGATIVE_INFINITY;
/** whether the last list sent was refused or never reached main */
let failed = false;

function wanted(): string[] {
  const { ticker, watchlist, groups, pins } = useTrading.getState();
  const p = privateStore.getState();
  const set = new Set<string>();
  if (ticker) set.add(ticker);
  // every link group's market and every pinned panel's, so each ladder has its book
  for (const t of Object.values(groups)) if (t) set.add(t);
  for (const t of Object.values(pins)) set.add(t);
  for (const t of watchlist) set.add(t);
  for (const o of Object.values(p.orders)) if (o.status === 'resting') set.add(o.ticker);
  for (const pos of Object.values(p.positions)) if (pos.position !== '0' && !/^-?0(?:\.0+)?$/.test(pos.position)) set.add(pos.ticker);
  return [...set].slice(0, LIMIT);
}

function send(force: boolean) {
  const list = wanted();
  const key = list.join(',');
  if (!force && key === last) return;
  last = key;
  sentAt = Date.now();
  getTerminalApi()
    .watchMarkets(list)
    .then(() => {
      if (last === key) failed = false;
    })
    .catch((err: unknown) => {
      last = '';
      failed = true;
      notify('warning', 'Could not stream the selected markets', errorText(err));
    });
}

/** Bursts of watchlist, order and position changes go out together, 200 ms after the last. */
function schedule() {
  if (timer) clearTimeout(timer);
  timer = setTimeout(() => send(false), 200);
}

/**
 * The market the trader just chose (a click, a key, the start's first market): at once, with the
 * rest, unless a list went out less than 200 ms ago (arrow keys held down a list of markets): then
 * when those 200 ms are up, with the selection as it is then.
 */
function now() {
  if (timer) clearTimeout(timer);
  timer = null;
  const wait = sentAt + 200 - Date.now();
  if (wait <= 0) send(false);
  else timer = setTimeout(() => send(false), wait);
}

/** Whether the last list sent to main failed (it is sent again after the bridge opens). */
export function watchFailed(): boolean {
  return failed;
}

export function resendWatch(): void {
  send(true);
}

export function startWatching(): () => void {
  sentAt = Number.NEGATIVE_INFINITY;
  const offA = useTrading.subscribe((s, prev) => {
    // a new selection is what the trader waits to see: its ladder's book is asked for at once
    if (s.ticker !== prev.ticker && s.ticker) now();
    else if (s.ticker !== prev.ticker || s.watchlist !== prev.watchlist || s.groups !== prev.groups || s.pins !== prev.pins) schedule();
  });
  const offB = privateStore.subscribe((s, prev) => {
    if (s.orders !== prev.orders || s.positions !== prev.positions) schedule();
  });
  schedule();
  return () => {
    offA();
    offB();
    if (timer) clearTimeout(timer);
  };
}
