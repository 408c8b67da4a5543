// Keypress to painted ack: B on the ladder (join the bid) in Debian Chromium through the web host,
// until the ladder's foot paints "Resting 1", against a plain signed REST create on the same
// embedded exchange from this process (the same order: one contract at the same market's best
// bid), in the same run, interleaved, each call after a pause that lets the account's shared write
// bucket refill. Goal: p50 within a frame (16.7 ms) of the raw call's p50 and p95 within two
// (33 ms) of its p95. Prints where the time goes hop by hop on one clock: the page's marks (key,
// frame sent, push and result received, the count's DOM change, the next animation frame) and
// main's (the host's frame in, door, gate, send, HTTP answer, store, push: src-main/session/ack-trace.ts)
// as wall-clock milliseconds, and the slowest samples hop by hop.
import { createPrivateKey, sign, constants } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright';
import { startTerminal } from '../src-main/app/terminal';
import { startHost, type RunningHost } from '../src-main/host/server';
import { FileKeyBox } from '../src-main/vault/secret-box';
import { AuditJournal } from '../src-main/audit/journal';
import { createApiClient } from '../src-main/api/client';
import { resolveProfile } from '../src-main/api/profiles';
import { RateLimiter, seedLimiter } from '../src-main/api/limiter';
import { figure, median, percentile, scaled } from './lib';
import { buildBundles } from './procs';
import { ackTrace } from '../src-main/session/ack-trace';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const staticDir = path.join(root, 'out', 'renderer');
const SAMPLES = scaled(60, 20, 5);
/** the pause before each measured call, for the shared write bucket to refill */
const PACE_MS = Number(process.env.BENCH_ACK_PACE_MS ?? 400);
const chromiumArgs = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

type Door = (m: string, a: unknown[]) => Promise<{ ok: boolean; value?: unknown; error?: { message: string } }>;
async function call<T>(door: Door, method: string, ...args: unknown[]): Promise<T> {
  const r = await door(method, args);
  if (!r.ok) throw new Error(`${method}: ${r.error?.message}`);
  return r.value as T;
}

const stats = (xs: number[]) => (xs.length ? `p50 ${percentile(xs, 50).toFixed(1)} ms, p95 ${percentile(xs, 95).toFixed(1)} ms` : 'no samples');
/** wall-clock ms with a fraction: the page and main stamp their marks on the same clock */
const wall = () => performance.timeOrigin + performance.now();

/** The page's marks of one sample (wall-clock ms; 0: not seen). */
interface PageMarks {
  key: number;
  sent: number;
  pushIn: number;
  resultIn: number;
  result: number;
  commit: number;
  frame: number;
}
/** Main's marks of one sample: the host's door wrapper, the push and the trace's marks (src-main/session/ack-trace.ts). */
type MainMarks = Record<string, number>;

/**
 * The hops of one sample on the way from the key to the painted count, in order; each is the time
 * from the mark before it (main's and the page's marks on the same clock).
 */
const HOPS: [string, string, string][] = [
  ['key', 'sent', "page: key down -> placeOrder frame sent (keymap, command, ticket check)"],
  ['sent', 'frameIn', "hop page -> main: the socket, main's loop, the host's frame parse"],
  ['frameIn', 'door', "main: the door's zod parse of the draft -> the trading service"],
  ['door', 'gated', 'main: the risk gate (state, limits, reservation)'],
  ['gated', 'send', 'main: in-flight entry, rate-limit tokens, RSA-PSS signing, kill-switch check'],
  ['send', 'answered', "HTTP create: the exchange's answer, read and parsed"],
  ['answered', 'stored', 'main: the answer into the private store'],
  ['stored', 'pushed', "main: the push (coalescer flush: views, JSON, the socket's send)"],
  ['pushed', 'pushIn', 'hop main -> page: the push reaches the page (its socket, its loop)'],
  ['pushIn', 'commit', 'page: the store update and React commit of the foot'],
  ['commit', 'frame', 'page: commit -> the next animation frame (the paint)'],
];
/** Off the critical path, for the record. */
const ASIDE: [string, string, string][] = [
  ['pushed', 'settled', 'main: after the push: reservation settled, status bar view'],
  ['settled', 'doorOut', "main: the door's answer out of the service"],
  ['doorOut', 'resultIn', 'hop main -> page: the result reaches the page'],
  ['resultIn', 'result', "page: the app's handling of the result (toast, microtasks)"],
];

