// The contract scenario, part 3: the communications rail (RFQs, quotes on the flat and the
// RFQ-scoped routes, block trade proposals), API keys, account limits and the usage-level
// upgrade, and the FCM routes, through the official SDK.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import type { SdkClient } from './clients';
import { type Recorder, at, str } from './recorder';

/** The RFQ id of a create answer: the spec's `rfq.rfq_id` (the SDK's flat `id` rides beside it). */
const rfqIdOf = (r: unknown) => (typeof at(r, 'rfq.rfq_id') === 'string' ? str(r, 'rfq.rfq_id') : str(r, 'id'));
const quoteIdOf = (r: unknown) => (typeof at(r, 'quote.quote_id') === 'string' ? str(r, 'quote.quote_id') : str(r, 'id'));

export async function communicationsOps(
  rec: Recorder,
  trader: SdkClient,
  counterparty: SdkClient,
  ids: { trader: string; counterparty: string },
  ticker: string,
): Promise<void> {
  const tc = trader.communications;
  const cc = counterparty.communications;
  await rec.ok('getCommunicationsID', tc.getCommunicationsID());

  // 1. contracts-sized RFQ: quote, accept (flat route), confirm (flat route)
  const rfq1 = rfqIdOf(await rec.ok('createRFQ', tc.createRFQ({ market_ticker: ticker, rest_remainder: false, contracts: 10 })));
  await rec.ok('getRFQ', tc.getRFQ(rfq1));
  const q1 = quoteIdOf(await rec.ok('createQuote', cc.createQuote({ rfq_id: rfq1, yes_bid: '0.40', no_bid: '0.55', rest_remainder: false })));
  await rec.ok('getQuote', tc.getQuote(q1));
  await rec.ok('getRFQQuote', tc.getRFQQuote(rfq1, q1));
  await rec.ok('acceptQuote', tc.acceptQuote(q1, { accepted_side: 'yes' }));
  await rec.ok('confirmQuote', cc.confirmQuote(q1));
  await rec.ok('getQuote', tc.getQuote(q1));

  // 2. RFQ sized by a target cost (SDK field target_cost_dollars), on the RFQ-scoped routes
  const rfq2 = rfqIdOf(await rec.ok('createRFQ', tc.createRFQ({ market_ticker: ticker, rest_remainder: false, target_cost_dollars: '5.00' })));
  await rec.ok('getRFQ', tc.getRFQ(rfq2));
  const q2 = quoteIdOf(await rec.ok('createQuote', cc.createQuote({ rfq_id: rfq2, yes_bid: '0.45', no_bid: '0.50', rest_remainder: false })));
  await rec.ok('acceptRFQQuote', tc.acceptRFQQuote(rfq2, q2, { accepted_side: 'no' }));
  await rec.ok('confirmRFQQuote', cc.confirmRFQQuote(rfq2, q2));
  await rec.ok('getRFQQuote', cc.getRFQQuote(rfq2, q2));

  // 3. quotes withdrawn on both routes, then the RFQ itself
  const rfq3 = rfqIdOf(await rec.ok('createRFQ', tc.createRFQ({ market_ticker: ticker, rest_remainder: true, contracts_fp: '3.00' })));
  const q3 = quoteIdOf(await rec.ok('createQuote', cc.createQuote({ rfq_id: rfq3, yes_bid: '0.30', no_bid: '0.60', rest_remainder: false })));
  await rec.ok('getQuotes', tc.getQuotes(undefined, undefined, undefined, 100, undefined, undefined, undefined, 'self'), ['quotes']);
  await rec.ok('getQuotes', cc.getQuotes(undefined, undefined, undefined, 100, undefined, undefined, 'self'), ['quotes']);
  await rec.ok('deleteQuote', cc.deleteQuote(q3));
  // (a quoter's new quote replaces its live one, so the second is made after the first is gone)
  const q4 = quoteIdOf(await rec.ok('createQuote', cc.createQuote({ rfq_id: rfq3, yes_bid: '0.31', no_bid: '0.60', rest_remainder: false, post_only: true })));
  await rec.ok('deleteRFQQuote', cc.deleteRFQQuote(rfq3, q4));
  await rec.ok('getQuotes', cc.getQuotes(undefined, undefined, undefined, 100, undefined, undefined, 'self'), ['quotes']);
  await rec.ok('getRFQs', tc.getRFQs(undefined, undefined, ticker, undefined, 100), ['rfqs']);
  await rec.ok('deleteRFQ', tc.deleteRFQ(rfq3));
  await rec.ok('getRFQs', tc.getRFQs(undefined, undefined, ticker, undefined, 100, undefined, undefined, 'self'), ['rfqs']);

  // 4. a block trade proposed by the trader (buyer) to the counterparty (seller), both accept
  const expiration = new Date(Date.now() + 3_600_000).toISOString();
  const proposal = await rec.ok(
    'proposeBlockTrade',
    tc.proposeBlockTrade({ buyer_user_id: ids.trader, seller_user_id: ids.counterparty, market_ticker: ticker, price_centi_cents: 5000, centicount: 1000, maker_side: 'yes', expiration_ts: expiration }),
  );
  await rec.ok('getBlockTradeProposals', tc.getBlockTradeProposals(undefined, ticker), ['block_trade_proposals']);
  await rec.ok('acceptBlockTradeProposal', tc.acceptBlockTradeProposal(proposal.block_trade_proposal_id));
  await rec.ok('acceptBlockTradeProposal', cc.acceptBlockTradeProposal(proposal.block_trade_proposal_id, { subaccount: 0 }));
  await rec.ok('getBlockTradeProposals', cc.getBlockTradeProposals(undefined, ticker), ['block_trade_proposals']);
}

