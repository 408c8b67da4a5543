// The status bar's figures of one session: the stream's phase, its last ping round trips, the
// order ack round trips, the exchange's status, and what the REST side knows (rate-limit
// headroom, clock offset, who the key belongs to), as the connection view.
import type { LimiterSnapshot } from '../api/limiter';
import type { ClockSnapshot } from '../api/clock';
import type { StreamStatus } from '../stream/connection';
import type { ConnectionView } from '../../src-shared/ipc/contract';
import { median, pushBounded } from './views';

type Row = Record<string, unknown>;

/** What the connection view takes from the REST side when it is built. */
export interface RestFigures {
  limits: LimiterSnapshot;
  clock: ClockSnapshot;
  userId: string | null;
  isFcmMember: boolean;
}

export class ConnectionFigures {
  status: StreamStatus = { phase: 'idle', detail: 'not started', reconnects: 0, latencyMs: null };
  /** the last ping round trips and order ack round trips, for the status bar */
  private readonly latencyHistory: number[] = [];
  private readonly ackMs: number[] = [];
  private exchange: ConnectionView['exchange'] = null;

  /** The stream's new status; a new ping round trip joins the history. */
  onStatus(s: StreamStatus): void {
    if (s.latencyMs !== null && s.latencyMs !== this.status.latencyMs) pushBounded(this.latencyHistory, s.latencyMs, 40);
    this.status = s;
  }

  /** An order answered after `ms`. */
  noteAck(ms: number): void {
    pushBounded(this.ackMs, Math.round(ms), 50);
  }

  /** The exchange's status as read over REST. */
  setExchangeStatus(s: Row): void {
    const shards = (s.exchange_index_statuses as Row[] | undefined) ?? [];
    this.exchange = {
      exchangeActive: s.exchange_active === true,
      tradingActive: s.trading_active === true,
      shards: shards.map((x) => ({ index: Number(x.exchange_index), label: String(x.description), tradingActive: x.trading_active === true })),
    };
  }

  view(rest: RestFigures): ConnectionView {
    const { limits: lim, clock } = rest;
    return {
      phase: this.status.phase === 'closed' ? 'offline' : this.status.phase,
      detail: this.status.detail,
      latencyMs: this.status.latencyMs,
      latencyHistory: [...this.latencyHistory],
      orderAck: this.ackMs.length ? { lastMs: this.ackMs[this.ackMs.length - 1]!, p50Ms: median(this.ackMs), count: this.ackMs.length } : null,
      reconnects: this.status.reconnects,
      limits: {
        read: { available: Math.floor(lim.read.available), capacity: lim.read.capacity },
        write: { available: Math.floor(lim.write.available), capacity: lim.write.capacity },
      },
      exchange: this.exchange,
      userId: rest.userId,
      isFcmMember: rest.isFcmMember,
      clockOffsetMs: clock.measuredMs === undefined ? null : Math.round(clock.measuredMs),
      ...(clock.refusal ? { clockProblem: clock.refusal } : {}),
    };
  }
}
