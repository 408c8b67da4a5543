// What the renderer's door hands out, whichever way it reaches main (the Electron preload or the
// web host's socket): the API with a control for its connection, and the error a failed call
// rejects with. Only types come from src-shared/ipc so that zod stays out of the renderer bundle.
import type { TerminalApi, TerminalError, Unsubscribe } from '../../src-shared/ipc/contract';

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
