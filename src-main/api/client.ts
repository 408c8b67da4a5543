// The REST client: one typed method per row of the shared endpoint table. A call validates
// its arguments with the row's schemas (nothing is sent when they fail), builds the URL,
// waits for rate-limit tokens, signs signed rows with a clock-corrected timestamp, and parses
// the answer with the row's response schema.
import type { z } from 'zod';
import { endpointRow, endpoints, type EndpointId, type Endpoints } from '../../src-shared/endpoints';
import type { AnyEndpoint, ArrayStyle, EmptyObject, ResponseOut, RowArgs } from '../../src-shared/endpoints/types';
import { ClockSync } from './clock';
import { ApiError, ArgsValidationError, NetworkError, ResponseShapeError, TimeoutError, formatIssues, isTimestampExpired, requestIdOf } from './errors';
import type { RateLimiter } from './limiter';
import { resolveProfile, type Profile, type ProfileInput } from './profiles';
import { createSigner, signaturePath, type Credentials, type Signer } from './signer';

export const DEFAULT_TIMEOUT_MS = 10_000;
/**
 * A request signed before it waited for its rate-limit token is signed again if the wait was
 * longer than this: the exchange refuses a timestamp more than 5 s off its clock.
 */
export const RESIGN_AFTER_MS = 2_000;

export type { RowArgs } from '../../src-shared/endpoints/types';
/** The argument list of a row's method: `args` may be left out when nothing in it is required. */
export type MethodArgs<E> = EmptyObject extends RowArgs<E> ? [args?: RowArgs<E>, opts?: CallOptions] : [args: RowArgs<E>, opts?: CallOptions];
export type EndpointMethod<E> = (...a: MethodArgs<E>) => Promise<ResponseOut<E>>;
export type EndpointMethods = { readonly [K in EndpointId]: EndpointMethod<Endpoints[K]> };

export interface CallOptions {
  signal?: AbortSignal;
  /** overrides the client's timeout for this call */
  timeoutMs?: number;
  /**
   * The request may be repeated without a duplicate effect (a create carrying a
   * client_order_id). Reads always may. Enables the single retry after a clock-skew 401.
   */
  idempotent?: boolean;
  /**
   * Called after the wait for rate-limit tokens and the signing, right before the request leaves
   * (every attempt): throwing stops it with nothing sent. The kill switch's last word on a send.
   */
  beforeSend?: () => void;
  /** aborts only the wait for tokens (a queued send dropped); a request already sent runs on */
  queueSignal?: AbortSignal;
  /** waits for tokens ahead of every queued request (the kill switch's cancel-all) */
  priority?: boolean;
}

export interface ApiClientOptions {
  profile: ProfileInput | Profile;
  credentials?: Credentials;
  fetch?: typeof globalThis.fetch;
  timeoutMs?: number;
  limiter?: RateLimiter;
  clock?: ClockSync;
  /** every HTTP answer, by status, as it arrives (the session hears from it that the exchange is up) */
  onAnswer?: (status: number) => void;
}

export interface ApiClientCore {
  readonly profile: Profile;
  readonly clock: ClockSync;
  readonly limiter: RateLimiter | undefined;
  readonly signer: Signer | undefined;
  /** Calls a row of the table by id. */
  call<K extends EndpointId>(id: K, ...a: MethodArgs<Endpoints[K]>): Promise<ResponseOut<Endpoints[K]>>;
  /** Calls any row, including one not (yet) in the table. */
  request<E extends AnyEndpoint>(row: E, args?: RowArgs<E>, opts?: CallOptions): Promise<ResponseOut<E>>;
  /** Signed headers for the WebSocket upgrade, with the clock-corrected timestamp. */
  wsHeaders(): Record<string, string>;
}

export type ApiClient = EndpointMethods & ApiClientCore;

/** A custom issue for argument errors the schemas cannot express. */
function issue(message: string, path: PropertyKey[] = []): z.core.$ZodIssue {
  return { code: 'custom', message, path, input: undefined } as z.core.$ZodIssue;
}

function parsePart(row: AnyEndpoint, part: 'params' | 'query' | 'body', schema: z.ZodType, value: unknown): unknown {
  const r = schema.safeParse(value);
  if (!r.success) throw new ArgsValidationError(row.id, part, r.error.issues);
  return r.data;
}

