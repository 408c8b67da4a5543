// A synthetic exchange stream for the main-feed benchmark, run as its own process so that its
// work does not count against the event loop being measured. It answers `subscribe` for
// orderbook_delta with snapshots of N markets, then sends deltas at a fixed total rate.
import { WebSocketServer } from 'ws';

const rate = Number(process.env.FEED_RATE ?? 50_000);
const markets = Number(process.env.FEED_MARKETS ?? 20);
const seconds = Number(process.env.FEED_SECONDS ?? 12);
const tickers = Array.from({ length: markets }, (_, i) => `BENCH-${i}`);

const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
wss.on('listening', () => {
  const addr = wss.address();
  if (addr && typeof addr === 'object') process.stdout.write(`feed on ${addr.port}\n`);
});

wss.on('connection', (ws) => {
  let seq = 0;
  const sid = 1;
  // each market keeps a level per price it touched so deltas never go below zero
  const levels = tickers.map(() => new Map<number, number>());
  let x = 12345;
  const rnd = () => ((x = (x * 1103515245 + 12345) % 2147483648) / 2147483648);
  ws.on('message', (data) => {
    const cmd = JSON.parse(data.toString()) as { id: number; cmd: string };
    if (cmd.cmd !== 'subscribe') {
      ws.send(JSON.stringify({ id: cmd.id, type: 'ok', msg: [] }));
      return;
    }
    ws.send(JSON.stringify({ id: cmd.id, type: 'subscribed', msg: { channel: 'orderbook_delta', sid } }));
    for (const t of tickers) {
      ws.send(JSON.stringify({ type: 'orderbook_snapshot', sid, seq: ++seq, msg: { market_ticker: t, yes_dollars_fp: [], no_dollars_fp: [] } }));
    }
    const started = Date.now();
    let sent = 0;
    const timer = setInterval(() => {
      if (Date.now() - started > seconds * 1000 || ws.readyState !== ws.OPEN) {
        clearInterval(timer);
        ws.close();
        return;
      }
      // send what is due by now, so timer drift does not lower the rate
      const due = Math.floor((rate * (Date.now() - started)) / 1000);
      for (; sent < due; sent++) {
        const m = Math.floor(rnd() * markets);
        const side = rnd() < 0.5 ? 'yes' : 'no';
        const key = (side === 'yes' ? 0 : 20000) + 4000 + Math.floor(rnd() * 180);
        const have = levels[m]!.get(key) ?? 0;
        const add = have === 0 || rnd() < 0.55;
        const d = add ? 1 + Math.floor(rnd() * 50) : -Math.min(have, 1 + Math.floor(rnd() * 50));
        levels[m]!.set(key, have + d);
        const price = ((key % 20000) / 10000).toFixed(4);
        const frame = `{"type":"orderbook_delta","sid":${sid},"seq":${++seq},"msg":{"market_ticker":"${tickers[m]}","price_dollars":"${price}","delta_fp":"${d}.00","side":"${side}","ts":"2026-11-21T00:00:00Z"}}`;
        ws.send(frame);
      }
    }, 5);
  });
});
