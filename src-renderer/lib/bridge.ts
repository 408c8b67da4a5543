// The renderer's only door to main: TerminalApi from the Electron preload (`window.terminal`),
// or, in a browser, the same contract carried over the web host's WebSocket as frames.ts frames.
// Only types are imported from src-shared/ipc so that zod stays out of the renderer bundle.
import type { StreamName, StreamPayloads, TerminalApi, TerminalError, Unsubscribe } from '../../src-shared/ipc/contract';
import { METHOD_NAMES, STREAM_NAMES } from '../../src-shared/ipc/names';
import type { CallFrame, ServerFrame } from '../../src-shared/ipc/frames';

declare global {
  interface Window {
    terminal?: TerminalApi;
  }
}

/** Every TerminalApi method and view stream, from the contract's dependency-free name list. */
export const METHODS = METHOD_NAMES;
export const STREAMS = STREAM_NAMES;

/** A rejected call: the TerminalError's fields on an Error, so `instanceof Error` and `.message` work. */
export class TerminalCallError extends Error implements TerminalError {
  override name = 'TerminalCallError';
  readonly kind: TerminalError['kind'];
  readonly status: number | undefined;
  readonly code: string | undefined;
  readonly details: string | undefined;
  readonly confirmable: boolean | undefined;
  constructor(
    error: TerminalError,
    readonly method?: string,
  ) {
    super(error.message);
    this.kind = error.kind;
    this.status = error.status;
    this.code = error.code;
    this.details = error.details;
    this.confirmable = error.confirmable;
  }
}

export type BridgePhase = 'connecting' | 'open' | 'reconnecting' | 'refused' | 'closed';

export interface BridgeStatus {
  phase: BridgePhase;
  /** failed attempts since the socket was last open */
  attempt: number;
  /** when the next attempt starts (ms since epoch), while reconnecting */
  retryAt: number | null;
  /** why the socket is down, in words */
  detail: string;
  /** how many times the socket has come back after a drop */
  reconnects: number;
}

export interface BridgeControl {
  status(): BridgeStatus;
  onStatus(listener: (status: BridgeStatus) => void): Unsubscribe;
  /** try to connect now instead of waiting for the backoff */
  retryNow(): void;
  close(): void;
}

export type BridgedApi = TerminalApi & { bridge: BridgeControl };

