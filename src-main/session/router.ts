// The stream's way in: each frame through the ingest (the books apply their deltas and snapshots
// there), its resync and malformed-frame actions, and each validated message to where it belongs:
// public market data into the push buffer, private rows into the store (a fill also as the
// trader's notice), and main's own observers. What changed is pushed with the next coalesced push.
import type { FrameIngest, FrameResult } from '../market/frame';
import type { Notice } from '../../src-shared/ipc/contract';
import type { StreamRead } from '../../src-shared/wire/stream';
import { processNoveltyLog, type NoveltyLog } from '../../src-shared/wire/novelty';
import type { MarketBuffer } from './market-buffer';
import { observing, type Observe, type SessionObserver } from './observer';
import type { PrivateStore } from './private-store';
import type { PrivateSync } from './private-sync';
import type { ResyncScheduler } from './resync';
import { fillNotice, lifecycleView, pythView, tickerView, tradeView } from './views';

type Row = Record<string, unknown>;

export interface RouterParts {
  ingest: FrameIngest;
  resyncs: ResyncScheduler;
  market: MarketBuffer;
  sync: PrivateSync;
  store: PrivateStore;
  /** a push soon (the coalescer's poke) */
  poke: () => void;
  notice: (n: Notice) => void;
  observer?: SessionObserver | undefined;
  /** Which tolerated novelties were already logged; default: once per process. */
  noveltyLog?: NoveltyLog | undefined;
  log: (m: string) => void;
}

export class StreamRouter {
  private readonly observe: Observe;

  constructor(private readonly p: RouterParts) {
    this.observe = observing(p.observer, p.log);
  }

  /** One frame's text as the stream read it. */
  frame(text: string): void {
    const r = this.p.ingest.ingest(text);
    if (r.novelties.length) this.logNovelties(r.novelties);
    for (const a of r.actions) {
      if (a.kind === 'resync') {
        this.p.log(`resync sid ${a.sid} ${a.marketTickers.join(',') || '(all)'}: ${a.reason}`);
        this.p.resyncs.request(a.sid, a.marketTickers);
      } else {
        this.p.log(`malformed frame: ${a.reason}`);
      }
    }
    if (r.touched) this.p.poke();
    if (r.message && this.p.observer?.message) {
      const m = r.message;
      this.observe((o) => o.message?.(m));
    }
    if (r.message) this.route(r.message);
    else if (r.actions.length) this.p.poke();
  }

  /** Each new kind of tolerated novelty once (a field the service always leaves out must not log per frame). */
  private logNovelties(novelties: FrameResult['novelties']): void {
    for (const n of (this.p.noveltyLog ?? processNoveltyLog).fresh(novelties)) {
      this.p.log(n.kind === 'type' ? `passing on a message of unknown type ${n.key}` : `read with tolerance (${n.kind}): ${n.key}`);
    }
  }

  private route(m: StreamRead): void {
    const { market, sync, store } = this.p;
    switch (m.type) {
      case 'unknown':
        // Nothing in the terminal consumes it yet; it was logged once with the novelties.
        return;
      case 'ticker': {
        const view = tickerView(m.msg);
        market.ticker(view);
        this.observe((o) => o.ticker?.(view));
        break;
      }
      case 'trade': {
        const view = tradeView(m.msg);
        market.trade(view);
        this.observe((o) => o.trade?.(view));
        break;
      }
      case 'market_lifecycle_v2': {
        const l = lifecycleView(m.msg as Row, Date.now());
        market.lifecycle(l);
        // a market's result marks today's contracts there (today's P&L)
        const r = m.msg as Row;
        if (l.event_type === 'determined' || l.event_type === 'settled') {
          const value = r.result === 'yes' ? '1' : r.result === 'no' ? '0' : typeof r.settlement_value === 'string' ? String(Number(r.settlement_value)) : '';
          sync.noteResult(l.ticker, value, l.ts);
        }
        this.observe((o) => o.lifecycle?.(l.ticker, l.event_type));
        break;
      }
      case 'cfbenchmarks_value':
        market.index(m.msg);
        break;
      case 'pyth_value':
        market.pyth(pythView(m.msg));
        break;
      case 'fill':
        this.fill(m.msg as Row);
        break;
      case 'user_order': {
        const o = m.msg as Row;
        sync.put('order', o);
        // the cash available moves with what resting orders hold, not only with fills
        sync.refreshBalanceSoon();
        this.observe((x) => x.order?.(o));
        break;
      }
      case 'market_position': {
        const p = m.msg as Row;
        sync.put('position', { ...p, ticker: p.market_ticker, position_fp: p.position_fp });
        break;
      }
      case 'order_group_updates':
        store.putOrderGroup(m.msg as Row);
        break;
      case 'rfq_created':
      case 'rfq_deleted':
        store.putRfq({ ...(m.msg as Row), event: m.type });
        break;
      case 'quote_created':
      case 'quote_accepted':
      case 'quote_executed':
        store.putQuote({ ...(m.msg as Row), event: m.type });
        break;
      default:
        return;
    }
    this.p.poke();
  }

  private fill(f: Row): void {
    const { sync, store } = this.p;
    sync.put('fill', { ...f, ticker: f.market_ticker });
    sync.notePnl(f);
    this.p.notice(fillNotice(f, typeof f.order_id === 'string' ? store.orders.get(f.order_id)?.side : undefined));
    sync.refreshBalanceSoon();
    this.observe((o) => o.fill?.(f));
  }
}
