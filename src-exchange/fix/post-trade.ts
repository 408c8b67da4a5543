// Post trade (KalshiPT, and KalshiRT with ReceiveSettlementReports 20127=Y;
// docs.kalshi.com/fix/market-settlement): a MarketSettlementReport (35=UMS) for each of the
// account's positions a market settles. The page's layout: 20105 MarketSettlementReportID, 55
// Symbol, 715 ClearingBusinessDate (YYYYMMDD), 20106 TotNumMarketSettlementReports, 20107
// MarketResult, 893 LastFragment, 730 SettlementPrice; the party group 20108
// NoMarketSettlementPartyIDs / 20109 MarketSettlementPartyID / 20110 MarketSettlementPartyRole
// (24 customer account) / 704 LongQty (YES contracts) / 705 ShortQty (NO contracts); the collateral
// group 1703 NoCollateralAmountChanges (1: the payout) / 1704 CollateralAmountChange (dollars).
// Here one report per (market, subaccount) settled, each its own single fragment.
import type { ExchangeEvent } from '../state/domain';
import type { SettlementView } from '../engine/types';
import { centiToCount, microToDollars } from '../engine/units';
import type { FixMessage } from '../../src-shared/fix/codec';
import type { SessionApp, SessionLink } from './link';
import { writePrice, type Fields, type FixTrader } from './orders';

export function settlementReport(s: SettlementView, t: FixTrader): Fields {
  const day = new Date(s.settled_at * 1000).toISOString().slice(0, 10).replace(/-/g, '');
  return [
    [20105, `${s.ticker}:${s.subaccount}:${s.settled_at}`],
    [55, s.ticker],
    [715, day],
    [20106, 1],
    [20107, s.market_result],
    [893, 'Y'],
    [730, writePrice(s.value, t.useDollars)],
    [20108, 1],
    [20109, s.subaccount === 0 ? s.user_id : `${s.user_id}:${s.subaccount}`],
    [20110, 24],
    [704, centiToCount(s.yes_count)],
    [705, centiToCount(s.no_count)],
    [1703, 1],
    [1704, microToDollars(s.revenue)],
  ];
}

/** Send the account's settlement reports among `events`. */
export function sendSettlements(link: SessionLink, events: readonly ExchangeEvent[]): void {
  const t = link.trader;
  for (const e of events) {
    if (e.type !== 'settlement') continue;
    const s = (e as { settlement: SettlementView }).settlement;
    if (s.user_id !== t.userId || (t.subaccount !== null && s.subaccount !== t.subaccount)) continue;
    link.send('UMS', settlementReport(s, t));
  }
}

export class PostTradeApp implements SessionApp {
  constructor(private readonly link: SessionLink) {}

  onMessage(m: FixMessage): boolean {
    if (m.msgType === 'D' || m.msgType === 'F' || m.msgType === 'G') {
      this.link.businessReject(m, 'a post trade session takes no orders', 3);
      return true;
    }
    return false;
  }

  onEvents(events: readonly ExchangeEvent[]): void {
    sendSettlements(this.link, events);
  }
}
