// A strategy live on the embedded exchange through main's door: its orders go through the risk
// gate (one the gate refuses comes back refused with the gate's reason), it rests a real order,
// and the kill switch stops it with nothing left resting. A backtest runs over a recording made
// in the same session.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSimTerminal, type SimTerminal } from '../../test-support/main/sim-terminal';
import { until } from '../../test-support/main/wait';
import type { BacktestView, RecordingsView, StrategiesView } from '../../src-shared/ipc/contract';

let sim: SimTerminal;
const call = (method: string, ...args: unknown[]) => sim.call(method, ...args);
const value = <T,>(method: string, ...args: unknown[]) => sim.value<T>(method, ...args);

beforeAll(async () => {
  sim = await startSimTerminal('strat-int-', 9);
}, 60_000);

afterAll(async () => {
  await sim?.stop();
});

const CODE = `
var placed = false;
module.exports = {
  onStart: function (e) { api.watch([e.params.ticker]); },
  onBook: function (b) {
    if (placed || b.bid === null) return;
    placed = true;
    api.place({ ticker: b.ticker, side: 'bid', price: '0.0100', count: '1' });
    api.place({ ticker: b.ticker, side: 'bid', price: '0.0100', count: '100000' });
  },
  onOrder: function (o) { api.log('order', o.id, o.status, o.reason); },
};`;

it('runs live behind the risk gate and the kill switch stops it', async () => {
  const r = await value<{ markets: { ticker: string }[] }>('request', { id: 'getMarkets', query: { status: 'open', limit: 3 } });
  const ticker = r.markets[0]!.ticker;
  // a recording of the same flow, for the backtest below
  await value('startRecording', { markets: [ticker] });
  const started = await value<StrategiesView>('startStrategy', { name: 'probe', code: CODE, params: { ticker } });
  expect(started.examples.map((e) => e.name)).toEqual(['market-maker.js', 'take-profit-follower.js']);
  const id = started.running[0]!.id;
  let s!: StrategiesView['running'][number];
  await until('one order rests and one is refused', async () => {
    s = (await value<StrategiesView>('getStrategies')).running.find((x) => x.id === id)!;
    return s.orders.length === 2 && s.orders.every((o) => o.status !== 'pending');
  }, 30_000);
  expect(s.orders[0]!.status).toBe('resting');
  expect(s.orders[1]!.status).toBe('refused');
  expect(s.orders[1]!.reason).toMatch(/contracts per order|1,000|1000/i);
  await value('engageKillSwitch');
  await until('the strategy stopped with nothing resting', async () => {
    s = (await value<StrategiesView>('getStrategies')).running.find((x) => x.id === id)!;
    const open = await value<{ orders: unknown[] }>('request', { id: 'getOrders', query: { status: 'resting', ticker } });
    return s.status === 'stopped' && open.orders.length === 0;
  }, 30_000);
  expect(s.log.some((l) => l.includes('kill switch'))).toBe(true);
  await value('releaseKillSwitch', { confirm: true });

  const rec = await value<RecordingsView>('stopRecording');
  const bt = await value<BacktestView>('backtestStrategy', { code: CODE, params: { ticker }, recordingId: rec.recordings[0]!.id });
  expect(bt.fault).toBeNull();
  expect(bt.events).toBeGreaterThan(0);
  expect(bt.orders).toBe(2);
  expect(bt.csv).toContain('summary,pnl,');
  expect(await call('startStrategy', { name: 'x', code: '', params: {} })).toMatchObject({ ok: false, error: { kind: 'validation' } });
  expect(await call('stopStrategy', { id: 'st-999' })).toMatchObject({ ok: false, error: { kind: 'state' } });
});