interface SocketLike {
  readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: { code: number; reason: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
}

export interface SocketApiOptions {
  url: string;
  /** WebSocket subprotocols to offer (the web host's token travels as one) */
  protocols?: string[];
  createSocket?: (url: string, protocols: string[]) => SocketLike;
  /** a call that gets no answer in this time is rejected (the socket may still be up) */
  callTimeoutMs?: number;
  /** calls made while the socket is down wait this long for it to come back */
  queueTimeoutMs?: number;
  backoff?: { initialMs: number; maxMs: number };
  random?: () => number;
  now?: () => number;
}

const OPEN = 1;
/** Close codes that mean the host refused this page (bad or expired token): retry slowly. */
const REFUSED_CODES = new Set([1008, 4001, 4003, 4401, 4403]);

interface Pending {
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
  method: string;
  timer: ReturnType<typeof setTimeout> | null;
  /** the frame, while it waits for the socket; null once sent */
  frame: string | null;
}

/** Delay before attempt `attempt` (1-based): exponential with full jitter in the upper half. */
export function backoffDelay(attempt: number, initialMs: number, maxMs: number, random: () => number): number {
  const ceiling = Math.min(maxMs, initialMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

export function createSocketApi(options: SocketApiOptions): BridgedApi {
  const createSocket = options.createSocket ?? ((url: string, protocols: string[]) => new WebSocket(url, protocols) as unknown as SocketLike);
  const callTimeoutMs = options.callTimeoutMs ?? 60_000;
  const queueTimeoutMs = options.queueTimeoutMs ?? 15_000;
  const { initialMs, maxMs } = options.backoff ?? { initialMs: 500, maxMs: 15_000 };
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;

  let socket: SocketLike | null = null;
  let nextId = 1;
  let closed = false;
  let everOpened = false;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  const pending = new Map<number, Pending>();
  const listeners = new Map<StreamName, Set<(payload: never) => void>>();
  const statusListeners = new Set<(s: BridgeStatus) => void>();
  let status: BridgeStatus = { phase: 'connecting', attempt: 0, retryAt: null, detail: 'connecting to the terminal host', reconnects: 0 };

  const setStatus = (patch: Partial<BridgeStatus>) => {
    status = { ...status, ...patch };
    for (const l of statusListeners) l(status);
  };

  const settle = (id: number): Pending | undefined => {
    const p = pending.get(id);
    if (!p) return undefined;
    pending.delete(id);
    if (p.timer) clearTimeout(p.timer);
    return p;
  };

  const fail = (id: number, error: TerminalError) => {
    const p = settle(id);
    p?.reject(new TerminalCallError(error, p.method));
  };

  const flushQueue = () => {
    if (!socket || socket.readyState !== OPEN) return;
    for (const [id, p] of pending) {
      if (p.frame === null) continue;
      socket.send(p.frame);
      p.frame = null;
      if (p.timer) clearTimeout(p.timer);
      p.timer = setTimeout(
        () => fail(id, { kind: 'network', code: 'bridge_timeout', message: `${p.method}: no answer from the terminal host within ${Math.round(callTimeoutMs / 1000)} s` }),
        callTimeoutMs,
      );
    }
  };

  const onFrame = (raw: unknown) => {
    if (typeof raw !== 'string') return;
    let frame: ServerFrame;
    try {
      frame = JSON.parse(raw) as ServerFrame;
    } catch {
      return;
    }
    if (frame.t === 'result') {
      const p = settle(frame.id);
      if (!p) return;
      if (frame.ok) p.resolve(frame.value);
      else p.reject(new TerminalCallError(frame.error, p.method));
    } else if (frame.t === 'event') {
      const set = listeners.get(frame.stream);
      if (!set) return;
      for (const l of [...set]) {
        try {
          (l as (payload: unknown) => void)(frame.payload);
        } catch (err) {
          // one broken listener must not starve the others; surface it where it can be seen
          queueMicrotask(() => {
            throw err;
          });
        }
      }
    }
  };

  const scheduleRetry = (refused: boolean, detail: string) => {
    if (closed) return;
    const attempt = status.attempt + 1;
    const delay = refused ? Math.max(maxMs, 30_000) : backoffDelay(attempt, initialMs, maxMs, random);
    setStatus({ phase: refused ? 'refused' : 'reconnecting', attempt, retryAt: now() + delay, detail });
    retryTimer = setTimeout(() => {
      retryTimer = null;
      connect();
    }, delay);
  };

  function connect() {
    if (closed) return;
    let ws: SocketLike;
    try {
      ws = createSocket(options.url, options.protocols ?? []);
    } catch (err) {
      scheduleRetry(false, `could not open the socket: ${err instanceof Error ? err.message : String(err)}`);
      return;
    }
    socket = ws;
    if (status.phase !== 'refused' && status.phase !== 'reconnecting') setStatus({ phase: 'connecting', retryAt: null });
    ws.onopen = () => {
      if (socket !== ws) return;
      const wasReconnect = everOpened;
      everOpened = true;
      setStatus({ phase: 'open', attempt: 0, retryAt: null, detail: 'connected', reconnects: status.reconnects + (wasReconnect ? 1 : 0) });
      flushQueue();
    };
    ws.onmessage = (ev) => {
      if (socket === ws) onFrame(ev.data);
    };
    ws.onerror = () => {
      // the close event follows with the code; nothing to do here
    };
    ws.onclose = (ev) => {
      if (socket !== ws) return;
      socket = null;
      // calls already sent may or may not have been applied: say so instead of guessing
      for (const [id, p] of pending) {
        if (p.frame !== null) continue;
        fail(id, {
          kind: 'network',
          code: 'bridge_disconnected',
          message: `${p.method}: the connection to the terminal host dropped before the answer arrived; it may or may not have been applied`,
        });
      }
      if (closed) {
        setStatus({ phase: 'closed', retryAt: null, detail: 'closed' });
        return;
      }
      const refused = REFUSED_CODES.has(ev.code);
      const detail = refused
        ? `the terminal host refused this page (${ev.reason || `close code ${ev.code}`}); reopen the terminal from the app`
        : `connection lost${ev.reason ? `: ${ev.reason}` : ev.code ? ` (close code ${ev.code})` : ''}`;
      scheduleRetry(refused, detail);
    };
  }

  const call = (method: string, args: unknown[]): Promise<unknown> =>
    new Promise((resolve, reject) => {
      if (closed) {
        reject(new TerminalCallError({ kind: 'network', code: 'bridge_closed', message: `${method}: the terminal bridge is closed` }, method));
        return;
      }
      const id = nextId++;
      const frame: CallFrame = { t: 'call', id, method, args };
      const entry: Pending = { resolve, reject, method, timer: null, frame: JSON.stringify(frame) };
      pending.set(id, entry);
      if (socket && socket.readyState === OPEN) {
        flushQueue();
      } else {
        entry.timer = setTimeout(
          () =>
            fail(id, {
              kind: 'network',
              code: 'bridge_disconnected',
              message: `${method}: not connected to the terminal host (${status.detail}); nothing was sent`,
            }),
          queueTimeoutMs,
        );
      }
    });

  const api = {} as Record<string, unknown>;
  for (const m of METHODS) api[m] = (...args: unknown[]) => call(m, args);
  api.on = (stream: StreamName, listener: (payload: never) => void): Unsubscribe => {
    let set = listeners.get(stream);
    if (!set) listeners.set(stream, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  };
  const bridge: BridgeControl = {
    status: () => status,
    onStatus(listener) {
      statusListeners.add(listener);
      return () => {
        statusListeners.delete(listener);
      };
    },
    retryNow() {
      if (closed || socket) return;
      if (retryTimer) clearTimeout(retryTimer);
      retryTimer = null;
      connect();
    },
    close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      for (const id of [...pending.keys()]) fail(id, { kind: 'network', code: 'bridge_closed', message: 'the terminal bridge was closed' });
      socket?.close(1000, 'closed by the page');
      if (!socket) setStatus({ phase: 'closed', retryAt: null, detail: 'closed' });
    },
  };
  api.bridge = bridge;
  connect();
  return api as unknown as BridgedApi;
}

/**
 * The IPC socket URL of the web host serving this page: same host, `/ipc`. The launch token is
 * not in it: it is offered as a subprotocol (webHostProtocols).
 */
export function ipcUrl(loc: Pick<Location, 'protocol' | 'host'>): string {
  const scheme = loc.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${loc.host}/ipc`;
}

/** the subprotocol the web host answers with, and the prefix of the one carrying the token */
export const HOST_PROTOCOL = 'terminal.v1';
export const TOKEN_PROTOCOL = 'terminal.token.';
const TOKEN_KEY = 'terminal.token';

/** The subprotocols this page's socket offers: the token rides in one, never in a URL or a cookie. */
export function webHostProtocols(token: string): string[] {
  return [HOST_PROTOCOL, `${TOKEN_PROTOCOL}${token}`];
}

/**
 * Moves ?token= from the address into sessionStorage (which only this origin, scheme + host +
 * port, can read; a cookie would reach every port of 127.0.0.1) and drops it from the address
 * and history. Returns the token this tab holds: a reload keeps it; a new tab needs the URL with
 * the token again.
 */
export function takeUrlToken(
  loc: Pick<Location, 'pathname' | 'search' | 'hash'>,
  history: Pick<History, 'replaceState' | 'state'>,
  storage: Pick<Storage, 'getItem' | 'setItem'>,
): string | null {
  const params = new URLSearchParams(loc.search);
  const fromUrl = params.get('token');
  if (fromUrl !== null) {
    if (/^[0-9a-f]{16,128}$/.test(fromUrl)) storage.setItem(TOKEN_KEY, fromUrl);
    params.delete('token');
    const rest = params.toString();
    history.replaceState(history.state, '', `${loc.pathname}${rest ? `?${rest}` : ''}${loc.hash}`);
  }
  return storage.getItem(TOKEN_KEY);
}

/** The preload's API has no socket of its own to watch: it is always open. */
function preloadBridge(api: TerminalApi): BridgedApi {
  const status: BridgeStatus = { phase: 'open', attempt: 0, retryAt: null, detail: 'Electron preload', reconnects: 0 };
  const bridge: BridgeControl = {
    status: () => status,
    onStatus: () => () => {},
    retryNow: () => {},
    close: () => {},
  };
  return Object.assign(Object.create(null) as object, api, { on: api.on.bind(api), bridge }) as BridgedApi;
}

let instance: BridgedApi | null = null;

export function getTerminalApi(): BridgedApi {
  if (instance) return instance;
  if (window.terminal) {
    instance = preloadBridge(window.terminal);
    return instance;
  }
  const token = takeUrlToken(window.location, window.history, window.sessionStorage);
  instance = createSocketApi({
    url: ipcUrl(window.location),
    protocols: token ? webHostProtocols(token) : [],
    ...(token
      ? {}
      : {
          createSocket: () => {
            throw new Error('this tab holds no launch token: open the URL with ?token= that the terminal host printed in its console');
          },
        }),
  });
  return instance;
}

/** Reads a stream payload type by name (for listeners declared apart from `on`). */
export type Payload<S extends StreamName> = StreamPayloads[S];
