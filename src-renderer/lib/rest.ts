// Typed calls to any row of the endpoint table through `api.request`; main validates, signs and
// parses the answer with the row's response schema, so the result has the row's output type.
// Only types come from src-shared/endpoints: the schemas stay in main.
import type { EndpointId, Endpoints } from '../../src-shared/endpoints';
import type { EmptyObject, ResponseOut, RowArgs } from '../../src-shared/endpoints/types';
import type { OrderOrigin } from '../../src-shared/ipc/risk';
import { getTerminalApi } from './bridge';
import { noteAnswer } from './ticks';

export type RestArgs<K extends EndpointId> = RowArgs<Endpoints[K]>;
export type RestResult<K extends EndpointId> = ResponseOut<Endpoints[K]>;
export type RestCall<K extends EndpointId> = EmptyObject extends RestArgs<K> ? [args?: RestArgs<K>] : [args: RestArgs<K>];

/** Drops undefined values so optional filters left blank are not sent. */
function compact(obj: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!obj) return undefined;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) if (v !== undefined && v !== '') out[k] = v;
  return Object.keys(out).length ? out : undefined;
}

export async function rest<K extends EndpointId>(id: K, ...a: RestCall<K>): Promise<RestResult<K>> {
  return restAs({}, id, ...a);
}

/** `rest` with its arguments as one value, given or not (query hooks that build them generically). */
export function restCall<K extends EndpointId>(id: K, args?: RestArgs<K>): Promise<RestResult<K>> {
  return (rest as (id: K, args?: RestArgs<K>) => Promise<RestResult<K>>)(id, args);
}

/** Who asked, and whether the trader confirmed: what main's risk gate and audit journal record for exposure rows. */
export interface CallMeta {
  origin?: OrderOrigin;
  confirmed?: boolean;
}

export async function restAs<K extends EndpointId>(meta: CallMeta, id: K, ...a: RestCall<K>): Promise<RestResult<K>> {
  const args = (a[0] ?? {}) as { params?: Record<string, string>; query?: Record<string, unknown>; body?: unknown };
  const input: { id: string; params?: Record<string, string>; query?: Record<string, unknown>; body?: unknown } & CallMeta = { id, ...meta };
  const params = compact(args.params) as Record<string, string> | undefined;
  const query = compact(args.query);
  if (params) input.params = params;
  if (query) input.query = query;
  if (args.body !== undefined) input.body = args.body;
  const answer = await getTerminalApi().request(input);
  if (id === 'getMarkets' || id === 'getMarket' || id === 'getEvent' || id === 'getEvents' || id === 'getHistoricalMarkets' || id === 'getHistoricalMarket') noteAnswer(answer);
  return answer as RestResult<K>;
}

/** Query keys: the row id and its arguments, so related queries can be invalidated by id. */
export function restKey<K extends EndpointId>(id: K, args?: RestArgs<K>): readonly unknown[] {
  return args === undefined ? ['rest', id] : ['rest', id, args];
}
