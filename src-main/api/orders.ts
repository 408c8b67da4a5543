// Idempotent order entry. Each draft gets one client_order_id for its whole life. When a send
// may have reached the exchange without an answer (timeout, connection reset, 5xx), the order
// is looked up by that id before anything is resent, and a resend always reuses the id, so a
// lost answer never becomes a second order.
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { EndpointId, Endpoints } from '../../src-shared/endpoints';
import type { AnyEndpoint, BodyIn, ResponseOut } from '../../src-shared/endpoints/types';
import { endpointRow, type ApiClient, type CallOptions, type RowArgs } from './client';
import { ApiError, ArgsValidationError, NetworkError, ResponseShapeError, isTimestampExpired } from './errors';
import { paginatePages, type PageItem } from './paginate';

type RowById<Id extends string> = Id extends EndpointId ? Endpoints[Id] : AnyEndpoint;
type CreateRow = RowById<'createOrder'>;
type ListRow = RowById<'getOrders'>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

type CreateBody = BodyIn<CreateRow>;
/**
 * The exchange's create body without client_order_id (main assigns it, and looks a lost answer up
 * by it). The one draft the UI sends is the IPC's OrderDraft (src-shared/ipc/contract.ts): the
 * trading service takes its meta off and passes the rest as this body.
 */
export type CreateOrderBody = DistributiveOmit<CreateBody, 'client_order_id'>;
export type CreatedOrder = ResponseOut<CreateRow>;
export type ListedOrder = PageItem<ListRow>;

export interface PlacedOrder {
  clientOrderId: string;
  orderId: string;
  /** `create`: the create answer arrived; `lookup`: a lost answer was recovered by listing orders */
  source: 'create' | 'lookup';
  /** how many times the create was sent */
  sends: number;
  /** the create answer, when it arrived */
  created?: CreatedOrder;
  /** the order as listed, when it was found by lookup */
  listed?: ListedOrder;
}

/** The order may or may not exist: the caller must reconcile by client_order_id (fills/user_orders feeds or a later list). */
export class OrderOutcomeUnknownError extends Error {
  override name = 'OrderOutcomeUnknownError';
  constructor(
    readonly clientOrderId: string,
    cause: unknown,
  ) {
    super(`order ${clientOrderId}: outcome unknown after retries (${cause instanceof Error ? cause.message : String(cause)})`, { cause });
  }
}

export type InFlightState = 'sending' | 'checking' | 'waiting';
export interface InFlightOrder {
  clientOrderId: string;
  ticker: string | undefined;
  draft: CreateOrderBody;
  startedAt: number;
  state: InFlightState;
  sends: number;
  lookups: number;
  lastError: string | undefined;
}

/** Orders whose placement has not finished, by client_order_id. */
export class InFlightOrders {
  private readonly map = new Map<string, InFlightOrder>();
  private readonly listeners = new Set<(orders: InFlightOrder[]) => void>();

