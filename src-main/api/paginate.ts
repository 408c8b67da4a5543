// Cursor pagination over any row with a `page` spec. The row says which response key holds
// the items and which query key sizes a page (`limit`, `page_size` for structured targets,
// none for FCM fills). A row without a `page` spec (a plain array) is one page.
import type { EndpointId, Endpoints } from '../../src-shared/endpoints';
import type { AnyEndpoint, ResponseOut } from '../../src-shared/endpoints/types';
import { endpointRow, type ApiClient, type CallOptions, type RowArgs } from './client';

export type RowRef = EndpointId | AnyEndpoint;
export type RowOf<R> = R extends EndpointId ? Endpoints[R] : R;

type ElementOf<T> = T extends readonly (infer U)[] ? U : never;
/** The item type of a list response: its elements if it is an array, else the elements of its array-valued keys. */
export type PageItem<E> =
  unknown extends ResponseOut<E>
    ? unknown
    : ResponseOut<E> extends readonly (infer U)[]
      ? U
      : { [K in keyof ResponseOut<E>]-?: ElementOf<NonNullable<ResponseOut<E>[K]>> }[keyof ResponseOut<E>];

export interface Page<E> {
  /** 0-based page number */
  index: number;
  items: PageItem<E>[];
  response: ResponseOut<E>;
  /** cursor for the next page, undefined on the last */
  nextCursor: string | undefined;
}

export interface PaginateOptions {
  /** sets the row's size parameter when the caller's query does not (ignored for rows without one) */
  pageSize?: number;
  /** stop after this many pages */
  maxPages?: number;
  signal?: AbortSignal;
  /** called after each page with the totals so far */
  onProgress?: (progress: { items: number; pages: number }) => void;
  /** per-request options (timeout) */
  call?: Omit<CallOptions, 'signal'>;
}

type Requester = Pick<ApiClient, 'request'>;

function itemsOf(row: AnyEndpoint, response: unknown): unknown[] {
  if (Array.isArray(response)) return response;
  const obj = response !== null && typeof response === 'object' ? (response as Record<string, unknown>) : undefined;
  if (row.page) {
    const items = obj?.[row.page.items];
    if (items === undefined || items === null) return [];
    if (!Array.isArray(items)) throw new Error(`${row.id}: response key ${row.page.items} is not an array`);
    return items;
  }
  const arrays = obj ? Object.values(obj).filter(Array.isArray) : [];
  if (arrays.length === 1) return arrays[0]!;
  throw new Error(`${row.id} is not a list endpoint: its response is neither an array nor an object with one array`);
}

/** Walks the pages of a list endpoint, following `cursor` until it is absent, repeats, or `has_next` is false. */
export async function* paginatePages<R extends RowRef>(
  client: Requester,
  ref: R,
  args?: RowArgs<RowOf<R>>,
  opts: PaginateOptions = {},
): AsyncGenerator<Page<RowOf<R>>, void, undefined> {
  const row: AnyEndpoint = typeof ref === 'string' ? endpointRow(ref) : (ref as AnyEndpoint);
  const base = (args ?? {}) as { params?: unknown; query?: Record<string, unknown>; body?: unknown };
  const query: Record<string, unknown> = { ...(base.query ?? {}) };
  const sizeParam = row.page?.sizeParam;
  if (opts.pageSize !== undefined && sizeParam && query[sizeParam] === undefined) query[sizeParam] = opts.pageSize;

  const seen = new Set<string>();
  let cursor = typeof query['cursor'] === 'string' ? query['cursor'] : undefined;
  let total = 0;
  for (let index = 0; ; index++) {
    opts.signal?.throwIfAborted();
    const pageArgs = { ...base, query: cursor === undefined ? query : { ...query, cursor } };
    const response = await client.request(row, pageArgs as RowArgs<AnyEndpoint>, { ...opts.call, ...(opts.signal ? { signal: opts.signal } : {}) });
    const items = itemsOf(row, response);
    total += items.length;

    const tail = (row.page && response !== null && typeof response === 'object' ? response : {}) as { cursor?: unknown; has_next?: unknown };
    const next = typeof tail.cursor === 'string' && tail.cursor !== '' ? tail.cursor : undefined;
    const more =
      row.page !== undefined &&
      next !== undefined &&
      tail.has_next !== false &&
      !seen.has(next) &&
      // an empty page ends the walk unless the server says explicitly that more follow
      (items.length > 0 || tail.has_next === true) &&
      (opts.maxPages === undefined || index + 1 < opts.maxPages);

    opts.onProgress?.({ items: total, pages: index + 1 });
    yield { index, items: items as PageItem<RowOf<R>>[], response: response as ResponseOut<RowOf<R>>, nextCursor: more ? next : undefined };
    if (!more) return;
    if (cursor !== undefined) seen.add(cursor);
    seen.add(next);
    cursor = next;
  }
}

/** Every item of every page: `for await (const m of paginate(client, 'getMarkets', { query }))`. */
export async function* paginate<R extends RowRef>(
  client: Requester,
  ref: R,
  args?: RowArgs<RowOf<R>>,
  opts: PaginateOptions = {},
): AsyncGenerator<PageItem<RowOf<R>>, void, undefined> {
  for await (const page of paginatePages(client, ref, args, opts)) yield* page.items;
}

/** Collects every item (bounded by `maxPages` if given). */
export async function collectAll<R extends RowRef>(
  client: Requester,
  ref: R,
  args?: RowArgs<RowOf<R>>,
  opts: PaginateOptions = {},
): Promise<PageItem<RowOf<R>>[]> {
  const out: PageItem<RowOf<R>>[] = [];
  for await (const page of paginatePages(client, ref, args, opts)) out.push(...page.items);
  return out;
}
