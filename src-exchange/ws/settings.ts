// Tunables of the stream. `streamSettings` is what the registered attacher uses; tests lower
// the intervals before starting an exchange (the node test project puts the defaults back after
// each file: test-support/reset-stream-settings.ts).

export interface StreamSettings {
  /** A WebSocket Ping every this many ms; a connection that has not answered the previous one is closed. */
  pingIntervalMs: number;
  /** Most market tickers one subscription may hold (error 26 beyond). */
  maxMarketsPerSubscription: number;
  /** Commands per connection: a token bucket of this capacity... */
  commandBurst: number;
  /** ...refilled at this rate (error 27 when empty). */
  commandsPerSecond: number;
  /**
   * Past this many bytes queued on a socket, its orderbook subscriptions get error 25 and their
   * deltas stop until the client asks for `get_snapshot` (or subscribes again).
   */
  bufferLimitBytes: number;
  /** Past this many bytes queued, the connection is closed (a client that stopped reading). */
  hardBufferLimitBytes: number;
  /** Largest command frame accepted; a bigger one closes the connection (1009) as `ws` does. */
  maxPayloadBytes: number;
  /** The index feeds' tick (5 Hz = 200 ms); the 1 Hz value feed sends every fifth tick. */
  indexTickMs: number;
}

export const DEFAULT_STREAM_SETTINGS: Readonly<StreamSettings> = Object.freeze({
  pingIntervalMs: 10_000,
  maxMarketsPerSubscription: 1_000,
  commandBurst: 100,
  commandsPerSecond: 50,
  bufferLimitBytes: 8 * 1024 * 1024,
  hardBufferLimitBytes: 64 * 1024 * 1024,
  maxPayloadBytes: 1024 * 1024,
  indexTickMs: 200,
});

/** The settings the registered attacher reads when an exchange starts. */
export const streamSettings: StreamSettings = { ...DEFAULT_STREAM_SETTINGS };