  list(): InFlightOrder[] {
    return [...this.map.values()].map((o) => ({ ...o }));
  }
  get(clientOrderId: string): InFlightOrder | undefined {
    const o = this.map.get(clientOrderId);
    return o ? { ...o } : undefined;
  }
  get size(): number {
    return this.map.size;
  }
  subscribe(fn: (orders: InFlightOrder[]) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** @internal used by placeOrder */
  add(order: InFlightOrder): void {
    this.map.set(order.clientOrderId, order);
    this.emit();
  }
  /** @internal */
  update(clientOrderId: string, patch: Partial<InFlightOrder>): void {
    const o = this.map.get(clientOrderId);
    if (!o) return;
    Object.assign(o, patch);
    this.emit();
  }
  /** @internal */
  remove(clientOrderId: string): void {
    if (this.map.delete(clientOrderId)) this.emit();
  }
  private emit(): void {
    if (this.listeners.size === 0) return;
    const snapshot = this.list();
    for (const fn of this.listeners) fn(snapshot);
  }
}

export interface PlaceOrderOptions {
  /** at most this many create sends (default 4) */
  maxSends?: number;
  /** at most this many lookups (default 6) */
  maxLookups?: number;
  /** first backoff in ms, doubled per retry up to maxBackoffMs (default 200) */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** the lookup's min_ts is this many seconds before the first send (default 60) */
  lookupWindowSec?: number;
  /** per-request timeout */
  timeoutMs?: number;
  signal?: AbortSignal;
  inflight?: InFlightOrders;
  /** use this id instead of a new UUID (e.g. one persisted before a restart) */
  clientOrderId?: string;
  /** rows to use instead of the table's createOrder / getOrders */
  rows?: { create?: AnyEndpoint; list?: AnyEndpoint };
  /** for every create send (not the lookups): the kill switch's check right before it leaves, and the queue's drop */
  send?: Pick<CallOptions, 'beforeSend' | 'queueSignal'>;
  /** a send with this id may already have reached the exchange: look it up before the first send */
  mayExist?: boolean;
}

type Outcome = 'final' | 'ambiguous' | 'not-sent';

/** What a failed create means for the next step. */
export function classifyCreateFailure(err: unknown): Outcome {
  if (err instanceof ResponseShapeError) return 'ambiguous'; // a 2xx: it exists, the body was unreadable
  if (err instanceof ApiError) {
    if (err.status === 409 && err.code === 'order_already_exists') return 'ambiguous';
    if (err.status === 429 || isTimestampExpired(err)) return 'not-sent';
    if (err.status >= 500) return 'ambiguous';
    return 'final';
  }
  if (err instanceof NetworkError) return err.maybeReachedServer ? 'ambiguous' : 'not-sent';
  return 'final';
}

/** A lookup failure worth retrying (the exchange may answer a moment later). */
export function isTransient(err: unknown): boolean {
  if (err instanceof NetworkError) return true;
  if (err instanceof ResponseShapeError) return false;
  return err instanceof ApiError && (err.status >= 500 || err.status === 429 || isTimestampExpired(err));
}

/** A backoff wait that ends early, rejecting, when the caller aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return delay(ms, undefined, signal ? { signal } : undefined);
}

function stringField(obj: unknown, key: string): string | undefined {
  const v = obj !== null && typeof obj === 'object' ? (obj as Record<string, unknown>)[key] : undefined;
  return typeof v === 'string' ? v : undefined;
}

export interface FindOrderQuery {
  clientOrderId: string;
  ticker?: string | undefined;
  /** created at or after (Unix seconds) */
  minTs?: number | undefined;
  subaccount?: number | undefined;
}

/** Pages through GET /portfolio/orders (filtered by ticker, min_ts, subaccount) until an order carries `clientOrderId`. */
export async function findOrderByClientOrderId(
  client: Pick<ApiClient, 'request'>,
  q: FindOrderQuery,
  opts: { row?: AnyEndpoint; signal?: AbortSignal; timeoutMs?: number; maxPages?: number; pageSize?: number } = {},
): Promise<ListedOrder | undefined> {
  const row = opts.row ?? endpointRow('getOrders');
  const query: Record<string, unknown> = { limit: opts.pageSize ?? 200 };
  if (q.ticker !== undefined) query['ticker'] = q.ticker;
  if (q.minTs !== undefined) query['min_ts'] = q.minTs;
  if (q.subaccount !== undefined) query['subaccount'] = q.subaccount;
  const pages = paginatePages(client, row, { query } as RowArgs<AnyEndpoint>, {
    maxPages: opts.maxPages ?? 50,
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(opts.timeoutMs !== undefined ? { call: { timeoutMs: opts.timeoutMs } } : {}),
  });
  for await (const page of pages) {
    const hit = page.items.find((o) => stringField(o, 'client_order_id') === q.clientOrderId);
    if (hit !== undefined) return hit as ListedOrder;
  }
  return undefined;
}

/** What one placeOrder works with: its rows and limits, the body with its client_order_id, and where a lookup searches. */
function placePlan(client: Pick<ApiClient, 'clock'>, draft: CreateOrderBody, opts: PlaceOrderOptions) {
  const createRow = opts.rows?.create ?? endpointRow('createOrder');
  const listRow = opts.rows?.list ?? endpointRow('getOrders');
  const maxSends = opts.maxSends ?? 4;
  const maxLookups = opts.maxLookups ?? 6;
  const inflight = opts.inflight ?? new InFlightOrders();
  const { signal } = opts;

  const clientOrderId = opts.clientOrderId ?? randomUUID();
  const body = { ...(draft as Record<string, unknown>), client_order_id: clientOrderId };
  const ticker = stringField(draft, 'ticker');
  const subaccountRaw = (draft as { subaccount?: unknown }).subaccount;
  const subaccount = typeof subaccountRaw === 'number' ? subaccountRaw : undefined;
  const minTs = Math.floor(client.clock.now() / 1000) - (opts.lookupWindowSec ?? 60);
  const callOpts = { idempotent: true, ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}), ...(signal ? { signal } : {}) };
  return { createRow, listRow, maxSends, maxLookups, inflight, clientOrderId, body, ticker, subaccount, minTs, callOpts };
}

