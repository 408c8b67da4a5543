// The socket RPC client of the browser build: the TerminalApi contract carried over the web
// host's WebSocket as frames.ts frames, with a call queue while the socket is down, per-call
// timeouts, reconnects with jittered backoff, and the connection's status for the status bar.
import type { StreamName, TerminalError, Unsubscribe } from '../../src-shared/ipc/contract';
import type { CallFrame, ServerFrame } from '../../src-shared/ipc/frames';
import { TerminalCallError, type BridgeControl, type BridgedApi, type BridgeStatus } from './bridge-types';
import { proxyClient } from './client-proxy';

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

function parseFrame(raw: string): ServerFrame | null {
  try {
    return JSON.parse(raw) as ServerFrame;
  } catch {
    return null;
  }
}

const DROPPED = 'the connection to the terminal host dropped before the answer arrived; it may or may not have been applied';

/** What the status bar says about a close: a refusal (bad or expired token) or a lost connection. */
function closeDetail(ev: { code: number; reason: string }, refused: boolean): string {
  return refused
    ? `the terminal host refused this page (${ev.reason || `close code ${ev.code}`}); reopen the terminal from the app`
    : `connection lost${ev.reason ? `: ${ev.reason}` : ev.code ? ` (close code ${ev.code})` : ''}`;
}

/** Calls one stream event's listeners; one that throws does not starve the others. */
function fanOut(set: Set<(payload: never) => void> | undefined, payload: unknown): void {
  if (!set) return;
  for (const l of [...set]) {
    try {
      (l as (payload: unknown) => void)(payload);
    } catch (err) {
      // surface it where it can be seen
      queueMicrotask(() => {
        throw err;
      });
    }
  }
}