export interface ValidatedArgs {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  /** undefined when the row takes no body */
  body: unknown;
}

/** Runs a call's arguments through the row's schemas; throws ArgsValidationError on the first bad part. */
export function validateArgs(row: AnyEndpoint, args: { params?: unknown; query?: unknown; body?: unknown } = {}): ValidatedArgs {
  const params = parsePart(row, 'params', row.params, args.params ?? {}) as Record<string, unknown>;
  const query = parsePart(row, 'query', row.query, args.query ?? {}) as Record<string, unknown>;
  let body: unknown;
  if (row.body === null) {
    if (args.body !== undefined) throw new ArgsValidationError(row.id, 'body', [issue('this endpoint takes no request body')]);
  } else {
    // Body-taking rows always send JSON: an omitted optional body goes as `{}`.
    body = parsePart(row, 'body', row.body, args.body) ?? {};
  }
  return { params, query, body };
}

const enc = encodeURIComponent;

/** Fills `{name}` path parameters (percent-encoded) and appends the query in the row's array styles. */
export function buildPath(
  row: Pick<AnyEndpoint, 'id' | 'path' | 'arrays'>,
  params: Record<string, unknown>,
  query: Record<string, unknown>,
): string {
  const path = row.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const v = params[name];
    if (v === undefined || v === null || v === '') throw new ArgsValidationError(row.id, 'params', [issue(`path parameter ${name} is required`, [name])]);
    return enc(String(v));
  });
  const pairs: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      const items = value.filter((v) => v !== undefined && v !== null).map((v) => enc(String(v)));
      if (items.length === 0) continue;
      const style: ArrayStyle = row.arrays?.[key] ?? 'repeat';
      if (style === 'comma') pairs.push(`${enc(key)}=${items.join(',')}`);
      else for (const item of items) pairs.push(`${enc(key)}=${item}`);
    } else {
      pairs.push(`${enc(key)}=${enc(String(value))}`);
    }
  }
  return pairs.length ? `${path}?${pairs.join('&')}` : path;
}

/** The table's row for an id; throws a clear error for an id the table does not (yet) have. */
export { endpointRow };

function isResolvedProfile(p: ProfileInput | Profile): p is Profile {
  const r = p as Partial<Profile>;
  return typeof r.baseUrl === 'string' && typeof r.wsUrl === 'string' && typeof r.headerPrefix === 'string' && typeof r.name === 'string';
}

interface Exchange {
  res: Response;
  text: string;
  sentAt: number;
  receivedAt: number;
}

/** One HTTP exchange, body included, under the timeout. */
async function send(doFetch: typeof fetch, url: string, init: RequestInit, method: string, path: string, timeoutMs: number, signal: AbortSignal | undefined): Promise<Exchange> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  const sentAt = Date.now();
  try {
    // never follow a redirect: fetch would carry the signed headers to wherever it points
    const res = await doFetch(url, { ...init, signal: combined, redirect: 'manual' });
    const text = await res.text();
    return { res, text, sentAt, receivedAt: Date.now() };
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    if (timeout.aborted) throw new TimeoutError(method, path, timeoutMs, err);
    throw new NetworkError(method, path, err);
  }
}

