// Every handler family, merged into one map keyed by endpoint id. A family is a function of
// the services so it can close over the node; a test asserts every row has a handler.
import type { HandlerFamily, HandlerMap } from './support';
import type { Services } from '../core/services';
import { exchangeHandlers } from './exchange';
import { tradingHandlers } from './trading';
import { portfolioHandlers } from './portfolio';
import { accountHandlers } from './account';
import { marketDataHandlers } from './market-data';
import { historicalHandlers } from './historical';
import { liveDataHandlers } from './live-data';
import { communicationsHandlers } from './communications';
import { fcmHandlers } from './fcm';

const families: HandlerFamily[] = [
  exchangeHandlers,
  tradingHandlers,
  portfolioHandlers,
  accountHandlers,
  marketDataHandlers,
  historicalHandlers,
  liveDataHandlers,
  communicationsHandlers,
  fcmHandlers,
];

export function buildHandlers(svc: Services): HandlerMap {
  const all: HandlerMap = {};
  for (const family of families) {
    for (const [id, h] of Object.entries(family(svc))) {
      if (all[id]) throw new Error(`two handlers for ${id}`);
      all[id] = h;
    }
  }
  return all;
}
