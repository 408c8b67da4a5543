// A synthetic exchange stream for the feed benchmarks, run as its own process so that its work
// does not count against the event loop being measured. The first subscribe that names
// orderbook_delta gets snapshots of N markets and then deltas at a fixed total rate; other
// commands an empty ok. FEED_MID=1 puts the books around 0.50 (levels on both sides of the
// inside, as a ladder shows them); FEED_MARKER=1 sets, every 50 ms, the size of the first
// market's best bid (0.4999, or 0.49 with FEED_STEP=100; no random delta touches that level) to
// 50,000 + (send time mod 50,000 ms) contracts, so a page can read from the painted ladder how
// long a change took to reach the screen. FEED_TICKERS=a,b,c names the markets (markets of the
// catalog the terminal reads) instead of BENCH-0..N; FEED_STEP is the price step in 1/10,000 of a
// dollar (100: whole cents, valid at every market's tick). FEED_LIVE=1 also makes the market move
// as a trader sees it: trades (the `trade` channel, for the markets subscribed to it) at
// FEED_TRADE_RATE a second, and every market's inside quote, last price and volume on the
// `ticker` channel twice a second.
import { WebSocketServer } from 'ws';
import { dieWithParent } from './procs';

// a bench that dies (SIGKILL included) takes its feed with it
dieWithParent();

const rate = Number(process.env.FEED_RATE ?? 50_000);
const tickers = process.env.FEED_TICKERS ? process.env.FEED_TICKERS.split(',') : Array.from({ length: Number(process.env.FEED_MARKETS ?? 20) }, (_, i) => `BENCH-${i}`);
const markets = tickers.length;
const seconds = Number(process.env.FEED_SECONDS ?? 12);
const mid = process.env.FEED_MID === '1';
const marker = process.env.FEED_MARKER === '1';
const live = process.env.FEED_LIVE === '1';
const tradeRate = Number(process.env.FEED_TRADE_RATE ?? 40);
const step = Number(process.env.FEED_STEP ?? 1);
// yes bids at base..base+(span-1)*step; no bids the same (yes asks mirrored above 0.50 when mid);
// the marker's level is the one above them (the best bid)
const span = mid ? (step === 1 ? 99 : Math.min(30, Math.floor(4_800 / step))) : 180;
const base = mid ? 5_000 - step * (span + 1) : 4_000;
const MARK_KEY = base + step * span;

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
  // what a trader sees move besides the book: trades and the ticker
  let tradeSid = 0;
  let tickerSid = 0;
  const tradeMarkets = new Set<string>();
  const last = tickers.map(() => 5_000);
  const volume = tickers.map(() => 0);
  let tradeId = 0;
  const bestYesBid = (m: number): number => {
    let best = 0;
    for (const [k, v] of levels[m]!) if (k < 20_000 && v > 0 && k > best) best = k;
    return best;
  };
  const bestYesAsk = (m: number): number => {
    let best = 0;
    for (const [k, v] of levels[m]!) if (k >= 20_000 && v > 0 && k - 20_000 > best) best = k - 20_000;
    return best ? 10_000 - best : 10_000;
  };
  const dollars = (key: number) => (key / 10000).toFixed(4);
  const deltaFrame = (m: number, side: 'yes' | 'no', key: number, d: number) =>
    `{"type":"orderbook_delta","sid":${sid},"seq":${++seq},"msg":{"market_ticker":"${tickers[m]}","price_dollars":"${dollars(key)}","delta_fp":"${d}.00","side":"${side}","ts":"${ts}"}}`;
  // The generator's own economy (not the terminal's): each tick's frames leave in one socket
  // write, as a busy exchange's do, instead of a syscall per frame eating the cores under test.
  const socket = (ws as unknown as { _socket: import('node:net').Socket })._socket;
  ws.on('message', (data) => {
    const cmd = JSON.parse(data.toString()) as { id: number; cmd: string; params?: { channels?: string[]; sid?: number; market_tickers?: string[]; action?: string } };
    if (cmd.cmd !== 'subscribe') {
      if (cmd.cmd === 'update_subscription' && cmd.params?.sid === tradeSid && tradeSid) {
        for (const t of cmd.params.market_tickers ?? []) {
          if (cmd.params.action === 'delete_markets') tradeMarkets.delete(t);
          else tradeMarkets.add(t);
        }
      }
      ws.send(JSON.stringify({ id: cmd.id, type: 'ok', msg: [] }));
      return;
    }
    const channel = cmd.params?.channels?.[0] ?? 'orderbook_delta';
    if (channel !== 'orderbook_delta' || started) {
      const chSid = channel === 'orderbook_delta' ? sid : nextSid++;
      if (channel === 'trade') {
        tradeSid = chSid;
        for (const t of cmd.params?.market_tickers ?? []) tradeMarkets.add(t);
      }
      if (channel === 'ticker') tickerSid = chSid;
      ws.send(JSON.stringify({ id: cmd.id, type: 'subscribed', msg: { channel, sid: chSid } }));
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
    let trades = 0;
    let lastTicker = 0;
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
        const key = base + step * Math.floor(rnd() * span);
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
      if (live) liveTick(now);
    }, 5);
    const liveTick = (now: number) => {
      const secs = Math.floor(now / 1000);
      // trades: at the inside, on the markets the terminal watches
      const dueTrades = Math.floor((tradeRate * (now - t0)) / 1000);
      const watched = [...tradeMarkets].map((t) => tickers.indexOf(t)).filter((m) => m >= 0);
      for (; trades < dueTrades; trades++) {
        if (!tradeSid || watched.length === 0) continue;
        const m = watched[Math.floor(rnd() * watched.length)]!;
        const buy = rnd() < 0.5;
        const price = buy ? bestYesAsk(m) : bestYesBid(m) || base;
        const count = 1 + Math.floor(rnd() * 40);
        last[m] = price;
        volume[m]! += count;
        const msg = { trade_id: `feed-${++tradeId}`, market_ticker: tickers[m], yes_price_dollars: dollars(price), no_price_dollars: dollars(10_000 - price), count_fp: `${count}.00`, taker_side: buy ? 'yes' : 'no', ts: secs, ts_ms: now };
        ws.send(JSON.stringify({ type: 'trade', sid: tradeSid, msg }));
      }
      // the ticker: every market's inside quote twice a second
      if (tickerSid && now - lastTicker >= 500) {
        lastTicker = now;
        for (let m = 0; m < markets; m++) {
          const msg = { market_ticker: tickers[m], price_dollars: dollars(last[m]!), yes_bid_dollars: dollars(bestYesBid(m)), yes_ask_dollars: dollars(bestYesAsk(m)), volume_fp: `${volume[m]}.00`, open_interest_fp: `${Math.floor(volume[m]! / 2)}.00`, ts: secs, ts_ms: now };
          ws.send(JSON.stringify({ type: 'ticker', sid: tickerSid, msg }));
        }
      }
    };
  });
});
