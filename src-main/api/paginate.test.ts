import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from './client';
import { collectAll, paginate, paginatePages } from './paginate';
import { fcmFill, json, market, rows, rsaKeys, startServer, type TestServer } from '../../test-support/main/api-server';
import { sampleSeries } from '../../src-shared/wire/samples';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function clientFor(s: TestServer): ApiClient {
  return createApiClient({ profile: { kind: 'embedded', baseUrl: s.origin }, credentials: { keyId: 'k', privateKeyPem: rsaKeys().privateKeyPem } });
}

const queryOf = (url: string) => Object.fromEntries(new URL(url, 'http://x').searchParams);

/** Serves `pages` as cursor pages: page i answers cursor `c<i+1>`, the last page an empty cursor. */
function pagedHandler(key: string, pages: unknown[][], tail: (i: number, last: boolean) => Record<string, unknown> = (i, last) => ({ cursor: last ? '' : `c${i + 1}` })) {
  return (req: { url: string }, res: Parameters<typeof json>[0]) => {
    const cursor = queryOf(req.url)['cursor'];
    const i = cursor ? Number(cursor.slice(1)) : 0;
    json(res, 200, { [key]: pages[i] ?? [], ...tail(i, i >= pages.length - 1) });
  };
}

describe('paginate', () => {
  it('walks three cursor pages, passing the cursor and page size, and reports progress', async () => {
    const pages = [[market('A'), market('B')], [market('C'), market('D')], [market('E')]];
    server = await startServer(pagedHandler('markets', pages));
    const progress: { items: number; pages: number }[] = [];
    const tickers: string[] = [];
    for await (const m of paginate(clientFor(server), rows.getMarkets, { query: { status: 'open' } }, { pageSize: 2, onProgress: (p) => progress.push(p) })) {
      tickers.push(m.ticker);
    }
    expect(tickers).toEqual(['A', 'B', 'C', 'D', 'E']);
    expect(server.requests.map((r) => queryOf(r.url))).toEqual([
      { status: 'open', limit: '2' },
      { status: 'open', limit: '2', cursor: 'c1' },
      { status: 'open', limit: '2', cursor: 'c2' },
    ]);
    expect(progress).toEqual([
      { items: 2, pages: 1 },
      { items: 4, pages: 2 },
      { items: 5, pages: 3 },
    ]);
  });

  it('yields whole pages with their next cursor', async () => {
    server = await startServer(pagedHandler('markets', [[market('A')], [market('B')]]));
    const seen = [];
    for await (const page of paginatePages(clientFor(server), rows.getMarkets)) seen.push([page.index, page.items.length, page.nextCursor]);
    expect(seen).toEqual([
      [0, 1, 'c1'],
      [1, 1, undefined],
    ]);
  });

  it('stops on has_next false even when a cursor is present', async () => {
    server = await startServer(pagedHandler('markets', [[market('A')], [market('B')]], (i) => ({ cursor: `c${i + 1}`, has_next: i < 1 })));
    expect(await collectAll(clientFor(server), rows.getMarkets)).toEqual([market('A'), market('B')]);
    expect(server.requests).toHaveLength(2);
  });

  it('stops on an absent or null cursor, an empty page, and a repeated cursor', async () => {
    server = await startServer(pagedHandler('markets', [[market('A')]], () => ({ cursor: null })));
    expect(await collectAll(clientFor(server), rows.getMarkets)).toHaveLength(1);
    await server.close();

    server = await startServer(pagedHandler('markets', [[market('A')], []], (i) => ({ cursor: `c${i + 1}` })));
    expect(await collectAll(clientFor(server), rows.getMarkets)).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
    await server.close();

    server = await startServer((_req, res) => json(res, 200, { markets: [market('A')], cursor: 'same' }));
    expect(await collectAll(clientFor(server), rows.getMarkets)).toHaveLength(2);
    expect(server.requests).toHaveLength(2);
  });

  it('honours maxPages', async () => {
    server = await startServer(pagedHandler('markets', [[market('A')], [market('B')], [market('C')]]));
    expect(await collectAll(clientFor(server), rows.getMarkets, undefined, { maxPages: 2 })).toHaveLength(2);
    expect(server.requests).toHaveLength(2);
  });

  it('sizes structured-target pages with page_size, not limit', async () => {
    server = await startServer(
      pagedHandler('structured_targets', [[{ structured_target_id: 's1' }], [{ structured_target_id: 's2' }]], (i, last) => ({ cursor: last ? undefined : `c${i + 1}` })),
    );
    const ids = (await collectAll(clientFor(server), rows.getStructuredTargets, undefined, { pageSize: 500 })).map((t) => t.structured_target_id);
    expect(ids).toEqual(['s1', 's2']);
    expect(server.requests.map((r) => queryOf(r.url))).toEqual([{ page_size: '500' }, { page_size: '500', cursor: 'c1' }]);
  });

  it('sends no size parameter for FCM fills', async () => {
    server = await startServer(pagedHandler('fills', [[fcmFill('f1'), fcmFill('f2')], [fcmFill('f3')]]));
    const fills = await collectAll(clientFor(server), rows.getFcmFills, { query: { min_ts: 100 } }, { pageSize: 1000 });
    expect(fills.map((f) => f.fill_id)).toEqual(['f1', 'f2', 'f3']);
    expect(server.requests.map((r) => queryOf(r.url))).toEqual([{ min_ts: '100' }, { min_ts: '100', cursor: 'c1' }]);
  });

  it('treats a plain-array endpoint as one page', async () => {
    server = await startServer((_req, res) => json(res, 200, [{ ...sampleSeries, ticker: 'S1' }, { ...sampleSeries, ticker: 'S2' }]));
    const progress: number[] = [];
    const all = await collectAll(clientFor(server), rows.getSeriesList, undefined, { onProgress: (p) => progress.push(p.items) });
    expect(all.map((x) => x.ticker)).toEqual(['S1', 'S2']);
    expect(progress).toEqual([2]);
    expect(server.requests).toHaveLength(1);
  });

  it('stops when the signal aborts between pages', async () => {
    server = await startServer(pagedHandler('markets', [[market('A')], [market('B')], [market('C')]]));
    const ac = new AbortController();
    const got: string[] = [];
    await expect(
      (async () => {
        for await (const m of paginate(clientFor(server!), rows.getMarkets, undefined, { signal: ac.signal })) {
          got.push(m.ticker);
          ac.abort(new Error('enough'));
        }
      })(),
    ).rejects.toThrow('enough');
    expect(got).toEqual(['A']);
    expect(server.requests).toHaveLength(1);
  });
});