/** The calls waiting on an answer: settle one, fail one, send the queued ones on an open socket. */
function pendingCalls(pending: Map<number, Pending>, callTimeoutMs: number) {
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
  const flush = (socket: SocketLike | null) => {
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
  return { settle, fail, flush };
}

type StatusHub = ReturnType<typeof statusHub>;

/** The bridge's status for the status bar, and who listens to it. */
function statusHub() {
  let status: BridgeStatus = { phase: 'connecting', attempt: 0, retryAt: null, detail: 'connecting to the terminal host', reconnects: 0 };
  const listeners = new Set<(s: BridgeStatus) => void>();
  return {
    get: () => status,
    set(patch: Partial<BridgeStatus>) {
      status = { ...status, ...patch };
      for (const l of listeners) l(status);
    },
    on(listener: (s: BridgeStatus) => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

/** The stream listeners, by stream. */
function streamHub() {
  const listeners = new Map<StreamName, Set<(payload: never) => void>>();
  return {
    on(stream: StreamName, listener: (payload: never) => void): Unsubscribe {
      let set = listeners.get(stream);
      if (!set) listeners.set(stream, (set = new Set()));
      set.add(listener);
      return () => void set.delete(listener);
    },
    emit: (stream: StreamName, payload: unknown) => fanOut(listeners.get(stream), payload),
  };
}

/** One frame from the host: the answer to a call, or a stream event. */
function handleFrame(raw: unknown, settle: (id: number) => Pending | undefined, emit: (stream: StreamName, payload: unknown) => void): void {
  if (typeof raw !== 'string') return;
  const frame = parseFrame(raw);
  if (!frame) return;
  if (frame.t === 'result') {
    const p = settle(frame.id);
    if (!p) return;
    if (frame.ok) p.resolve(frame.value);
    else p.reject(new TerminalCallError(frame.error, p.method));
  } else if (frame.t === 'event') {
    emit(frame.stream, frame.payload);
  }
}

interface ConnectionHooks {
  status: StatusHub;
  onFrame: (raw: unknown) => void;
  /** the socket opened: send the calls that wait */
  onOpen: () => void;
  /** the socket closed: the calls already sent are lost */
  onDrop: () => void;
}

/** The socket itself: opened, reopened after a close with jittered backoff (slowly when refused), or shut for good. */
function socketConnection(options: SocketApiOptions, hooks: ConnectionHooks) {
  const createSocket = options.createSocket ?? ((url: string, protocols: string[]) => new WebSocket(url, protocols) as unknown as SocketLike);
  const { initialMs, maxMs } = options.backoff ?? { initialMs: 500, maxMs: 15_000 };
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  const { status } = hooks;
  let socket: SocketLike | null = null;
  let closed = false;
  let everOpened = false;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;

  const scheduleRetry = (refused: boolean, detail: string) => {
    if (closed) return;
    const attempt = status.get().attempt + 1;
    const delay = refused ? Math.max(maxMs, 30_000) : backoffDelay(attempt, initialMs, maxMs, random);
    status.set({ phase: refused ? 'refused' : 'reconnecting', attempt, retryAt: now() + delay, detail });
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
    if (status.get().phase !== 'refused' && status.get().phase !== 'reconnecting') status.set({ phase: 'connecting', retryAt: null });
    ws.onopen = () => {
      if (socket !== ws) return;
      const wasReconnect = everOpened;
      everOpened = true;
      status.set({ phase: 'open', attempt: 0, retryAt: null, detail: 'connected', reconnects: status.get().reconnects + (wasReconnect ? 1 : 0) });
      hooks.onOpen();
    };
    ws.onmessage = (ev) => {
      if (socket === ws) hooks.onFrame(ev.data);
    };
    ws.onerror = () => undefined; // the close event follows with the code
    ws.onclose = (ev) => {
      if (socket !== ws) return;
      socket = null;
      hooks.onDrop();
      if (closed) {
        status.set({ phase: 'closed', retryAt: null, detail: 'closed' });
        return;
      }
      const refused = REFUSED_CODES.has(ev.code);
      scheduleRetry(refused, closeDetail(ev, refused));
    };
  }

  return {
    connect,
    socket: () => socket,
    isClosed: () => closed,
    retryNow() {
      if (closed || socket) return;
      if (retryTimer) clearTimeout(retryTimer);
      retryTimer = null;
      connect();
    },
    /** no more reconnects; the caller closes the socket */
    shutDown() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
    },
  };
}

export function createSocketApi(options: SocketApiOptions): BridgedApi {
  const callTimeoutMs = options.callTimeoutMs ?? 60_000;
  const queueTimeoutMs = options.queueTimeoutMs ?? 15_000;
  let nextId = 1;
  const pending = new Map<number, Pending>();
  const streams = streamHub();
  const status = statusHub();
  const { settle, fail, flush } = pendingCalls(pending, callTimeoutMs);
  const conn = socketConnection(options, {
    status,
    onFrame: (raw) => handleFrame(raw, settle, streams.emit),
    onOpen: () => flush(conn.socket()),
    onDrop: () => {
      // calls already sent may or may not have been applied: say so instead of guessing
      for (const [id, p] of pending) {
        if (p.frame === null) fail(id, { kind: 'network', code: 'bridge_disconnected', message: `${p.method}: ${DROPPED}` });
      }
    },
  });

  const call = (method: string, args: unknown[]): Promise<unknown> =>
    new Promise((resolve, reject) => {
      if (conn.isClosed()) return reject(new TerminalCallError({ kind: 'network', code: 'bridge_closed', message: `${method}: the terminal bridge is closed` }, method));
      const id = nextId++;
      const frame: CallFrame = { t: 'call', id, method, args };
      const entry: Pending = { resolve, reject, method, timer: null, frame: JSON.stringify(frame) };
      pending.set(id, entry);
      const socket = conn.socket();
      if (socket && socket.readyState === OPEN) return flush(socket);
      const message = `${method}: not connected to the terminal host (${status.get().detail}); nothing was sent`;
      entry.timer = setTimeout(() => fail(id, { kind: 'network', code: 'bridge_disconnected', message }), queueTimeoutMs);
    });

  const api = {} as Record<string, unknown>;
  api.on = streams.on;
  const bridge: BridgeControl = {
    status: status.get,
    onStatus: status.on,
    retryNow: conn.retryNow,
    close() {
      conn.shutDown();
      for (const id of [...pending.keys()]) fail(id, { kind: 'network', code: 'bridge_closed', message: 'the terminal bridge was closed' });
      conn.socket()?.close(1000, 'closed by the page');
      if (!conn.socket()) status.set({ phase: 'closed', retryAt: null, detail: 'closed' });
    },
  };
  api.bridge = bridge;
  conn.connect();
  // every other member is a contract method sent over the socket (main's door checks the name)
  return proxyClient<BridgedApi>(api, call);
}
