// The data dictionary shipped for QuickFIX-style engines (docs/fix/KalshiFIX50SP2.xml, README FIX)
// declares every field the acceptor puts in its reports, where it puts them: a stock FIX 5.0 SP2
// dictionary allows AllocAccount (79) only inside NoAllocs, so engines reject every report unless
// given this one.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { FillView, OrderView, SettlementView } from '../engine/types';
import { execReport, fillReport, type Fields, type FixTrader } from './orders';
import { settlementReport } from './post-trade';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const xml = readFileSync(path.join(ROOT, 'docs/fix/KalshiFIX50SP2.xml'), 'utf8');
const fields = new Map([...xml.matchAll(/<field number="(\d+)" name="(\w+)"/g)].map((m) => [Number(m[1]), m[2]!]));

/** A message's field names: its top level, and each group's members under the group's name. */
function message(msgType: string): { top: Set<string>; groups: Map<string, Set<string>>; required: string[] } {
  const body = new RegExp(`<message name="\\w+" msgtype="${msgType}" msgcat="app">([\\s\\S]*?)</message>`).exec(xml)?.[1];
  if (body === undefined) throw new Error(`no message ${msgType} in the dictionary`);
  const groups = new Map<string, Set<string>>();
  for (const g of body.matchAll(/<group name="(\w+)"[^>]*>([\s\S]*?)<\/group>/g)) groups.set(g[1]!, new Set([...g[2]!.matchAll(/name="(\w+)"/g)].map((m) => m[1]!)));
  const topText = body.replace(/<group[\s\S]*?<\/group>/g, '');
  const top = new Set([...topText.matchAll(/<field name="(\w+)"/g)].map((m) => m[1]!));
  for (const g of groups.keys()) top.add(g);
  const required = [...topText.matchAll(/<field name="(\w+)" required="Y"/g)].map((m) => m[1]!);
  return { top, groups, required };
}

/** Every tag of `body` is declared in message `msgType` (a group's members after its count tag). */
function check(msgType: string, body: Fields): void {
  const m = message(msgType);
  let group: Set<string> | null = null;
  for (const [tag] of body) {
    const name = fields.get(tag);
    expect(name, `tag ${tag} is defined in <fields>`).toBeDefined();
    if (group?.has(name!)) continue;
    group = m.groups.get(name!) ?? null;
    expect(m.top.has(name!), `${name} (${tag}) at the top level of ${msgType}`).toBe(true);
  }
  const present = new Set(body.map(([tag]) => fields.get(tag)));
  for (const r of m.required) expect(present.has(r), `required ${r} in ${msgType}`).toBe(true);
}

const trader: FixTrader = { userId: 'u', subaccount: null, canWrite: true, useDollars: false };
const order = {
  order_id: 'o1', user_id: 'u', client_order_id: 'c1', ticker: 'T-1', event_ticker: 'T', side: 'bid', outcome_side: 'yes', action: 'buy', type: 'limit',
  status: 'resting', yes_price: 1400, no_price: 8600, fill_count: 100, remaining_count: 100, initial_count: 200, taker_fill_cost: 0, maker_fill_cost: 1400 * 100,
  taker_fees: 0, maker_fees: 0, created_time: 1, last_update_time: 2, expiration_time: null, time_in_force: 'good_till_canceled',
  self_trade_prevention_type: 'taker_at_cross', order_group_id: null, subaccount: 3, post_only: false, exchange_index: 0,
} as unknown as OrderView;
const fill = { trade_id: 'tr1', order_id: 'o1', yes_price: 1400, count: 100, is_taker: false } as unknown as FillView;
const settlement = { user_id: 'u', subaccount: 0, ticker: 'T-1', market_result: 'yes', settled_at: 1_700_000_000, yes_count: 200, no_count: 0, revenue: 2_000_000, value: 10_000 } as unknown as SettlementView;

describe('the shipped FIX 5.0 SP2 dictionary (docs/fix/KalshiFIX50SP2.xml)', () => {
  it('declares every field of the acceptor\'s ExecutionReports at the top level, AllocAccount (79) included', () => {
    for (const execType of ['0', '4', '5']) check('8', execReport(order, execType, trader));
    check('8', fillReport(order, fill, trader));
    expect(execReport(order, '0', trader).some(([tag]) => tag === 79)).toBe(true);
    for (const name of ['AllocAccount', 'LongQty', 'ShortQty']) expect(message('8').top.has(name)).toBe(true);
  });

  it('declares the MarketSettlementReport (UMS) with its party and collateral groups', () => {
    check('UMS', settlementReport(settlement, trader));
  });
});
