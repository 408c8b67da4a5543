// Test fixture for recorder.crash.test.ts: records a steady synthetic feed and prints every
// commit the store reports (`committed <rows> <lastN>`), until its parent kills it with SIGKILL.
import { Recorder } from './recorder';
import type { StreamRead } from '../../src-shared/wire/stream';

const dir = process.argv[2]!;
const rec = new Recorder({ dir, flushMs: 100 });
rec.onCommitted = (id, rows, lastN) => process.stdout.write(`committed ${id} ${rows} ${lastN}\n`);
await rec.start({ name: 'crash', markets: ['CRASH-A', 'CRASH-B'] });
let seq = 0;
setInterval(() => {
  for (let i = 0; i < 50; i++) {
    seq++;
    const m = {
      type: 'orderbook_delta',
      sid: 1,
      seq,
      msg: { market_ticker: seq % 2 ? 'CRASH-A' : 'CRASH-B', side: 'yes', price_dollars: '0.5200', delta_fp: seq % 3 ? '1.00' : '-1.00' },
    } as unknown as StreamRead;
    rec.onMessage(m);
  }
}, 5);
