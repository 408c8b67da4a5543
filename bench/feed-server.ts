// A synthetic exchange stream for the feed benchmarks, run as its own process so that its work
// does not count against the event loop being measured. The first subscribe that names
// orderbook_delta gets snapshots of N markets and then deltas at a fixed total rate; any other
// subscribe (the terminal's private and public channels) gets its own sid and no data, and
// other commands an empty ok. FEED_MID=1 puts the books around 0.50 (100 levels a side next to
// the inside, as a ladder shows them); FEED_MARKER=1 sets, every 50 ms, the size of BENCH-0's
// 0.4999 bid to 50,000 + (send time mod 50,000 ms) contracts, so a page can read from the
// painted ladder how long a change took to reach the screen.
import { WebSocketServer } from 'ws';
import { dieWithParent } from './procs';

// a bench that dies (SIGKILL included) takes its feed with it
dieWithParent();

const rate = Number(process.env.FEED_RATE ?? 50_000);
const markets = Number(process.env.FEED_MARKETS ?? 20);
const seconds = Number(process.env.FEED_SECONDS ?? 12);
const mid = process.env.FEED_MID === '1';
const marker = process.env.FEED_MARKER === '1';
const tickers = Array.from({ length: markets }, (_, i) => `BENCH-${i}`);
// yes bids at base..base+span-1 ticks; no bids the same (yes asks mirrored above 0.50 when mid)
const base = mid ? 4_900 : 4_000;
const span = mid ? 99 : 180;
const MARK_KEY = 4_999;

const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
wss.on('listening', () => {
  const addr = wss.address();
  if (addr && typeof addr === 'object') process.stdout.write(`feed on ${addr.port}\n`);
});

wss.on('connection', (ws) => {
  let seq = 0;
  let nextSid = 2;
  let started = false;
  const sid = 1;
  // each market keeps a level per price it touched so deltas never go below zero
  const levels = tickers.map(() => new Map<number, number>());
  let x = 12345;
  const rnd = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  let ts = new Date().toISOString();
  const deltaFrame = (m: number, side: 'yes' | 'no', key: number, d: number) =>
    `{"type":"orderbook_delta","sid":${sid},"seq":${++seq},"msg":{"market_ticker":"${tickers[m]}","price_dollars":"${(key / 10000).toFixed(4)}","delta_fp":"${d}.00","side":"${side}","ts":"${ts}"}}`;
  // The generator's own economy (not the terminal's): each tick's frames leave in one socket
  // write, as a busy exchange's do, instead of a syscall per frame eating the cores under test.
  const socket = (ws as unknown as { _socket: import('node:net').Socket })._socket;
  ws.on('message', (data) => {
    const cmd = JSON.parse(data.toString()) as { id: number; cmd: string; params?: { channels?: string[] } };
    if (cmd.cmd !== 'subscribe') {
      ws.send(JSON.stringify({ id: cmd.id, type: 'ok', msg: [] }));
      return;
    }
    const channel = cmd.params?.channels?.[0] ?? 'orderbook_delta';
    if (channel !== 'orderbook_delta' || started) {
      ws.send(JSON.stringify({ id: cmd.id, type: 'subscribed', msg: { channel, sid: channel === 'orderbook_delta' ? sid : nextSid++ } }));
      return;
    }
    started = true;
    ws.send(JSON.stringify({ id: cmd.id, type: 'subscribed', msg: { channel: 'orderbook_delta', sid } }));
    for (const t of tickers) {
      ws.send(JSON.stringify({ type: 'orderbook_snapshot', sid, seq: ++seq, msg: { market_ticker: t, yes_dollars_fp: [], no_dollars_fp: [] } }));
    }
    const t0 = Date.now();
    let sent = 0;
    let lastMark = 0;
    const timer = setInterval(() => {
      if (Date.now() - t0 > seconds * 1000 || ws.readyState !== ws.OPEN) {
        clearInterval(timer);
        ws.close();
        return;
      }
      // send what is due by now, so timer drift does not lower the rate
      const due = Math.floor((rate * (Date.now() - t0)) / 1000);
      ts = new Date().toISOString();
      socket.cork();
      process.nextTick(() => socket.uncork());
      for (; sent < due; sent++) {
        const m = Math.floor(rnd() * markets);
        const side = rnd() < 0.5 ? 'yes' : 'no';
        const key = base + Math.floor(rnd() * span);
        const mapKey = (side === 'yes' ? 0 : 20000) + key;
        const have = levels[m]!.get(mapKey) ?? 0;
        const add = have === 0 || rnd() < 0.55;
        const d = add ? 1 + Math.floor(rnd() * 50) : -Math.min(have, 1 + Math.floor(rnd() * 50));
        levels[m]!.set(mapKey, have + d);
        ws.send(deltaFrame(m, side, key, d));
      }
      const now = Date.now();
      if (marker && now - lastMark >= 50) {
        lastMark = now;
        const target = 50_000 + (now % 50_000);
        const have = levels[0]!.get(MARK_KEY) ?? 0;
        if (target !== have) {
          levels[0]!.set(MARK_KEY, target);
          ws.send(deltaFrame(0, 'yes', MARK_KEY, target - have));
        }
      }
    }, 5);
  });
});
