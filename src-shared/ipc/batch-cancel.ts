// What a multi-cancel (the blotter's selection, the ladder's "cancel my bids") answers: it goes
// out in batches the exchange's write bucket can take (a batch cancel costs 2 tokens an order,
// and one of 80 orders, 160 tokens, is refused whole by a bucket of 100), and each batch says
// how many it canceled and which failed and why.
import { plural } from '../text';

export interface CancelFailure {
  order_id: string;
  /** the exchange's code (`not_found`, `too_many_requests`, ...) or the terminal's */
  code: string;
  message: string;
}

export interface CancelBatchReport {
  /** orders in this batch */
  of: number;
  canceled: number;
  failed: CancelFailure[];
}

export interface BatchCancelResult {
  of: number;
  canceled: number;
  batches: CancelBatchReport[];
  /** every batch's failures, in order */
  failed: CancelFailure[];
}

/** "80 of 80 orders canceled (2 batches)"; with failures, which and why, a few named. */
export function describeBatchCancel(r: BatchCancelResult): string {
  const head = `${r.canceled} of ${plural(r.of, 'order')} canceled (${plural(r.batches.length, 'batch', 'batches')})`;
  if (r.failed.length === 0) return head;
  const byReason = new Map<string, string[]>();
  for (const f of r.failed) {
    const why = `${f.code}: ${f.message}`;
    byReason.set(why, [...(byReason.get(why) ?? []), f.order_id]);
  }
  const reasons = [...byReason].map(([why, ids]) => `${plural(ids.length, 'order')} (${ids.slice(0, 3).join(', ')}${ids.length > 3 ? ', ...' : ''}) ${why}`);
  const perBatch = r.batches.map((b, i) => `batch ${i + 1}: ${b.canceled} of ${b.of}`).join(', ');
  return `${head}; not canceled: ${reasons.join('; ')} [${perBatch}]`;
}
