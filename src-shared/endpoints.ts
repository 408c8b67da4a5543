// The one table of every operation in spec/endpoints.txt. A new endpoint is one row in a
// family file under ./endpoints/; everything else (client, exchange routes, coverage) follows.
import type { AnyEndpoint } from './endpoints/types';
import { exchangeEndpoints } from './endpoints/exchange';

export const endpoints = {
  ...exchangeEndpoints,
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
