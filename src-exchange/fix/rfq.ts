// The RFQ session's market-maker side (KalshiRFQ, with retransmission; docs.kalshi.com/fix/rfq-messages),
// on the same RFQ state REST and the WebSocket use (state/comms.ts, one command each):
// - QuoteRequest (R) out for each RFQ another member opens: 131 QuoteReqID (the RFQ id), 146=1,
//   55 Symbol, 38 OrderQty or 152 CashOrderQty, 453=1/448 PartyID (the requester's public
//   communications id, left out when the RFQ hides it).
// - Quote (S) in: 131, 55, 132 BidPx (YES cents), 133 OfferPx (NO cents), one of them may be 0
//   (no quote on that side); a new quote replaces the maker's open one on the same market. Answered
//   with QuoteStatusReport (AI): 117 QuoteID (the exchange's), 131, 297 QuoteStatus 10 pending, or 5
//   rejected with 58 Text and an empty 117.
// - When the requester accepts: AI with 297=0 (accepted) and 54 the side; the maker confirms with
//   QuoteConfirm (U7: 117). QuoteCancel (Z: 117) withdraws a quote: AI 297=17 (canceled).
// QuoteStatus codes are FIX 5.0's (0 accepted, 5 rejected, 10 pending, 17 canceled); the page names
// the statuses but the codes were not on the part of it read.
import { randomUUID } from 'node:crypto';
import type { ExchangeEvent } from '../state/domain';
import { centiToCount, microToDollars } from '../engine/units';
import { rejectionError } from '../core/services';
import { COMMS_DOMAIN, type CommsState } from '../state/comms';
import type { FixMessage } from '../../src-shared/fix/codec';
import type { SessionApp, SessionLink } from './link';
import { writePrice, type Fields } from './orders';

const cents = (raw: string | undefined): number | null => {
  if (raw === undefined || !/^\d+(\.\d*)?$/.test(raw)) return null;
  const c = Math.trunc(Number(raw)); // "only the integer part considered"
  return c >= 0 && c <= 99 ? c : null;
};

export class RfqApp implements SessionApp {
  constructor(private readonly link: SessionLink) {}

  private get comms(): CommsState {
    return this.link.svc.node.core.domain<CommsState>(COMMS_DOMAIN);
  }

  private status(fields: Fields): void {
    this.link.send('AI', fields);
  }

  private refused(m: FixMessage, text: string): void {
    this.status([
      [117, ''],
      [131, m.get(131) ?? ''],
      [297, 5],
      [58, text],
    ]);
  }

  onMessage(m: FixMessage): boolean {
    if (m.msgType === 'S') this.link.ordered(this.onQuote(m));
    else if (m.msgType === 'Z') this.link.ordered(this.onCancel(m));
    else if (m.msgType === 'U7') this.link.ordered(this.onConfirm(m));
    else if (m.msgType === 'D' || m.msgType === 'F' || m.msgType === 'G') this.link.businessReject(m, 'an RFQ session takes no orders', 3);
    else return false;
    return true;
  }

  private async submit(cmd: Record<string, unknown>): Promise<string | null> {
    const outcome = await this.link.svc.node.submit({ nowMs: this.link.svc.node.now(), userId: this.link.trader.userId, ...cmd } as never);
    if (outcome.ok) return null;
    const e = rejectionError(outcome);
    return `${e.code}: ${e.message}`;
  }

