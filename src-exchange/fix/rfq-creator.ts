// The RFQ creator's side on KalshiRT (docs.kalshi.com/fix/rfq-messages, "RFQ Creators use the
// KalshiRT endpoint"), on the same RFQ state REST and the WebSocket use (state/comms.ts):
// - QuoteRequest (R) in: 131 QuoteReqID (client-assigned: it becomes the RFQ's id), 146=1, 55
//   Symbol, 38 OrderQty (whole contracts) or 152 CashOrderQty (dollars), exactly one; 79
//   AllocAccount; 21015 RestRemainder, 21016 ReplaceExisting (Y/N, default N). Answered with a
//   QuoteRequestAck (b: 131, 297 QuoteStatus 0 accepted, or 5 rejected with 300 QuoteRejectReason 1
//   unknown symbol / 99 other and 58 the engine's code and message). The page names the ack but its
//   layout was not read: this one is FIX's quote acknowledgement (131, 297, 300, 58).
// - Quote (S) out when a maker quotes the creator's RFQ: 117 QuoteID, 131, 55, 38, 132 BidPx (the
//   YES price, cents), 133 OfferPx (the NO price, cents); 0 = that side is declined.
// - AcceptQuote (UA) in: 117 QuoteID, 131 (optional), 54 Side 1 = accept YES / 2 = accept NO.
//   A refusal is a BusinessMessageReject (j, 58 the engine's code and message); on success the maker
//   is asked to confirm (its QuoteStatusReport AI 297=0), and once it does the creator's side is
//   reported as an ExecutionReport Trade (150=F) of the order the execution made.
// Quotes and executions reach the creator while its KalshiRT connection is up (they are not stored
// for a logged-out session; REST and the WebSocket carry them too).
import type { ExchangeEvent } from '../state/domain';
import type { FillView } from '../engine/types';
import { centiToCount, countToCenti, dollarsToMicro } from '../engine/units';
import { rejectionError } from '../core/services';
import { COMMS_DOMAIN, type CommsState } from '../state/comms';
import type { FixMessage } from '../../src-shared/fix/codec';
import type { SessionLink } from './link';
import { FixReject, fillReport, readSubaccount, writePrice, type Fields } from './orders';

export class RfqCreator {
  constructor(
    private readonly link: SessionLink,
    /** where the session's reports go (on KalshiRT: stored while logged out) */
    private readonly out: (msgType: string, body: Fields) => void,
  ) {}

  private get comms(): CommsState {
    return this.link.svc.node.core.domain<CommsState>(COMMS_DOMAIN);
  }

  onMessage(m: FixMessage): boolean {
    if (m.msgType === 'R') this.link.ordered(this.onQuoteRequest(m));
    else if (m.msgType === 'UA') this.link.ordered(this.onAccept(m));
    else return false;
    return true;
  }

  private async submit(cmd: Record<string, unknown>): Promise<{ code: string; text: string } | null> {
    const node = this.link.svc.node;
    const outcome = await node.submit({ nowMs: node.now(), userId: this.link.trader.userId, ...cmd } as never);
    if (outcome.ok) return null;
    const e = rejectionError(outcome);
    return { code: e.code, text: `${e.code}: ${e.message}` };
  }

