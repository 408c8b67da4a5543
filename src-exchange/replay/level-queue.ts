// A level of the exchange's book where the trader's orders rest, held in memory while a replay
// step changes it row by row: runs of the replay's size and of others' (the trader's) in queue
// order. The arithmetic is reconcile's (exchange-replay.ts): new recorded size queues behind
// everyone; a decrease is taken from the replay's size ahead of the first other order and from
// the replay's size behind it pro rata (where canceled orders stood is not recorded), newest
// first. Only the result is sent to the engine, when something is about to meet the level.

/** A run of the queue at a level: the replay's orders, or others', oldest first. */
export interface Seg {
  replay: boolean;
  /** size as the recording has it now (the replay's), or as the engine holds it (others') */
  size: number;
  /** the replay's orders in the run as the engine holds them */
  orders: { id: string; left: number }[];
}

/** A level's queue (first in line first) as runs of the replay's orders and others'. */
export function readSegs(queue: readonly { orderId: string; userId: string; remaining: number }[], replayUser: string): Seg[] {
  const segs: Seg[] = [];
  for (const q of queue) {
    const replay = q.userId === replayUser;
    let last = segs[segs.length - 1];
    if (!last || last.replay !== replay) segs.push((last = { replay, size: 0, orders: [] }));
    last.size += q.remaining;
    if (replay) last.orders.push({ id: q.orderId, left: q.remaining });
  }
  return segs;
}

/** Sets the replay's size in the queue to `target`: grown at the back, or cut ahead and behind pro rata, newest first. */
export function setReplaySize(segs: Seg[], target: number): void {
  let now = 0;
  for (const s of segs) if (s.replay) now += s.size;
  if (target > now) {
    const last = segs[segs.length - 1];
    if (last?.replay) last.size += target - now;
    else segs.push({ replay: true, size: target - now, orders: [] });
    return;
  }
  if (target >= now) return;
  const by = now - target;
  // ahead: the replay's size before anyone else's (all of it when no one else is here)
  const others = segs.some((s) => !s.replay);
  const ahead = !others ? now : segs[0]!.replay ? segs[0]!.size : 0;
  let cutAhead = Math.min(ahead, Math.floor((by * ahead) / now));
  let cutBehind = Math.min(now - ahead, by - cutAhead);
  cutAhead = by - cutBehind;
  for (let i = segs.length - 1; i >= 0; i--) {
    const s = segs[i]!;
    if (!s.replay) continue;
    const isAhead = i === 0 || !others;
    const c = Math.min(s.size, isAhead ? cutAhead : cutBehind);
    s.size -= c;
    if (isAhead) cutAhead -= c;
    else cutBehind -= c;
  }
}