export async function apiKeyOps(rec: Recorder, trader: SdkClient): Promise<void> {
  const k = trader.apiKeys;
  const publicKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const created = await rec.ok('createApiKey', k.createApiKey({ name: 'sdk contract upload', public_key: publicKey, scopes: ['read'] }));
  const generated = await rec.ok('generateApiKey', k.generateApiKey({ name: 'sdk contract generated', subaccount: 1 }));
  await rec.ok('getApiKeys', k.getApiKeys(), ['api_keys']);
  await rec.ok('deleteApiKey', k.deleteApiKey(str(created, 'api_key_id')));
  await rec.ok('deleteApiKey', k.deleteApiKey(generated.api_key_id));
}

export async function accountOps(rec: Recorder, trader: SdkClient): Promise<void> {
  const a = trader.account;
  await rec.ok('getAccountApiLimits', a.getAccountApiLimits());
  await rec.ok('getAccountEndpointCosts', a.getAccountEndpointCosts(), ['endpoint_costs']);
  await rec.ok('getAccountApiUsageLevelVolumeProgress', a.getAccountApiUsageLevelVolumeProgress(), ['volume_progress']);
  // the trader's recent orders came through the API, so the upgrade is granted
  await rec.ok('upgradeAccountApiUsageLevel', a.upgradeAccountApiUsageLevel());
  await rec.ok('getAccountApiLimits', a.getAccountApiLimits(), ['grants']);
}

export async function fcmOps(
  rec: Recorder,
  fcm: SdkClient,
  placeFor: (subtraderId: string) => Promise<void>,
): Promise<void> {
  const f = fcm.fcm;
  const created = await rec.ok('createFCMSubtrader', f.createFCMSubtrader({ subtrader_suffix: `sdk${randomUUID().slice(0, 6)}` }));
  const id = created.subtrader_id;
  await rec.ok('listFCMSubtraders', f.listFCMSubtraders(), ['subtraders']);
  await rec.ok('updateFCMEventContractDailyCap', f.updateFCMEventContractDailyCap({ subtrader_id: id, limit: '500.00' }));
  await placeFor(id);
  await rec.ok('getFCMEventContractDailyCap', f.getFCMEventContractDailyCap(id));
  await rec.ok('getFCMOrders', f.getFCMOrders(id), ['orders']);
  await rec.ok('getFCMPositions', f.getFCMPositions(id), ['market_positions', 'event_positions']);
  await rec.ok('deleteFCMEventContractDailyCap', f.deleteFCMEventContractDailyCap(id));
}
