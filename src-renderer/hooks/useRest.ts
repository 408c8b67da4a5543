// React Query hooks over the endpoint table.
import { useMemo } from 'react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { EndpointId } from '../../src-shared/endpoints';
import { restCall as call, restKey, type RestArgs, type RestResult } from '../lib/rest';

export interface RestQueryOptions {
  enabled?: boolean;
  staleTime?: number;
  refetchInterval?: number | false;
}

export function useRest<K extends EndpointId>(id: K, args?: RestArgs<K>, opts: RestQueryOptions = {}) {
  return useQuery({
    queryKey: restKey(id, args),
    queryFn: () => call(id, args),
    ...opts,
  });
}

/** A cursor-paginated list read page by page ("Load more"). */
export function useRestPages<K extends EndpointId>(id: K, args: RestArgs<K>, opts: RestQueryOptions & { pageSize?: number; sizeParam?: 'limit' | 'page_size' | null } = {}) {
  const { pageSize = 200, sizeParam = 'limit', ...rest } = opts;
  return useInfiniteQuery({
    queryKey: [...restKey(id, args), 'pages', pageSize],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => {
      const base = args as { query?: Record<string, unknown> };
      const query: Record<string, unknown> = { ...(base.query ?? {}) };
      if (sizeParam) query[sizeParam] = pageSize;
      if (pageParam) query.cursor = pageParam;
      return call(id, { ...(args as object), query } as RestArgs<K>);
    },
    getNextPageParam: (last) => {
      const page = last as { cursor?: string | null; has_next?: boolean };
      return page.cursor && page.has_next !== false ? page.cursor : undefined;
    },
    ...rest,
  });
}

type ArrayKeys<T> = { [P in keyof T]-?: NonNullable<T[P]> extends readonly unknown[] ? P : never }[keyof T];
type ItemOf<T, P extends keyof T> = NonNullable<T[P]> extends readonly (infer I)[] ? I : never;

/** A paged list as rows: every page read so far, flattened by the page's list field. */
export function useRestRows<K extends EndpointId, P extends ArrayKeys<RestResult<K>>>(
  id: K,
  args: RestArgs<K>,
  items: P,
  opts: RestQueryOptions & { pageSize?: number; sizeParam?: 'limit' | 'page_size' | null } = {},
) {
  const pages = useRestPages(id, args, opts);
  const rows = useMemo(
    () => (pages.data?.pages ?? []).flatMap((p) => ((p as RestResult<K>)[items] ?? []) as ItemOf<RestResult<K>, P>[]),
    [pages.data, items],
  );
  return { pages, rows };
}
