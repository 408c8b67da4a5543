// A stand-in for main at the process boundary (what the Electron preload exposes as
// window.terminal, a call channel and the streams): every TerminalApi method is a recorded mock, reads answer from a table, and
// view streams can be pushed the way main pushes them. Components under test run unchanged.
import { vi, type Mock } from 'vitest';
import type { ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { METHOD_NAMES, type AppState, type DoorResult, type MethodName, type PreloadApi, type StreamName, type StreamPayloads, type TerminalError } from '../../src-shared/ipc/contract';
import { DEFAULT_SETTINGS } from '../../src-shared/ipc/defaults';
import { createQueryClient } from '../lib/query';

type Listener = (payload: unknown) => void;

export interface FakeTerminal {
  api: { [K in MethodName]: Mock };
  /** answers of `request` by endpoint id (a function gets the call's input) */
  reads: Record<string, unknown>;
  push<S extends StreamName>(stream: S, payload: StreamPayloads[S]): void;
}

export function installFakeTerminal(): FakeTerminal {
  const listeners = new Map<string, Set<Listener>>();
  const reads: Record<string, unknown> = {};
  const api: Record<string, unknown> = {};
  for (const m of METHOD_NAMES) api[m] = vi.fn(async () => undefined);
  api.request = vi.fn(async (input: { id: string }) => {
    const r = reads[input.id];
    if (r === undefined) throw Object.assign(new Error(`no fake answer for ${input.id}`), { kind: 'api', status: 404, code: 'not_found' });
    return typeof r === 'function' ? (r as (i: unknown) => unknown)(input) : r;
  });
  api.on = (stream: string, cb: Listener) => {
    const set = listeners.get(stream) ?? new Set();
    set.add(cb);
    listeners.set(stream, set);
    return () => set.delete(cb);
  };
  // what the preload exposes: one call channel answering as the door does (value or error as data)
  const call = async (method: string, args: unknown[]): Promise<DoorResult> => {
    const fn = api[method];
    if (typeof fn !== 'function' || method === 'on') return { ok: false, error: { kind: 'validation', message: `unknown method ${method}` } };
    try {
      return { ok: true, value: await (fn as (...a: unknown[]) => unknown)(...args) };
    } catch (err) {
      return { ok: false, error: err as TerminalError };
    }
  };
  window.terminal = { call, on: api.on as PreloadApi['on'] };
  return {
    api: api as FakeTerminal['api'],
    reads,
    push: (stream, payload) => listeners.get(stream)?.forEach((cb) => cb(payload)),
  };
}

export function withQueries(children: ReactNode): ReactNode {
  return <QueryClientProvider client={createQueryClient()}>{children}</QueryClientProvider>;
}

/**
 * The dock's test bed: jsdom given a size (stubLayout), main stood in for, and animation frames
 * run as timers (dockview lays out in frames, which jsdom never draws).
 */
export function installDockTestbed(): FakeTerminal {
  stubLayout();
  const fake = installFakeTerminal();
  globalThis.requestAnimationFrame = (cb: FrameRequestCallback) => setTimeout(() => cb(performance.now()), 0) as unknown as number;
  return fake;
}

/**
 * The stand-in knows one market (`KXSER-EVENT-T1`): its market, its event (the ticker to its last
 * dash) and its series (to its first dash, quadratic fees), as the ticket and ladder read them.
 */
export function fakeMarket(fake: FakeTerminal, ticker: string, title: string): void {
  const event = ticker.slice(0, ticker.lastIndexOf('-'));
  const series = ticker.slice(0, ticker.indexOf('-'));
  fake.reads.getMarket = { market: { ticker, event_ticker: event, title } };
  fake.reads.getEvent = { event: { event_ticker: event, series_ticker: series } };
  fake.reads.getSeries = { series: { ticker: series, fee_type: 'quadratic', fee_multiplier: '1' } };
}

/** Every call the stand-in recorded, forgotten (its answers stay). */
export function clearFakeCalls(fake: FakeTerminal): void {
  for (const m of Object.values(fake.api) as unknown[]) if (typeof m === 'function' && 'mockClear' in m) (m as Mock).mockClear();
}

/**
 * jsdom lays nothing out: give every element a screen-sized box (so virtualised tables render
 * their rows), a ResizeObserver that never fires (panels that measure keep their default), and
 * modal dialogs that open and close.
 */
export function stubLayout(): void {
  const box = { offsetWidth: 1200, offsetHeight: 800, clientWidth: 1200, clientHeight: 800 };
  for (const [key, value] of Object.entries(box)) {
    Object.defineProperty(HTMLElement.prototype, key, { configurable: true, get: () => value });
  }
  HTMLElement.prototype.getBoundingClientRect = function () {
    return { x: 0, y: 0, top: 0, left: 0, bottom: box.offsetHeight, right: box.offsetWidth, width: box.offsetWidth, height: box.offsetHeight, toJSON: () => ({}) } as DOMRect;
  };
  // jsdom has <dialog> but not its modal methods: open and close it by its attribute
  if (typeof HTMLDialogElement !== 'undefined' && typeof HTMLDialogElement.prototype.showModal !== 'function') {
    HTMLDialogElement.prototype.showModal = function (this: HTMLDialogElement) {
      this.setAttribute('open', '');
    };
    HTMLDialogElement.prototype.close = function (this: HTMLDialogElement) {
      this.removeAttribute('open');
      this.dispatchEvent(new Event('close'));
    };
  }
  if (!('ResizeObserver' in globalThis)) {
    (globalThis as unknown as { ResizeObserver: unknown }).ResizeObserver = class {
      observe(): void {}
      unobserve(): void {}
      disconnect(): void {}
    };
  }
}

/**
 * The terminal's state as main gives it at a start, with only what the layout reads: the active
 * profile (none with null). Until the page has it the layout is still loading, and the layout's
 * commands wait for it (src-renderer/app/Layout.tsx).
 */
export function loadedApp(profileId: string | null): AppState {
  return { activeProfileId: profileId, profiles: [], settings: DEFAULT_SETTINGS, shell: 'web' } as unknown as AppState;
}
