// A synthetic recording for tests and the replay benchmark: per market a book around a drifting
// mid, level changes (adds and cancels) and trades at the inside with the decrease each causes,
// in the recorder's row format. Seeded, so every run replays the same flow.
import { mulberry32 } from '../../src-shared/random';
import type { TapeRows } from './tape';

export function syntheticRows(o: { markets: number; rows: number; seed: number; rowsPerSecond: number }): TapeRows & { n: number } {
  const rnd = mulberry32(o.seed);
  const ts: number[] = [];
  const kind: string[] = [];
  const market: string[] = [];
  const side: (string | null)[] = [];
  const price: (string | null)[] = [];
  const size: (string | null)[] = [];
  const dollars = (ticks: number) => (ticks / 10_000).toFixed(4);
  const push = (t: number, k: string, m: string, s: string | null, p: string | null, q: string | null) => {
    ts.push(t);
    kind.push(k);
    market.push(m);
    side.push(s);
    price.push(p);
    size.push(q);
  };
  const books = Array.from({ length: o.markets }, () => ({ mid: 5000, yes: new Map<number, number>(), no: new Map<number, number>() }));
  let t = 1_764_000_000_000_000;
  const step = 1_000_000 / o.rowsPerSecond;
  for (let m = 0; m < o.markets; m++) {
    const b = books[m]!;
    push(t, 'snapshot', `SYN-${m}`, null, null, null);
    for (let k = 1; k <= 5; k++) {
      b.yes.set(b.mid - k * 100, 1000);
      b.no.set(10_000 - b.mid - k * 100, 1000);
      push(t, 'level', `SYN-${m}`, 'yes', dollars(b.mid - k * 100), '10.00');
      push(t, 'level', `SYN-${m}`, 'no', dollars(10_000 - b.mid - k * 100), '10.00');
    }
  }
  while (ts.length < o.rows) {
    t += step;
    const m = Math.floor(rnd() * o.markets);
    const b = books[m]!;
    const name = `SYN-${m}`;
    const yes = rnd() < 0.5;
    const levels = yes ? b.yes : b.no;
    const best = Math.max(...levels.keys());
    const r = rnd();
    if (r < 0.1 && (levels.get(best) ?? 0) > 100) {
      // a trade at the inside and the decrease it caused
      const q = 100 * (1 + Math.floor(rnd() * Math.min(5, (levels.get(best)! - 1) / 100)));
      levels.set(best, levels.get(best)! - q);
      push(t, 'delta', name, yes ? 'yes' : 'no', dollars(best), (-q / 100).toFixed(2));
      push(t, 'trade', name, yes ? 'no' : 'yes', dollars(yes ? best : 10_000 - best), (q / 100).toFixed(2));
    } else {
      const p = best - 100 * Math.floor(rnd() * 4) + (rnd() < 0.1 ? 100 : 0);
      if (p <= 0 || p >= 10_000 || (yes ? p + Math.max(...b.no.keys()) : p + Math.max(...b.yes.keys())) >= 10_000) continue;
      const cur = levels.get(p) ?? 0;
      const d = rnd() < 0.55 || cur < 200 ? 100 * (1 + Math.floor(rnd() * 5)) : -100 * (1 + Math.floor(rnd() * Math.min(4, cur / 100 - 1)));
      levels.set(p, cur + d);
      push(t, 'delta', name, yes ? 'yes' : 'no', dollars(p), (d / 100).toFixed(2));
    }
  }
  return { ts, kind, market, side, price, size, n: ts.length };
}
