import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TerminalCallError, type BridgeStatus } from './bridge-types';
import { backoffDelay, createSocketApi } from './socket-api';
import { ipcUrl, takeUrlToken, webHostProtocols } from './web-host';
import { FakeSocket } from '../test/fake-socket';

const last = () => FakeSocket.last();
const make = () =>
  createSocketApi({ url: 'ws://127.0.0.1:1/ipc?token=t', createSocket: (u) => new FakeSocket(u), random: () => 0, backoff: { initialMs: 100, maxMs: 1000 } });

describe('web bridge', () => {
  beforeEach(() => {
    FakeSocket.all = [];
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends a call frame with an incrementing id and resolves with the result frame', async () => {
    const api = make();
    last().open();
    const a = api.getSettings();
    const b = api.watchMarkets(['T1']);
    expect(last().sent).toEqual([
      { t: 'call', id: 1, method: 'getSettings', args: [] },
      { t: 'call', id: 2, method: 'watchMarkets', args: [['T1']] },
    ]);
    last().receive({ t: 'result', id: 2, ok: true, value: null });
    last().receive({ t: 'result', id: 1, ok: true, value: { theme: 'light' } });
    await expect(a).resolves.toEqual({ theme: 'light' });
    await expect(b).resolves.toBeNull();
  });

  it('rejects with an Error carrying the TerminalError fields', async () => {
    const api = make();
    last().open();
    const p = api.placeOrder({ ticker: 'T', side: 'bid', price: '0.5', count: '1' });
    last().receive({ t: 'result', id: 1, ok: false, error: { kind: 'api', status: 400, code: 'insufficient_balance', message: 'no cash' } });
    const err = await p.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TerminalCallError);
    expect(err).toMatchObject({ kind: 'api', status: 400, code: 'insufficient_balance', message: 'no cash', method: 'placeOrder' });
  });

  it('dispatches event frames to the stream listeners until unsubscribed', () => {
    const api = make();
    last().open();
    const books = vi.fn();
    const off = api.on('books', books);
    const notices = vi.fn();
    api.on('notices', notices);
    last().receive({ t: 'event', stream: 'books', payload: [{ ticker: 'T' }] });
    off();
    last().receive({ t: 'event', stream: 'books', payload: [] });
    expect(books).toHaveBeenCalledTimes(1);
    expect(books).toHaveBeenCalledWith([{ ticker: 'T' }]);
    expect(notices).not.toHaveBeenCalled();
  });

  it('queues calls made before the socket opens and sends them on open', async () => {
    const api = make();
    const p = api.getAppState();
    expect(last().sent).toEqual([]);
    last().open();
    expect(last().sent).toEqual([{ t: 'call', id: 1, method: 'getAppState', args: [] }]);
    last().receive({ t: 'result', id: 1, ok: true, value: 'state' });
    await expect(p).resolves.toBe('state');
  });

  it('reconnects with backoff after a drop, reports it, and fails calls that were in flight', async () => {
    const api = make();
    const statuses: BridgeStatus[] = [];
    api.bridge.onStatus((s) => statuses.push(s));
    last().open();
    const inFlight = api.cancelAll({});
    last().drop(1006);
    await expect(inFlight).rejects.toMatchObject({ kind: 'network', code: 'bridge_disconnected' });
    expect(api.bridge.status()).toMatchObject({ phase: 'reconnecting', attempt: 1 });
    expect(FakeSocket.all).toHaveLength(1);
    vi.advanceTimersByTime(50);
    expect(FakeSocket.all).toHaveLength(2);
    last().drop(1006);
    expect(api.bridge.status()).toMatchObject({ phase: 'reconnecting', attempt: 2 });
    vi.advanceTimersByTime(100);
    expect(FakeSocket.all).toHaveLength(3);
    last().open();
    expect(api.bridge.status()).toMatchObject({ phase: 'open', attempt: 0, reconnects: 1 });
    expect(statuses.map((s) => s.phase)).toContain('reconnecting');
  });

  it('holds calls made while reconnecting and sends them once the socket is back', async () => {
    const api = make();
    last().open();
    last().drop();
    const p = api.getSettings();
    vi.advanceTimersByTime(50);
    last().open();
    expect(last().sent).toEqual([{ t: 'call', id: 1, method: 'getSettings', args: [] }]);
    last().receive({ t: 'result', id: 1, ok: true, value: 1 });
    await expect(p).resolves.toBe(1);
  });

  it('gives up on a queued call when the host stays away, saying nothing was sent', async () => {
    const api = make();
    const p = api.getSettings();
    vi.advanceTimersByTime(15_001);
    await expect(p).rejects.toThrow(/nothing was sent/);
  });

  it('says so when the host refuses the token and retries slowly', () => {
    const api = make();
    last().drop(1008, 'bad token');
    expect(api.bridge.status()).toMatchObject({ phase: 'refused' });
    expect(api.bridge.status().detail).toMatch(/bad token/);
  });

  it('builds the socket URL from the page location, without the token', () => {
    // the token travels as a subprotocol, never in the socket URL (nor in a cookie)
    expect(ipcUrl({ protocol: 'http:', host: '127.0.0.1:5123' })).toBe('ws://127.0.0.1:5123/ipc');
    expect(ipcUrl({ protocol: 'https:', host: 'h:1' })).toBe('wss://h:1/ipc');
    expect(webHostProtocols('ab12')).toEqual(['terminal.v1', 'terminal.token.ab12']);
  });

  it('moves ?token from the address into sessionStorage, keeping the rest; a reload finds it there', () => {
    const calls: string[] = [];
    const history = { state: { s: 1 }, replaceState: (_s: unknown, _t: string, url?: string | URL | null) => void calls.push(String(url)) };
    const stored = new Map<string, string>();
    const storage = { getItem: (k: string) => stored.get(k) ?? null, setItem: (k: string, v: string) => void stored.set(k, v) };
    const token = 'ab'.repeat(24);
    expect(takeUrlToken({ pathname: '/', search: '?a=1', hash: '' }, history, storage)).toBeNull();
    expect(takeUrlToken({ pathname: '/', search: `?token=${token}`, hash: '' }, history, storage)).toBe(token);
    // the reload: no token in the address, the tab's storage holds it
    expect(takeUrlToken({ pathname: '/x', search: '?a=1', hash: '#h' }, history, storage)).toBe(token);
    // a malformed one is dropped from the address and never stored
    expect(takeUrlToken({ pathname: '/x', search: '?a=1&token=<script>', hash: '#h' }, history, storage)).toBe(token);
    expect(calls).toEqual(['/', '/x?a=1#h']);
  });

  it('offers the protocols it was given on every socket it opens', () => {
    const opened: string[][] = [];
    createSocketApi({
      url: 'ws://127.0.0.1:1/ipc',
      protocols: ['terminal.v1', 'terminal.token.t'],
      createSocket: (u, p) => {
        opened.push(p);
        return new FakeSocket(u);
      },
    });
    expect(opened).toEqual([['terminal.v1', 'terminal.token.t']]);
  });

  it('grows the delay exponentially up to the cap', () => {
    expect(backoffDelay(1, 100, 1000, () => 1)).toBe(100);
    expect(backoffDelay(3, 100, 1000, () => 1)).toBe(400);
    expect(backoffDelay(10, 100, 1000, () => 1)).toBe(1000);
    expect(backoffDelay(3, 100, 1000, () => 0)).toBe(200);
  });
});
