// kill -9 of the web host (main) mid-session: the real `start:web` process (with its embedded
// exchange) is killed without warning right after the trader's calls were answered, then started
// again on the same data. What was acknowledged must come back as it was: open orders (from the
// exchange), local conditional orders (main's own, restored held for the trader's choice) and
// the kill switch's state.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type WebSocket from 'ws';
import { connectDoor } from '../host/door-client';
import { highestBid } from '../../test-support/main/markets';
import { sleep } from './world';
import { entryArgs } from './entry';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface Host {
  child: ChildProcess;
  call<T>(method: string, ...args: unknown[]): Promise<T>;
  ws: WebSocket;
}

async function startHost(dataDir: string, staticDir: string): Promise<Host> {
  const child = spawn(process.execPath, [...entryArgs('host'), '--port', '0', '--data-dir', dataDir, '--no-sim', '--seed', '9', '--static-dir', staticDir], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`start:web did not start:\n${out}`)), 90_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /terminal at (\S+)/.exec(out);
      if (m && out.includes('terminal ready')) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`start:web exited with ${code}:\n${out}`)));
  });
  const { call, ws } = await connectDoor(url);
  return { child, call, ws };
}

function kill9(h: Host): Promise<void> {
  h.ws.terminate();
  return new Promise((resolve) => {
    h.child.once('exit', () => resolve());
    h.child.kill('SIGKILL');
  });
}

async function live(h: Host): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const s = await h.call<{ connection: { phase: string } }>('getAppState');
    if (s.connection.phase === 'live') return;
    await sleep(100);
  }
  throw new Error('the terminal did not come back live');
}

export interface HostKillReport {
  scenario: string;
  openOrdersBefore: number;
  openOrdersAfter: number;
  localOrdersBefore: number;
  localOrdersAfter: number;
  killSwitchAfter: boolean;
  restartMs: number[];
  problems: string[];
}

type LocalView = { orders: { id: string; ticker: string; side: string; count: string; trigger?: string; state: string }[]; awaitingChoice: boolean };
const localKey = (v: LocalView) =>
  v.orders
    .map((o) => `${o.id} ${o.ticker} ${o.side} ${o.count} ${o.trigger ?? ''}`)
    .sort()
    .join('\n');

/** Three resting bids far from the touch and an OCO bracket of local stops. */
async function placeRestingAndLocal(h: Host, ticker: string): Promise<{ acks: string[]; placed: LocalView }> {
  const acks: string[] = [];
  for (const [price, count] of [
    ['0.0200', '3'],
    ['0.0300', '4'],
    ['0.0400', '5'],
  ] as const) {
    acks.push((await h.call<{ order_id: string }>('placeOrder', { ticker, side: 'bid', price, count, origin: 'api' })).order_id);
  }
  const placed = await h.call<LocalView>('placeLocalOrders', {
    orders: [
      { kind: 'stop', ticker, side: 'ask', count: '2', trigger: '0.0100', source: 'bid', limit: { kind: 'through', ticks: 1 } },
      { kind: 'stop', ticker, side: 'bid', count: '2', trigger: '0.9900', source: 'ask', limit: { kind: 'price', price: '0.9900' } },
    ],
    oco: true,
  });
  return { acks, placed };
}

/**
 * After the restart: every acknowledged order still rests, the local orders came back the same
 * and wait for the trader, and kept ones are armed (what is wrong goes to `problems`).
 */
async function checkRestored(h: Host, ticker: string, acks: string[], placed: LocalView, problems: string[]): Promise<{ open: string[]; after: LocalView }> {
  const open = (await h.call<{ orders: { order_id: string }[] }>('request', { id: 'getOrders', query: { ticker, status: 'resting' } })).orders.map((o) => o.order_id);
  for (const id of acks) if (!open.includes(id)) problems.push(`open order ${id} is gone after the restart`);
  const after = await h.call<LocalView>('getLocalOrders');
  if (localKey(after) !== localKey(placed)) problems.push(`local orders differ after the restart:\n${localKey(placed)}\n---\n${localKey(after)}`);
  if (!after.awaitingChoice) problems.push('restored local orders did not wait for the trader (awaitingChoice false)');
  const resumed = await h.call<LocalView>('resumeLocalOrders', { keep: true });
  if (resumed.orders.some((o) => o.state !== 'armed')) problems.push(`kept local orders are not armed: ${resumed.orders.map((o) => o.state).join(', ')}`);
  return { open, after };
}

export async function hostKillScenario(dataDir: string, log: (m: string) => void = () => undefined): Promise<HostKillReport> {
  const staticDir = path.join(dataDir, 'static');
  mkdirSync(staticDir, { recursive: true });
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>chaos</title>');
  const home = path.join(dataDir, 'terminal');
  const problems: string[] = [];
  const restartMs: number[] = [];
  const restart = async () => {
    const t0 = Date.now();
    const h = await startHost(home, staticDir);
    await live(h);
    restartMs.push(Date.now() - t0);
    return h;
  };

  let h = await startHost(home, staticDir);
  try {
    return await scenario();
  } finally {
    // a failed step never leaves a host (and its exchange) behind
    if (h.child.exitCode === null && h.child.signalCode === null) h.child.kill('SIGKILL');
  }

  async function scenario(): Promise<HostKillReport> {
    await live(h);
    const markets = await h.call<{ markets: { ticker: string; yes_bid_dollars?: string }[] }>('request', { id: 'getMarkets', query: { status: 'open', limit: 100 } });
    const ticker = highestBid(markets.markets).ticker;
    await h.call('watchMarkets', [ticker]);
    await sleep(500);
    // resting orders far from the touch, a bracket of local stops, then kill -9 at once
    const { acks, placed } = await placeRestingAndLocal(h, ticker);
    log(`kill -9 of the web host with ${acks.length} open orders and ${placed.orders.length} local orders`);
    await kill9(h);

    h = await restart();
    const { open, after } = await checkRestored(h, ticker, acks, placed, problems);

    // the kill switch, engaged and answered, survives a kill -9 too
    await h.call('engageKillSwitch');
    log('kill -9 of the web host with the kill switch engaged');
    await kill9(h);
    h = await restart();
    const risk = await h.call<{ killSwitch: { engaged: boolean } }>('getRisk');
    if (!risk.killSwitch.engaged) problems.push('the kill switch came back released');
    const refused = await h.call('placeOrder', { ticker, side: 'bid', price: '0.0500', count: '1' }).then(
      () => false,
      (e: Error) => /kill/i.test(e.message),
    );
    if (!refused) problems.push('an order went out with the kill switch engaged after the restart');
    const openAfter = (await h.call<{ orders: unknown[] }>('request', { id: 'getOrders', query: { ticker, status: 'resting' } })).orders.length;
    await h.call('releaseKillSwitch').catch(() => undefined);
    h.ws.close();
    await new Promise<void>((resolve) => {
      h.child.once('exit', () => resolve());
      h.child.kill('SIGTERM');
    });
    return {
      scenario: 'kill -9 of the web host mid-session',
      openOrdersBefore: acks.length,
      openOrdersAfter: open.length,
      localOrdersBefore: placed.orders.length,
      localOrdersAfter: after.orders.length,
      killSwitchAfter: risk.killSwitch.engaged,
      restartMs,
      problems: openAfter === 0 ? problems : [...problems, `${openAfter} orders rest after the kill switch (it cancels them all)`],
    };
  }
}
