// Errors at the REST edge. Every non-2xx answer becomes an ApiError; a transport failure
// becomes a NetworkError whose `maybeReachedServer` tells the order path whether a write
// may have landed (and so must be looked up before it is sent again).
import type { z } from 'zod';
import { ErrorBody } from '../../src-shared/wire/common';

/** Response headers that carry a request id, most specific first. */
const REQUEST_ID_HEADERS = ['x-request-id', 'request-id', 'x-amzn-requestid', 'x-amz-request-id', 'cf-ray'];

export interface ApiErrorInit {
  status: number;
  code: string;
  message: string;
  details?: string | undefined;
  requestId?: string | undefined;
  method: string;
  path: string;
  /** raw body text (truncated) when it was not the standard error body */
  rawBody?: string | undefined;
}

/** A non-2xx answer from the exchange. */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number;
  readonly code: string;
  readonly details: string | undefined;
  readonly requestId: string | undefined;
  readonly method: string;
  readonly path: string;
  readonly rawBody: string | undefined;
  /** The exchange's own message, without the method/path/status prefix of `message`. */
  readonly serverMessage: string;

  constructor(init: ApiErrorInit) {
    super(`${init.method} ${init.path} -> ${init.status} ${init.code}: ${init.message}${init.details ? ` (${init.details})` : ''}`);
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.requestId = init.requestId;
    this.method = init.method;
    this.path = init.path;
    this.rawBody = init.rawBody;
    this.serverMessage = init.message;
  }


  /** Builds the error from a response whose body text has already been read. */
  static fromResponse(res: { status: number; statusText?: string; headers: Headers }, bodyText: string, method: string, path: string): ApiError {
    const requestId = requestIdOf(res.headers);
    let json: unknown;
    try {
      json = bodyText === '' ? undefined : JSON.parse(bodyText);
    } catch {
      json = undefined;
    }
    const parsed = ErrorBody.safeParse(json);
    if (parsed.success) {
      const { code, message, details } = parsed.data.error;
      return new ApiError({ status: res.status, code, message, details, requestId, method, path });
    }
    const snippet = bodyText.length > 500 ? `${bodyText.slice(0, 500)}...` : bodyText;
    const reason = res.statusText || httpReason(res.status);
    return new ApiError({
      status: res.status,
      code: fallbackCode(res.status),
      message: snippet.trim() === '' ? `HTTP ${res.status} ${reason} with an empty body` : `HTTP ${res.status} ${reason}; body was not the error JSON: ${snippet}`,
      requestId,
      method,
      path,
      rawBody: snippet,
    });
  }
}

/** A 2xx answer whose body does not match the row's response schema (or is not JSON). */
export class ResponseShapeError extends ApiError {
  override name = 'ResponseShapeError';
  readonly issues: readonly z.core.$ZodIssue[];

  constructor(init: Omit<ApiErrorInit, 'code'> & { issues?: readonly z.core.$ZodIssue[] }) {
    super({ ...init, code: 'response_shape' });
    this.issues = init.issues ?? [];
  }
}

/** Arguments rejected by the row's schemas before anything was sent. */
export class ArgsValidationError extends Error {
  override name = 'ArgsValidationError';
  constructor(
    readonly endpointId: string,
    readonly part: 'params' | 'query' | 'body',
    readonly issues: readonly z.core.$ZodIssue[],
  ) {
    super(`${endpointId}: invalid ${part}: ${formatIssues(issues)} (nothing was sent)`);
  }
}

/** The request failed below HTTP: no status was received. */
export class NetworkError extends Error {
  override name = 'NetworkError';
  /**
   * False only when the failure proves the request never left (connection refused, DNS).
   * True means the server may have received and acted on it.
   */
  readonly maybeReachedServer: boolean;
  readonly errorCode: string | undefined;

  constructor(
    readonly method: string,
    readonly path: string,
    cause: unknown,
    message?: string,
  ) {
    const errorCode = errorCodeOf(cause);
    super(message ?? `${method} ${path}: network error${errorCode ? ` (${errorCode})` : ''}: ${describe(cause)}`, { cause });
    this.errorCode = errorCode;
    this.maybeReachedServer = !(errorCode !== undefined && NOT_SENT_CODES.has(errorCode));
  }
}

/** No complete answer within the request timeout; the server may have acted on it. */
export class TimeoutError extends NetworkError {
  override name = 'TimeoutError';
  constructor(method: string, path: string, timeoutMs: number, cause?: unknown) {
    super(method, path, cause, `${method} ${path}: no answer within ${timeoutMs} ms`);
  }
}

const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT', 'ERR_INVALID_URL']);

export function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.map(String).join('.') : '(root)'}: ${i.message}`)
    .join('; ')
    .concat(issues.length > 5 ? `; and ${issues.length - 5} more` : '');
}

export function requestIdOf(headers: Headers): string | undefined {
  for (const h of REQUEST_ID_HEADERS) {
    const v = headers.get(h);
    if (v) return v;
  }
  return undefined;
}

/** Finds a system error code (ECONNRESET, UND_ERR_SOCKET, ...) anywhere in a cause chain. */
function errorCodeOf(err: unknown, depth = 0): string | undefined {
  if (depth > 5 || err === null || typeof err !== 'object') return undefined;
  const e = err as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string') return e.code;
  const fromCause = errorCodeOf(e.cause, depth + 1);
  if (fromCause) return fromCause;
  if (Array.isArray(e.errors)) for (const inner of e.errors) {
    const c = errorCodeOf(inner, depth + 1);
    if (c) return c;
  }
  return undefined;
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    const inner = err.cause instanceof Error ? `: ${err.cause.message}` : '';
    return `${err.message}${inner}`;
  }
  return String(err);
}

function fallbackCode(status: number): string {
  switch (status) {
    case 400: return 'bad_request';
    case 401: return 'unauthorized';
    case 403: return 'forbidden';
    case 404: return 'not_found';
    case 409: return 'conflict';
    case 429: return 'too_many_requests';
    case 503: return 'service_unavailable';
    case 504: return 'gateway_timeout';
    default: return status >= 500 ? 'server_error' : `http_${status}`;
  }
}

function httpReason(status: number): string {
  return status >= 500 ? 'server error' : 'error';
}

/** 401 header_timestamp_expired: our signing clock is off from the server's. */
export function isTimestampExpired(err: unknown): boolean {
  return err instanceof ApiError && err.status === 401 && err.code === 'header_timestamp_expired';
}
