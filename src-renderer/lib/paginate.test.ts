import { describe, expect, it } from 'vitest';
import { walkPages, WalkCanceled } from './paginate';

describe('walking cursor pages', () => {
  const pages: Record<string, { items: number[]; cursor: string | null }> = {
    '': { items: [1, 2], cursor: 'c1' },
    c1: { items: [3, 4], cursor: 'c2' },
    c2: { items: [5], cursor: null },
  };
  const fetchPage = async (q: Record<string, unknown>) => {
    const p = pages[(q.cursor as string | undefined) ?? '']!;
    return { trades: p.items, cursor: p.cursor };
  };

  it('follows the cursor to the end and reports progress per page', async () => {
    const progress: number[] = [];
    const rows = await walkPages('getTrades', { query: { ticker: 'T' } }, { items: 'trades', fetchPage, onPage: (_r, p) => progress.push(p.items) });
    expect(rows).toEqual([1, 2, 3, 4, 5]);
    expect(progress).toEqual([2, 4, 5]);
  });

  it('sends the page size and the caller filters', async () => {
    const seen: Record<string, unknown>[] = [];
    await walkPages('getTrades', { query: { ticker: 'T' } }, { items: 'trades', pageSize: 2, fetchPage: async (q) => (seen.push(q), fetchPage(q)) });
    expect(seen[0]).toEqual({ ticker: 'T', limit: 2 });
    expect(seen[1]).toEqual({ ticker: 'T', limit: 2, cursor: 'c1' });
  });

  it('stops at maxItems', async () => {
    expect(await walkPages('getTrades', {}, { items: 'trades', maxItems: 3, fetchPage })).toEqual([1, 2, 3, 4]);
  });

  it('stops when canceled, keeping what it has', async () => {
    const ctl = new AbortController();
    const err = await walkPages('getTrades', {}, { items: 'trades', signal: ctl.signal, fetchPage, onPage: () => ctl.abort() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WalkCanceled);
    expect((err as WalkCanceled).rows).toEqual([1, 2]);
  });
});