const started = performance.now();
const step = (what: string) => console.log(`  [${((performance.now() - started) / 1000).toFixed(1)} s] ${what}`);

async function main(): Promise<void> {
  await buildBundles({ host: false });
  step('renderer built');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-ack-'));
  const auditMs: number[] = [];
  // the audit journal's write and sync: queued by the call, written in one group commit in main's
  // next turn (after the answer has gone), where it holds main's event loop
  const proto = AuditJournal.prototype as unknown as { write(profileId: string, lines: string[]): void };
  const write = proto.write;
  proto.write = function (this: AuditJournal, profileId: string, lines: string[]) {
    const t0 = performance.now();
    write.call(this, profileId, lines);
    if (tracking) auditMs.push(performance.now() - t0);
  };
  // the signed create's fetch alone (this process's, which the session uses), inside send -> answered
  const realFetch = globalThis.fetch;
  const fetchMs: number[] = [];
  globalThis.fetch = (async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const isCreate = init?.method === 'POST' && /\/portfolio\/events\/orders$/.test(new URL(url).pathname);
    const t0 = performance.now();
    const res = await realFetch(input, init);
    if (isCreate && tracking) fetchMs.push(performance.now() - t0);
    return res;
  }) as typeof fetch;
  let tracking = false;
  let main: MainMarks = {};
  let ladderTicker = '';
  let host: RunningHost | null = null;
  const terminal = await startTerminal({
    dataDir,
    box: new FileKeyBox(dataDir),
    shell: 'web',
    emit: (s, p) => {
      host?.broadcast(s, p);
      // the first push of the resting order after the key, once it is on the socket
      if (tracking && s === 'private' && main.frameIn && !main.pushEmit) {
        const text = JSON.stringify(p);
        if (text.includes(`"${ladderTicker}"`) && text.includes('"status":"resting"')) main.pushEmit = wall();
      }
    },
    exchange: { command: process.execPath, args: ['--import', 'tsx', path.join(root, 'src-exchange', 'cli.ts')], seed: 5, sim: false },
  });
  const door: Door = async (m, a) => {
    if (m !== 'placeOrder' || !tracking) return terminal.door(m, a) as ReturnType<Door>;
    main = { frameIn: wall() };
    ackTrace.take();
    const r = (await terminal.door(m, a)) as Awaited<ReturnType<Door>>;
    main.doorOut = wall();
    return r;
  };
  ackTrace.on = true;
  step('terminal and exchange started');
  host = await startHost({ staticDir, door: door as typeof terminal.door });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs });
  try {
    await call(terminal.door, 'saveRiskLimits', { ...(await call<{ limits: Record<string, unknown> }>(terminal.door, 'getRisk')).limits, duplicateWindowMs: 0 });
    const markets = (await call<{ markets: { ticker: string; yes_bid_dollars?: string }[] }>(terminal.door, 'request', { id: 'getMarkets', query: { status: 'open', limit: 100 } })).markets;
    const bidOf = (m: { yes_bid_dollars?: string }) => Number(m.yes_bid_dollars ?? 0);
    const withBids = markets.filter((m) => bidOf(m) >= 0.05 && bidOf(m) <= 0.9).sort((a, b) => bidOf(b) - bidOf(a));
    ladderTicker = withBids[0]!.ticker;
    // the raw call joins the same bid of the same market (the same work at the exchange, the same stream fan-out)
    const bid = Number(withBids[0]!.yes_bid_dollars).toFixed(2);

    // the plain signed REST create: the trader's own key, straight to the exchange
    const trader = terminal.exchange!.accounts[0]!;
    const rawLimiter = new RateLimiter();
    const raw = createApiClient({ profile: resolveProfile({ kind: 'custom', name: 'raw', baseUrl: terminal.exchange!.baseUrl, wsUrl: terminal.exchange!.wsUrl, headerPrefix: 'SVC-' }), credentials: { keyId: trader.api_key_id, privateKeyPem: trader.private_key_pem! }, limiter: rawLimiter });
    await seedLimiter(raw, rawLimiter).catch(() => undefined);
    // signing alone (RSA-PSS with the same key), for the trace
    const key = createPrivateKey(trader.private_key_pem!);
    const signMs: number[] = [];
    for (let i = 0; i < 30; i++) {
      const t0 = performance.now();
      sign('sha256', Buffer.from(`${Date.now()}POST/trade-api/v2/portfolio/events/orders`), { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 });
      signMs.push(performance.now() - t0);
    }

    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    await page.addInitScript({ content: 'window.__name = (f) => f;' });
    await page.addInitScript((t: string) => {
      let id: number | null = null;
      localStorage.setItem('terminal.selectedMarket', JSON.stringify(t));
      // the page's marks on the wall clock: key down, the placeOrder frame sent, its result and the
      // order's push received. resultIn / pushIn: when the frame reached the page (a listener added
      // before the app's own); result: after the app's handlers (and their microtasks) have run
      const wall = () => performance.timeOrigin + performance.now();
      type Marks = { key: number; sent: number; result: number; resultIn: number; pushIn: number; commit: number; frame: number };
      const w = window as unknown as { __ack: Marks };
      const fresh = (key: number): Marks => ({ key, sent: 0, result: 0, resultIn: 0, pushIn: 0, commit: 0, frame: 0 });
      w.__ack = fresh(0);
      window.addEventListener('keydown', (e) => {
        if (e.key === 'b') {
          w.__ack = fresh(performance.timeOrigin + e.timeStamp);
          performance.mark('ack-key');
        }
      }, true);
      const isResult = (text: string) => id !== null && text.startsWith('{"t":"result"') && text.includes(`"id":${id},`);
      const isPush = (text: string) => w.__ack.sent > 0 && text.includes('"private"') && text.includes('"resting"') && text.includes(t);
      const Native = window.WebSocket;
      window.WebSocket = class extends Native {
        constructor(url: string | URL, protocols?: string | string[]) {
          super(url, protocols);
          this.addEventListener('message', (ev: MessageEvent) => {
            const text = typeof ev.data === 'string' ? ev.data : '';
            if (!w.__ack.resultIn && isResult(text)) {
              w.__ack.resultIn = wall();
              performance.mark('ack-result-in');
            } else if (!w.__ack.pushIn && isPush(text)) {
              w.__ack.pushIn = wall();
              performance.mark('ack-push-in');
            }
          });
        }
      };
      const send = WebSocket.prototype.send;
      const hooked = new WeakSet<WebSocket>();
      WebSocket.prototype.send = function (this: WebSocket, data: string | ArrayBufferLike | Blob | ArrayBufferView) {
        if (typeof data === 'string' && data.includes('"placeOrder"')) {
          w.__ack.sent = wall();
          id = (JSON.parse(data) as { id: number }).id;
        }
        if (!hooked.has(this)) {
          hooked.add(this);
          this.addEventListener('message', (ev: MessageEvent) => {
            const text = typeof ev.data === 'string' ? ev.data : '';
            if (!w.__ack.result && isResult(text)) queueMicrotask(() => (w.__ack.result = wall()));
          });
        }
        return send.call(this, data);
      };
    }, ladderTicker);
    step(`browser up; ladder market ${ladderTicker}`);
    await page.goto(host.url);
    step('page loaded; waiting for the ladder to show sizes');
    const foot = page.locator('[data-panel="ladder"] .ladder-foot').first();
    await page.waitForFunction(() => [...document.querySelectorAll('[data-panel="ladder"] [data-cell="bid"] .qty')].some((q) => (q.textContent ?? '') !== ''), undefined, { timeout: 180_000 }); // a slow machine's first book is waited for, not failed
    step('the ladder shows sizes');
    const ladder = page.locator('[data-panel="ladder"] [role="grid"]').first();
    await ladder.focus();
    await page.keyboard.press('c');
    await page.keyboard.press('1');
    await page.keyboard.press('Enter'); // in the ladder digits type the size; Enter sets it

    const rawMs: number[] = [];
    const termMs: number[] = [];
    const samples: Record<string, number>[] = [];
    let raw429 = 0;
    let terminal429 = 0;
    const resting = async () => Number((await foot.locator('[data-resting]').textContent()) ?? -1);
    const clear = async () => {
      await call(terminal.door, 'cancelAll', { ticker: ladderTicker });
      await page.waitForFunction(() => document.querySelector('[data-panel="ladder"] .ladder-foot [data-resting]')?.textContent === '0', undefined, { timeout: 180_000 });
    };
    await clear();
    step('ready; sampling');
    // BENCH_ACK_TRACE=<file.json>: a Chromium timeline trace of the sampling (where the page's time goes)
    // BENCH_ACK_PROF=<file.cpuprofile>: the page's JS profile of the sampling (CDP), with the samples' marks beside it
    let profAnchor = 0;
    const prof = process.env.BENCH_ACK_PROF ? await page.context().newCDPSession(page) : null;
    if (prof) {
      await prof.send('Profiler.enable');
      await prof.send('Profiler.setSamplingInterval', { interval: 100 });
      await prof.send('Profiler.start');
    }
    if (process.env.BENCH_ACK_TRACE) await browser.startTracing(page, { path: process.env.BENCH_ACK_TRACE, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'disabled-by-default-devtools.timeline.stack', 'v8.execute', 'blink.user_timing'] });
    for (let i = 0; i < SAMPLES + 3; i++) {
      const warm = i < 3;
      // the raw client and the terminal share the account's write bucket at the exchange (100
      // tokens a second on the embedded exchange's tier; a sample spends about 40): each measured
      // call starts with the bucket refilled, so neither waits out a 429's backoff
      await new Promise((r) => setTimeout(r, PACE_MS));
      // the raw call: the same order (1 at the best bid of the ladder's market), then canceled
      // the raw client and the terminal share the account's write bucket at the exchange: a 429 is
      // waited out and that sample not counted (its time is the bucket's, not the call's)
      let t0 = performance.now();
      let retried = false;
      let created: { order_id: string } | undefined;
      for (let tries = 0; !created; tries++) {
        try {
          created = await raw.createOrder({ body: { ticker: ladderTicker, side: 'bid', price: bid, count: '1' } });
        } catch (e) {
          if ((e as { status?: number }).status !== 429 || tries >= 30) throw e;
          retried = true;
          await new Promise((r) => setTimeout(r, 1000));
          t0 = performance.now();
        }
      }
      if (!warm && !retried) rawMs.push(performance.now() - t0);
      if (!warm && retried) raw429++;
      for (let tries = 0; ; tries++) {
        try {
          await raw.cancelOrder({ params: { order_id: created.order_id }, query: {} });
          break;
        } catch (e) {
          if ((e as { status?: number }).status !== 429 || tries >= 30) throw e;
          await new Promise((r) => setTimeout(r, 1000));
        }
      }
      await clear();

      await new Promise((r) => setTimeout(r, PACE_MS));
      // the terminal: B on the ladder until the foot paints "Resting 1"
      await page.evaluate(() => {
        const el = document.querySelector('[data-panel="ladder"] .ladder-foot')!;
        const w = window as unknown as { __ack: { commit: number; frame: number } };
        const count = () => el.querySelector('[data-resting]')?.textContent;
        const mo = new MutationObserver(() => {
          if (count() !== '1') return;
          mo.disconnect();
          w.__ack.commit = performance.timeOrigin + performance.now();
          performance.mark('ack-commit');
          // the next animation frame's callback: the frame that paints the change has started
          requestAnimationFrame(() => (w.__ack.frame = performance.timeOrigin + performance.now()));
        });
        mo.observe(el, { subtree: true, childList: true, characterData: true });
      });
      tracking = !warm;
      await page.keyboard.press('b');
      // a key that never paints its ack within a minute is a stuck screen, reported with what it shows
      const ok = await page.waitForFunction(() => (window as unknown as { __ack: { frame: number } }).__ack.frame > 0, undefined, { timeout: 60_000, polling: 50 }).then(() => true, () => false);
      if (!ok) {
        const shot = path.join(root, 'e2e', 'artifacts', 'bench-keypress-stuck.png');
        await page.screenshot({ path: shot }).catch(() => undefined);
        const shown = await page.evaluate(() => ({ foot: document.querySelector('[data-panel="ladder"] .ladder-foot')?.textContent ?? '(no foot)', toasts: [...document.querySelectorAll('[role="status"], [role="alert"]')].map((e) => e.textContent).join(' | '), focus: document.activeElement?.outerHTML.slice(0, 160) ?? '' }));
        throw Object.assign(new Error(`sample ${i}: B painted no "Resting 1" in 60 s; foot "${shown.foot}", toasts "${shown.toasts}", focus ${shown.focus}; screenshot ${path.relative(root, shot)}`), { name: 'TimeoutError' });
      }
      // the result's handling may finish after the paint: waited for, briefly
      await page.waitForFunction(() => (window as unknown as { __ack: { result: number } }).__ack.result > 0, undefined, { timeout: 5_000 }).catch(() => undefined);
      const a = await page.evaluate(() => (window as unknown as { __ack: PageMarks }).__ack);
      tracking = false;
      if (!warm) {
        const marks: Record<string, number> = { ...a, ...main };
        const trace = ackTrace.take();
        for (const m of trace) marks[m.name] ??= m.at;
        // a create sent twice met a 429 (the bucket, shared with the raw client, ran dry) and waited
        // out its backoff: not counted, as the raw call's own 429s are not
        if (trace.filter((m) => m.name === 'send').length > 1) terminal429++;
        else {
          samples.push(marks);
          termMs.push(a.frame - a.key);
        }
      }
      if ((await resting()) !== 1) console.log(`  (sample ${i}: the foot shows ${await resting()} resting)`);
      await clear();
    }

    if (process.env.BENCH_ACK_TRACE) await browser.stopTracing();
    if (prof) {
      // an anchor for the profile's clock: a named busy loop of 5 ms, its start on the page's clock
      profAnchor = await page.evaluate(() => {
        const t0 = performance.now();
        function clockAnchor(): void {
          while (performance.now() - t0 < 5);
        }
        clockAnchor();
        return performance.timeOrigin + t0;
      });
      const { profile } = await prof.send('Profiler.stop');
      // the samples' marks on the profile's clock (µs): the first sample in clockAnchor is its start
      const parent = new Map<number, number>();
      const named = new Map(profile.nodes.map((n) => [n.id, n.callFrame.functionName]));
      for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
      const inAnchor = (id: number | undefined): boolean => id !== undefined && (named.get(id) === 'clockAnchor' || inAnchor(parent.get(id)));
      let ts = profile.startTime;
      let anchorTs = Number.NaN;
      profile.samples?.forEach((id, i) => {
        ts += profile.timeDeltas?.[i] ?? 0;
        if (Number.isNaN(anchorTs) && inAnchor(id)) anchorTs = ts;
      });
      if (Number.isNaN(anchorTs)) console.log('  (the profile holds no sample of the clock anchor: its marks are not aligned)');
      writeFileSync(process.env.BENCH_ACK_PROF!, JSON.stringify(profile));
      writeFileSync(`${process.env.BENCH_ACK_PROF!}.marks.json`, JSON.stringify(samples.map((m) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, anchorTs + (v - profAnchor) * 1000])))));
      console.log(`  page CPU profile written to ${process.env.BENCH_ACK_PROF} (marks beside it)`);
    }
    const rawP50 = percentile(rawMs, 50);
    const rawP95 = percentile(rawMs, 95);
    const termP50 = percentile(termMs, 50);
    const termP95 = percentile(termMs, 95);
    const hop = (m: Record<string, number>, from: string, to: string) => (m[from] && m[to] ? m[to]! - m[from]! : Number.NaN);
    const col = (from: string, to: string) => samples.map((m) => hop(m, from, to)).filter((x) => Number.isFinite(x));
    const fmt = (xs: number[]) => (xs.length ? `${percentile(xs, 50).toFixed(1).padStart(6)} ${percentile(xs, 95).toFixed(1).padStart(7)}` : '   n/a     n/a');
    console.log(`\n## keypress to painted ack (B on the ladder of ${ladderTicker} until "Resting 1" is painted) vs a plain signed REST create, ${SAMPLES} samples each, interleaved`);
    console.log(`  plain signed REST create (this process, straight to the exchange): ${stats(rawMs)}`);
    console.log(`  terminal, key down -> the frame that paints the count:            ${stats(termMs)}`);
    if (raw429 || terminal429) console.log(`  not counted: samples that met a 429 of the shared write bucket (raw ${raw429}, terminal ${terminal429})`);
    console.log('  where the terminal time goes, hop by hop on one clock (ms):            p50     p95');
    for (const [from, to, what] of HOPS) console.log(`    ${what.padEnd(74)} ${fmt(col(from, to))}`);
    console.log('    (within the HTTP create: fetch to its answer                                ' + fmt(fetchMs) + ')');
    console.log(`    (RSA-PSS signing alone, same key                                            ${median(signMs).toFixed(2).padStart(6)})`);
    console.log('  off the critical path:');
    for (const [from, to, what] of ASIDE) console.log(`    ${what.padEnd(74)} ${fmt(col(from, to))}`);
    console.log(`    main: audit journal write + sync (group commit after the answer)           ${fmt(auditMs)}`);
    // the slowest samples hop by hop: where a tail comes from
    const slow = samples.map((m, i) => ({ m, total: termMs[i]! })).sort((x, y) => y.total - x.total).slice(0, 3);
    for (const { m, total } of slow) console.log(`  a slow sample, ${total.toFixed(1)} ms: ${HOPS.map(([f, t]) => `${t} ${hop(m, f, t).toFixed(1)}`).join(', ')}`);
    figure('keypress_to_ack_vs_rest', termP50 / rawP50, `x (terminal p50 ${termP50.toFixed(1)} ms / raw p50 ${rawP50.toFixed(1)} ms; p95 ${termP95.toFixed(1)} / ${rawP95.toFixed(1)} ms)`, rawP50, termP50 / rawP50);
    figure('keypress_to_ack_p50_over_rest_ms', termP50 - rawP50, 'ms over the raw p50 (goal <= 16.7)');
    figure('keypress_to_ack_p95_over_rest_ms', termP95 - rawP95, 'ms over the raw p95 (goal <= 33)');
    const ok50 = termP50 <= rawP50 + 16.7;
    const ok95 = termP95 <= rawP95 + 33;
    console.log(`  target p50 <= raw p50 + 16.7 ms: ${ok50 ? 'met' : 'MISSED'}; p95 <= raw p95 + 33 ms: ${ok95 ? 'met' : 'MISSED'}`);
    process.exitCode = ok50 && ok95 ? 0 : 2;
  } finally {
    globalThis.fetch = realFetch;
    await browser.close().catch(() => undefined);
    await host.close().catch(() => undefined);
    await terminal.stop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

try {
  await main();
} catch (e) {
  // a screen that never showed what the bench waits for (sizes on the ladder, the count cleared)
  // for three minutes is a missed figure with its reason, not a crash of the bench run
  if ((e as Error).name !== 'TimeoutError') throw e;
  console.log(`  target keypress_to_ack: MISSED (the screen never showed what was waited for: ${(e as Error).message.split('\n')[0]})`);
  process.exitCode = 2;
}