/** The wait before try n: doubling from backoffMs up to maxBackoffMs, with up to a fifth more at random; ends early on abort. */
function backoffFor(opts: PlaceOrderOptions): (n: number) => Promise<void> {
  const baseBackoff = opts.backoffMs ?? 200;
  const maxBackoff = opts.maxBackoffMs ?? 3000;
  return (n: number) => {
    const ms = Math.min(maxBackoff, baseBackoff * 2 ** Math.max(0, n - 1));
    return sleep(ms + Math.random() * ms * 0.2, opts.signal);
  };
}

/**
 * Places an order exactly once. Assigns a client_order_id, sends the create, and after an
 * ambiguous failure looks the order up by that id before resending it (with the same id).
 * A 4xx other than 429 / an expired timestamp is final and thrown as is.
 */
export async function placeOrder(client: Pick<ApiClient, 'request' | 'clock'>, draft: CreateOrderBody, opts: PlaceOrderOptions = {}): Promise<PlacedOrder> {
  const { createRow, listRow, maxSends, maxLookups, inflight, clientOrderId, body, ticker, subaccount, minTs, callOpts } = placePlan(client, draft, opts);
  const { signal } = opts;
  const backoff = backoffFor(opts);

  let sends = 0;
  let lookups = 0;
  let mustLookUp = opts.mayExist === true;
  /** a send may have created the order and no lookup has ruled it out since */
  let maybeExists = opts.mayExist === true;
  let lastError: unknown;
  inflight.add({ clientOrderId, ticker, draft, startedAt: Date.now(), state: 'sending', sends: 0, lookups: 0, lastError: undefined });
  const note = (patch: Partial<InFlightOrder>) => inflight.update(clientOrderId, patch);
  const failedWith = (err: unknown) => {
    lastError = err;
    note({ lastError: err instanceof Error ? err.message : String(err) });
  };

  try {
    for (;;) {
      if (mustLookUp) {
        if (lookups >= maxLookups) throw new OrderOutcomeUnknownError(clientOrderId, lastError);
        lookups++;
        note({ state: 'checking', lookups });
        let listed: ListedOrder | undefined;
        try {
          listed = await findOrderByClientOrderId(client, { clientOrderId, ticker, minTs, subaccount }, {
            row: listRow,
            ...(signal ? { signal } : {}),
            ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
          });
        } catch (err) {
          if (signal?.aborted) throw err;
          if (!isTransient(err)) throw new OrderOutcomeUnknownError(clientOrderId, err);
          failedWith(err);
          note({ state: 'waiting' });
          await backoff(lookups);
          continue;
        }
        if (listed !== undefined) {
          return { clientOrderId, orderId: stringField(listed, 'order_id') ?? '', source: 'lookup', sends, listed };
        }
        mustLookUp = false; // definitely not there: safe to send again
        maybeExists = false;
      }

      if (sends >= maxSends) throw lastError;
      // a caller who gave up before this send is told so, with nothing sent
      signal?.throwIfAborted();
      sends++;
      maybeExists = true;
      note({ state: 'sending', sends });
      try {
        const created = (await client.request(createRow, { body } as RowArgs<AnyEndpoint>, { ...callOpts, ...opts.send })) as CreatedOrder;
        return { clientOrderId, orderId: stringField(created, 'order_id') ?? '', source: 'create', sends, created };
      } catch (err) {
        if (signal?.aborted) throw err;
        const outcome = err instanceof ArgsValidationError ? 'final' : classifyCreateFailure(err);
        if (outcome === 'final') {
          maybeExists = false;
          throw err;
        }
        failedWith(err);
        if (outcome === 'ambiguous') mustLookUp = true;
        else maybeExists = false;
        note({ state: 'waiting' });
        await backoff(sends);
      }
    }
  } catch (err) {
    // Cancelled by the caller while a send may have landed: say so instead of a bare abort.
    if (signal?.aborted && maybeExists && !(err instanceof OrderOutcomeUnknownError)) throw new OrderOutcomeUnknownError(clientOrderId, err);
    throw err;
  } finally {
    inflight.remove(clientOrderId);
  }
}

