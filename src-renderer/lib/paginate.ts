// Walks a cursor-paginated row to the end, reporting progress and stopping when asked.
import type { EndpointId } from '../../src-shared/endpoints';
import { rest, type RestArgs, type RestResult } from './rest';

export interface PageProgress {
  pages: number;
  items: number;
  done: boolean;
}

export interface WalkOptions {
  /** the key of the items array in the page */
  items: string;
  /** page size; `page_size` for rows that use it */
  pageSize?: number;
  sizeParam?: 'limit' | 'page_size' | null;
  maxItems?: number;
  signal?: AbortSignal;
  onPage?: (rows: unknown[], progress: PageProgress) => void;
  /** injectable for tests */
  fetchPage?: (query: Record<string, unknown>) => Promise<Record<string, unknown>>;
}

export class WalkCanceled extends Error {
  override name = 'WalkCanceled';
  constructor(readonly rows: unknown[]) {
    super(`stopped after ${rows.length} rows`);
  }
}

export async function walkPages<K extends EndpointId>(id: K, args: RestArgs<K>, options: WalkOptions): Promise<unknown[]> {
  const base = (args as { query?: Record<string, unknown> }).query ?? {};
  const sizeParam = options.sizeParam === undefined ? 'limit' : options.sizeParam;
  const fetchPage =
    options.fetchPage ??
    (async (query: Record<string, unknown>) =>
      (await rest(id, ...([{ ...(args as object), query }] as unknown as [RestArgs<K>]))) as unknown as Record<string, unknown>);
  const rows: unknown[] = [];
  let cursor: string | undefined;
  let pages = 0;
  for (;;) {
    if (options.signal?.aborted) throw new WalkCanceled(rows);
    const query: Record<string, unknown> = { ...base };
    if (sizeParam) query[sizeParam] = options.pageSize ?? (sizeParam === 'page_size' ? 2000 : 1000);
    if (cursor) query.cursor = cursor;
    const page = await fetchPage(query);
    pages += 1;
    const items = Array.isArray(page[options.items]) ? (page[options.items] as unknown[]) : [];
    rows.push(...items);
    const next = typeof page.cursor === 'string' && page.cursor ? page.cursor : undefined;
    const hitMax = options.maxItems !== undefined && rows.length >= options.maxItems;
    const done = !next || items.length === 0 || page.has_next === false || hitMax || next === cursor;
    options.onPage?.(items, { pages, items: rows.length, done });
    if (done) return rows;
    cursor = next;
  }
}

export type PageOf<K extends EndpointId> = RestResult<K>;
