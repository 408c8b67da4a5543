// How a server of either process stops: the web host's HTTP server, the exchange's HTTP server and
// its FIX listeners (plain and TLS). A server's close waits for every connection to end, and some
// would not end on their own for a minute or more: a connection a browser opened ahead of need and
// never sent a request on (Node's headers timeout ends it), a TLS connection whose client never
// sent its hello (the handshake timeout, 120 s), a WebSocket peer that does not answer the close.
// The process stayed up that long after Ctrl+C (the web host: 73 s, with its exchange). So each
// server's connections are tracked from the start, and those still open a grace after its close
// began are cut. Pure: it takes the server and its sockets by their shape (the same for node:net,
// node:tls and node:http servers), so both processes share it.

/** What a closing server needs of a connection. */
export interface TrackedSocket {
  destroy(): void;
  once(event: 'close', listener: () => void): unknown;
}

/** What it needs of the server (a net, tls or http Server). */
export interface TrackableServer {
  on(event: 'connection', listener: (socket: TrackedSocket) => void): unknown;
  close(callback?: (err?: Error) => void): unknown;
}

/** how long a closing server's connections may take to end on their own */
export const CLOSE_GRACE_MS = 1_000;

/**
 * Tracks `server`'s connections from now on (call it before the server listens). `cutAfter` starts
 * the grace (call it as the close begins): the connections still open when it ends are destroyed;
 * it returns the grace's cancel. `close` is the whole stop for a server nothing else closes.
 */
export function trackConnections(server: TrackableServer): { cutAfter(graceMs?: number): () => void; close(graceMs?: number): Promise<void> } {
  const open = new Set<TrackedSocket>();
  server.on('connection', (socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  const cutAfter = (graceMs = CLOSE_GRACE_MS) => {
    const timer = setTimeout(() => {
      for (const socket of open) socket.destroy();
    }, graceMs);
    return () => clearTimeout(timer);
  };
  return {
    cutAfter,
    close: (graceMs = CLOSE_GRACE_MS) =>
      new Promise<void>((resolve) => {
        const cancel = cutAfter(graceMs);
        server.close(() => {
          cancel();
          resolve();
        });
      }),
  };
}