  /** The createRfq command of a QuoteRequest, or why it cannot be one. */
  private rfqCommand(m: FixMessage): Record<string, unknown> | string {
    const t = this.link.trader;
    const id = m.get(131);
    if (!t.canWrite) return 'this API key is read-only';
    if (!id) return 'QuoteReqID (131) is required';
    if ((m.get(146) ?? '1') !== '1') return 'NoRelatedSym (146) must be 1';
    const symbol = m.get(55);
    if (!symbol) return 'Symbol (55) is required';
    const qty = m.get(38);
    const cash = m.get(152);
    if ((qty === undefined) === (cash === undefined)) return 'give exactly one of OrderQty (38) and CashOrderQty (152)';
    const contractsCenti = qty !== undefined ? countToCenti(qty) : undefined;
    if (qty !== undefined && (contractsCenti === undefined || contractsCenti <= 0 || contractsCenti % 100 !== 0)) return `OrderQty (38) ${qty} must be whole contracts`;
    const targetCostMicro = cash !== undefined ? dollarsToMicro(cash) : undefined;
    if (cash !== undefined && (targetCostMicro === undefined || targetCostMicro <= 0)) return `CashOrderQty (152) ${cash} must be a positive dollar amount`;
    const yn = (tag: number) => m.get(tag) === 'Y';
    let subaccount: number;
    try {
      subaccount = readSubaccount(m, t);
    } catch (err) {
      if (err instanceof FixReject) return err.message;
      throw err;
    }
    return {
      type: 'createRfq',
      rfqId: id,
      subaccount,
      marketTicker: symbol,
      ...(contractsCenti !== undefined ? { contractsCenti } : {}),
      ...(targetCostMicro !== undefined ? { targetCostMicro } : {}),
      restRemainder: yn(21015),
      replaceExisting: yn(21016),
    };
  }

  private async onQuoteRequest(m: FixMessage): Promise<() => void> {
    const id = m.get(131) ?? '';
    const refuse = (reason: number, text: string) => () => this.out('b', [[131, id], [297, 5], [300, reason], [58, text]]);
    const cmd = this.rfqCommand(m);
    if (typeof cmd === 'string') return refuse(99, cmd);
    const why = await this.submit(cmd);
    if (why) return refuse(why.code === 'not_found' && why.text.includes('market') ? 1 : 99, why.text);
    return () => this.out('b', [[131, id], [297, 0], [55, m.get(55) ?? '']]);
  }

  private async onAccept(m: FixMessage): Promise<() => void> {
    const quoteId = m.get(117);
    const side = m.get(54);
    if (!this.link.trader.canWrite) return () => this.link.businessReject(m, 'this API key is read-only', 0);
    if (!quoteId) return () => this.link.businessReject(m, 'QuoteID (117) is required', 5);
    if (side !== '1' && side !== '2') return () => this.link.businessReject(m, 'Side (54) must be 1 (accept YES) or 2 (accept NO)', 5);
    const rfqId = m.get(131);
    const why = await this.submit({ type: 'acceptQuote', quoteId, ...(rfqId ? { rfqId } : {}), acceptedSide: side === '1' ? 'yes' : 'no' });
    return () => {
      if (why) this.link.businessReject(m, why.text, why.code === 'not_found' ? 1 : 0);
    };
  }

  onEvents(events: readonly ExchangeEvent[]): void {
    const me = this.link.trader.userId;
    for (const e of events) {
      if (e.type !== 'domain' || e.channel !== 'communications' || e.audience === 'public' || !e.audience.includes(me)) continue;
      const p = e.payload as Record<string, unknown>;
      const rfq = this.comms.rfqs[String(p['rfq_id'])];
      if (!rfq || rfq.creator_user_id !== me) continue;
      if (e.kind === 'quote_created') {
        const q = this.comms.quotes[String(p['quote_id'])];
        if (!q) continue;
        this.out('S', [
          [117, q.quote_id],
          [131, q.rfq_id],
          [55, q.market_ticker],
          ...(rfq.contracts_centi !== null ? ([[38, centiToCount(rfq.contracts_centi)]] as Fields) : []),
          [132, writePrice(q.yes_bid, false)],
          [133, writePrice(q.no_bid, false)],
        ]);
      } else if (e.kind === 'quote_executed') {
        const orderId = String(p['order_id']);
        const fill = events.find((x): x is ExchangeEvent & { fill: FillView } => x.type === 'fill' && (x as { fill: FillView }).fill.order_id === orderId);
        const o = this.link.svc.node.core.engine.getOrder(orderId);
        if (fill && o) this.out('8', fillReport(o, fill.fill, this.link.trader));
      }
    }
  }
}
