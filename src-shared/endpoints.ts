// The one table of every operation in docs/spec/endpoints.txt. A new endpoint is one row in a
// family file under ./endpoints/; everything else (client, exchange routes, coverage) follows.
import type { AnyEndpoint } from './endpoints/types';
import { exchangeEndpoints } from './endpoints/exchange';
import { apiKeyEndpoints } from './endpoints/api-keys';
import { orderEndpoints } from './endpoints/orders';
import { orderGroupEndpoints } from './endpoints/order-groups';
import { portfolioEndpoints } from './endpoints/portfolio';
import { subaccountEndpoints } from './endpoints/subaccounts';
import { communicationsEndpoints } from './endpoints/communications';
import { fcmEndpoints } from './endpoints/fcm';
import { accountEndpoints } from './endpoints/account';
import { marketEndpoints } from './endpoints/markets';
import { seriesEventEndpoints } from './endpoints/series-events';
import { historicalEndpoints } from './endpoints/historical';
import { liveDataEndpoints } from './endpoints/live-data';

/**
 * Response normalisation (see docs/spec/protocol-notes.md, "Where the spec and the official SDK disagree"):
 * every row's response schema reads both the spec's and the SDK's form and outputs ONE shape.
 * Plain-array answers come out as the SDK's envelope so there is always an items key:
 * GET /series -> { series }, /series/fee_changes -> { series_fee_change_arr },
 * /portfolio/order_groups -> { order_groups }, /markets/candlesticks -> { markets },
 * /live_data/batch -> { live_datas }, /portfolio/orders/queue_positions -> { queue_positions },
 * forecast percentile history -> { percentile_points } (flat spec points). A single queue position
 * comes out as its decimal text. Renamed ids and fields come out in the spec's spelling.
 */
export const endpoints = {
  ...exchangeEndpoints,
  ...apiKeyEndpoints,
  ...orderEndpoints,
  ...orderGroupEndpoints,
  ...portfolioEndpoints,
  ...subaccountEndpoints,
  ...communicationsEndpoints,
  ...fcmEndpoints,
  ...accountEndpoints,
  ...marketEndpoints,
  ...seriesEventEndpoints,
  ...historicalEndpoints,
  ...liveDataEndpoints,
} as const;

export type Endpoints = typeof endpoints;
export type EndpointId = keyof Endpoints;

export const endpointList: readonly AnyEndpoint[] = Object.values(endpoints) as AnyEndpoint[];

/** "GET /markets/{ticker}" -> row. */
export function endpointKey(e: Pick<AnyEndpoint, 'method' | 'path'>): string {
  return `${e.method} ${e.path}`;
}

export const API_PREFIX = '/trade-api/v2';
export const WS_PATH = '/trade-api/ws/v2';

/** A row of the table by id, or a clear error: the table is the one source of every route. */
export function endpointRow(id: string): AnyEndpoint {
  const row = (endpoints as Record<string, AnyEndpoint | undefined>)[id];
  if (!row) throw new Error(`the endpoint table has no ${id} row`);
  return row;
}