export interface BatchEntry {
  draft: CreateOrderBody;
  clientOrderId: string;
}
export type BatchSlot = { ok: true; placed: PlacedOrder } | { ok: false; error: unknown };

/**
 * Places several orders with the exchange's batch create, `perBatch` at a time (what the write
 * bucket holds), keeping placeOrder's promise: each order has its client_order_id for life, and
 * after a batch whose answer was lost each is looked up by that id before anything is resent
 * (placeOrder does it, one by one). An entry the exchange refused is reported in its slot.
 */
export async function placeOrderBatch(
  client: Pick<ApiClient, 'request' | 'clock'>,
  entries: readonly BatchEntry[],
  opts: PlaceOrderOptions & { perBatch: number; batchRow?: AnyEndpoint },
): Promise<BatchSlot[]> {
  const row = opts.batchRow ?? endpointRow('batchCreateOrders');
  const inflight = opts.inflight ?? new InFlightOrders();
  const per = Math.max(1, Math.floor(opts.perBatch));
  const chunks: BatchEntry[][] = [];
  for (let i = 0; i < entries.length; i += per) chunks.push(entries.slice(i, i + per));
  const results = await Promise.all(chunks.map((chunk) => sendChunk(client, row, chunk, { ...opts, inflight })));
  return results.flat();
}

async function sendChunk(client: Pick<ApiClient, 'request' | 'clock'>, row: AnyEndpoint, chunk: BatchEntry[], opts: PlaceOrderOptions & { inflight: InFlightOrders }): Promise<BatchSlot[]> {
  const { inflight } = opts;
  const startedAt = Date.now();
  for (const e of chunk) inflight.add({ clientOrderId: e.clientOrderId, ticker: stringField(e.draft, 'ticker'), draft: e.draft, startedAt, state: 'sending', sends: 1, lookups: 0, lastError: undefined });
  const one = (e: BatchEntry, mayExist: boolean): Promise<BatchSlot> =>
    placeOrder(client, e.draft, { ...opts, clientOrderId: e.clientOrderId, mayExist }).then(
      (placed) => ({ ok: true, placed }),
      (error: unknown) => ({ ok: false, error }),
    );
  let answer: { orders: Record<string, unknown>[] | null };
  try {
    const body = { orders: chunk.map((e) => ({ ...(e.draft as Record<string, unknown>), client_order_id: e.clientOrderId })) };
    const callOpts = { idempotent: true, ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}), ...(opts.signal ? { signal: opts.signal } : {}), ...opts.send };
    answer = (await client.request(row, { body } as RowArgs<AnyEndpoint>, callOpts)) as typeof answer;
  } catch (err) {
    for (const e of chunk) inflight.remove(e.clientOrderId);
    const outcome = err instanceof ArgsValidationError ? 'final' : classifyCreateFailure(err);
    if (outcome === 'final' || opts.signal?.aborted) return chunk.map(() => ({ ok: false, error: err }));
    // the batch may have landed in part: each one looked up (ambiguous) or sent again (not sent), with its own id
    return Promise.all(chunk.map((e) => one(e, outcome === 'ambiguous')));
  }
  const list = answer.orders ?? [];
  return Promise.all(
    chunk.map(async (e, i): Promise<BatchSlot> => {
      const r = list.find((x) => x.client_order_id === e.clientOrderId) ?? list[i];
      if (!r) {
        inflight.remove(e.clientOrderId);
        return one(e, true); // the answer left it out: look it up
      }
      inflight.remove(e.clientOrderId);
      const err = r.error as { code?: string; message?: string; details?: string } | null | undefined;
      if (err) {
        const error = new ApiError({ status: 400, code: err.code ?? 'batch_entry_error', message: err.message ?? 'refused', details: err.details, requestId: undefined, method: row.method, path: row.path, rawBody: undefined });
        return { ok: false, error };
      }
      const created = { ...r, fill_count: String(r.fill_count ?? r.fill_count_fp ?? '0'), remaining_count: String(r.remaining_count ?? r.remaining_count_fp ?? '0') } as unknown as CreatedOrder;
      return { ok: true, placed: { clientOrderId: e.clientOrderId, orderId: stringField(r, 'order_id') ?? '', source: 'create', sends: 1, created } };
    }),
  );
}