/** The answer's body, parsed and checked against the row's schema. */
function parseResponse<E extends AnyEndpoint>(row: E, x: Exchange, path: string): ResponseOut<E> {
  const base = { status: x.res.status, requestId: requestIdOf(x.res.headers), method: row.method, path };
  const empty = x.text.trim() === '';
  let json: unknown;
  if (!empty) {
    try {
      json = JSON.parse(x.text);
    } catch {
      const snippet = x.text.length > 200 ? `${x.text.slice(0, 200)}...` : x.text;
      throw new ResponseShapeError({ ...base, message: `${row.id}: response body is not JSON: ${snippet}`, rawBody: snippet });
    }
  }
  let r = row.response.safeParse(json);
  // An empty 2xx (204 and friends) may meet a schema that wants an empty object.
  if (!r.success && empty) r = row.response.safeParse({});
  if (!r.success) {
    throw new ResponseShapeError({ ...base, message: `${row.id}: response does not match the schema: ${formatIssues(r.error.issues)}`, issues: r.error.issues });
  }
  return r.data as ResponseOut<E>;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const profile = isResolvedProfile(options.profile) ? options.profile : resolveProfile(options.profile);
  const signer = options.credentials ? createSigner({ credentials: options.credentials, headerPrefix: profile.headerPrefix }) : undefined;
  const clock = options.clock ?? new ClockSync();
  const limiter = options.limiter;
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const defaultTimeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  async function request<E extends AnyEndpoint>(row: E, args?: RowArgs<E>, opts: CallOptions = {}): Promise<ResponseOut<E>> {
    const v = validateArgs(row, args as { params?: unknown; query?: unknown; body?: unknown } | undefined);
    const relative = buildPath(row, v.params, v.query);
    const url = `${profile.baseUrl}${relative}`;
    const path = signaturePath(url);
    if (row.auth === 'signed' && !signer) {
      throw new Error(`${row.id} (${row.method} ${row.path}) is a signed endpoint and this client has no credentials; nothing was sent`);
    }
    const bodyText = row.body === null ? undefined : JSON.stringify(v.body);
    const mayRepeat = row.method === 'GET' || opts.idempotent === true;

    const signing = row.auth === 'signed' ? signer : undefined;
    const sign = async (s: Signer): Promise<Record<string, string>> => {
      clock.assertSignable();
      return s.headersAsync(row.method, path, clock.now());
    };
    for (let attempt = 0; ; attempt++) {
      const waitSignal = opts.queueSignal && opts.signal ? AbortSignal.any([opts.queueSignal, opts.signal]) : (opts.queueSignal ?? opts.signal);
      const headers: Record<string, string> = { accept: 'application/json' };
      if (bodyText !== undefined) headers['content-type'] = 'application/json';
      // Signed BEFORE the token is taken: signing runs on the thread pool, and a busy pool (a burst
      // signing at once, a loaded machine) would otherwise hold requests between their token and
      // their send, so the exchange's bucket would see them closer together than the limiter spaced
      // them and answer 429. A signature that waited long for its token is made again.
      const signedAt = Date.now();
      if (signing) Object.assign(headers, await sign(signing));
      waitSignal?.throwIfAborted();
      await limiter?.take(row, { body: v.body }, waitSignal, opts.priority === true);
      waitSignal?.throwIfAborted();
      if (signing && Date.now() - signedAt > RESIGN_AFTER_MS) Object.assign(headers, await sign(signing));
      opts.queueSignal?.throwIfAborted();
      opts.beforeSend?.();

      const x = await send(doFetch, url, { method: row.method, headers, body: bodyText }, row.method, path, opts.timeoutMs ?? defaultTimeout, opts.signal);
      options.onAnswer?.(x.res.status);
      const err = x.res.ok ? undefined : ApiError.fromResponse(x.res, x.text, row.method, path);
      // After an expired-timestamp 401 the new reading is taken as it is (no hysteresis).
      const expired = isTimestampExpired(err);
      clock.observe(x.res.headers.get('date'), x.sentAt, x.receivedAt, expired);
      if (!err) return parseResponse(row, x, path);
      if (err.status === 429) limiter?.drain(row.bucket);
      if (expired && attempt === 0 && mayRepeat) continue;
      throw err;
    }
  }

  const core: ApiClientCore = {
    profile,
    clock,
    limiter,
    signer,
    request,
    call: async (id, ...a) => {
      const [args, opts] = a as [RowArgs<AnyEndpoint>?, CallOptions?];
      return request(endpointRow(id), args, opts) as Promise<never>;
    },
    wsHeaders: () => {
      if (!signer) throw new Error('the WebSocket upgrade needs credentials and this client has none');
      clock.assertSignable();
      return signer.wsHeaders(clock.now(), new URL(profile.wsUrl).pathname);
    },
  };
  const methods: Record<string, unknown> = {};
  for (const [id, row] of Object.entries(endpoints) as [string, AnyEndpoint][]) {
    methods[id] = (args?: RowArgs<AnyEndpoint>, opts?: CallOptions) => request(row, args, opts);
  }
  return Object.assign(methods, core) as unknown as ApiClient;
}
