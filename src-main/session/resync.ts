// Snapshot requests for a stream sid whose books went wrong, backing off when one sid keeps
// needing them (an exchange that answers get_snapshot with a bad snapshot must not get a request
// per round trip): the first retry within a second waits 250 ms, doubling to 8 s; a quiet second
// resets it. Markets asked for while one is scheduled ride along with it.

interface SidState {
  last: number;
  delayMs: number;
  timer: NodeJS.Timeout | null;
  markets: Set<string>;
}

export class ResyncScheduler {
  private readonly sids = new Map<number, SidState>();

  /** `send(sid, markets)` asks the stream for snapshots (no markets: all of the sid's). */
  constructor(private readonly send: (sid: number, markets: string[]) => void) {}

  request(sid: number, markets: string[]): void {
    const now = Date.now();
    const st = this.sids.get(sid) ?? { last: 0, delayMs: 0, timer: null, markets: new Set<string>() };
    this.sids.set(sid, st);
    for (const m of markets) st.markets.add(m);
    if (markets.length === 0) st.markets.add('*');
    if (st.timer) return; // one is scheduled; it will carry these markets too
    st.delayMs = now - st.last < 1000 ? Math.min(8000, Math.max(250, st.delayMs * 2)) : 0;
    const go = () => {
      st.timer = null;
      st.last = Date.now();
      const list = st.markets.has('*') ? [] : [...st.markets];
      st.markets.clear();
      this.send(sid, list);
    };
    if (st.delayMs === 0) go();
    else st.timer = setTimeout(go, st.delayMs);
  }

  stop(): void {
    for (const st of this.sids.values()) if (st.timer) clearTimeout(st.timer);
  }
}