  private async onQuote(m: FixMessage): Promise<() => void> {
    const t = this.link.trader;
    const rfqId = m.get(131);
    const yes = cents(m.get(132));
    const no = cents(m.get(133));
    if (!t.canWrite) return () => this.refused(m, 'this API key is read-only');
    if (!rfqId) return () => this.refused(m, 'QuoteReqID (131) is required');
    if (yes === null || no === null) return () => this.refused(m, 'BidPx (132) and OfferPx (133) must be cents 0-99');
    if (yes === 0 && no === 0) return () => this.refused(m, 'BidPx (132) and OfferPx (133) cannot both be 0');
    const rfq = this.comms.rfqs[rfqId];
    if (rfq && m.get(55) !== undefined && m.get(55) !== rfq.market_ticker) return () => this.refused(m, `Symbol (55) is not RFQ ${rfqId}'s market`);
    // a new quote replaces this maker's open one on the same market
    if (rfq) {
      for (const q of Object.values(this.comms.quotes)) {
        if (q.creator_user_id === t.userId && q.market_ticker === rfq.market_ticker && q.status === 'open') await this.submit({ type: 'deleteQuote', quoteId: q.quote_id });
      }
    }
    const quoteId = randomUUID();
    const why = await this.submit({
      type: 'createQuote',
      quoteId,
      subaccount: t.subaccount ?? 0,
      rfqId,
      yesBidTicks: yes * 100,
      noBidTicks: no * 100,
      restRemainder: false,
      postOnly: false,
    });
    if (why !== null) return () => this.refused(m, why);
    const qty = this.comms.rfqs[rfqId]?.contracts_centi;
    return () =>
      this.status([
        [117, quoteId],
        [131, rfqId],
        [297, 10],
        ...(qty != null ? ([[38, centiToCount(qty)]] as Fields) : []),
        [132, yes],
        [133, no],
      ]);
  }

  private async onCancel(m: FixMessage): Promise<() => void> {
    const quoteId = m.get(117);
    if (!quoteId) return () => this.refused(m, 'QuoteID (117) is required');
    const why = await this.submit({ type: 'deleteQuote', quoteId });
    const rfqId = this.comms.quotes[quoteId]?.rfq_id ?? m.get(131) ?? '';
    if (why !== null) return () => this.refused(m, why);
    return () =>
      this.status([
        [117, quoteId],
        [131, rfqId],
        [297, 17],
      ]);
  }

  private async onConfirm(m: FixMessage): Promise<() => void> {
    const quoteId = m.get(117);
    if (!quoteId) return () => this.link.businessReject(m, 'QuoteID (117) is required', 5);
    const why = await this.submit({ type: 'confirmQuote', quoteId });
    return () => {
      if (why !== null) this.link.businessReject(m, why, 0);
    };
  }

  onEvents(events: readonly ExchangeEvent[]): void {
    const me = this.link.trader.userId;
    for (const e of events) {
      if (e.type !== 'domain' || e.channel !== 'communications') continue;
      if (e.audience !== 'public' && !e.audience.includes(me)) continue;
      const p = e.payload as Record<string, unknown>;
      if (e.kind === 'rfq_created') {
        const rfq = this.comms.rfqs[String(p['rfq_id'])];
        if (!rfq || rfq.creator_user_id === me) continue;
        const creator = p['creator_id'];
        this.link.send('R', [
          [131, rfq.rfq_id],
          [146, 1],
          [55, rfq.market_ticker],
          ...(rfq.contracts_centi !== null ? ([[38, centiToCount(rfq.contracts_centi)]] as Fields) : []),
          ...(rfq.target_cost_micro !== null ? ([[152, microToDollars(rfq.target_cost_micro)]] as Fields) : []),
          ...(typeof creator === 'string'
            ? ([
                [453, 1],
                [448, creator],
              ] as Fields)
            : []),
        ]);
      } else if (e.kind === 'quote_accepted') {
        const q = this.comms.quotes[String(p['quote_id'])];
        if (!q || q.creator_user_id !== me) continue;
        this.status([
          [117, q.quote_id],
          [131, q.rfq_id],
          [297, 0],
          [54, q.accepted_side === 'no' ? 2 : 1],
          ...(q.contracts_centi !== null ? ([[38, centiToCount(q.contracts_centi)]] as Fields) : []),
          [132, writePrice(q.yes_bid, false)],
          [133, writePrice(q.no_bid, false)],
        ]);
      }
    }
  }
}
