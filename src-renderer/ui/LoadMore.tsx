// The footer of a cursor-paged table: one button that fetches the next page, with its progress,
// shown only while there is more.
export interface PagedQuery {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

export function LoadMore({ pages, label = 'Load more', loaded, busyLabel = 'Loading more…' }: { pages: PagedQuery; label?: string; loaded?: number; busyLabel?: string }) {
  if (!pages.hasNextPage) return null;
  return (
    <div className="table-tools">
      <button type="button" className="btn btn-sm" onClick={() => void pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>
        {pages.isFetchingNextPage ? busyLabel : loaded !== undefined ? `${label} (${loaded} loaded)` : label}
      </button>
    </div>
  );
}
