// Every error the UI shows goes through here: the exchange's code becomes a sentence a trader can
// act on, and the exchange's own message, the code and the HTTP status stay visible beside it.

export interface ErrorInfo {
  /** what happened, in words */
  title: string;
  /** the server's (or main's) message, verbatim */
  message: string;
  code?: string;
  status?: number;
  details?: string;
  kind?: string;
}

/** Human text per exchange or bridge error code. Unknown codes fall back on the HTTP status. */
export const ERROR_CODE_TEXT: Record<string, string> = {
  authentication_error: 'The exchange rejected the API key signature. Check that the key id and private key belong together (Account, API keys).',
  unauthorized: 'Not signed in to the exchange: this profile has no usable API key.',
  header_timestamp_expired: "This computer's clock is more than a few seconds off from the exchange's, so the signed request was refused. Sync the system clock.",
  forbidden: 'Not allowed for this account or key: the key may lack the write scope, or the route is for clearing members only.',
  not_found: 'Not found on the exchange (a filled or canceled order, or a settled market, may have left the live endpoints).',
  order_already_exists: 'An order with this client order id already exists, so it was not placed twice.',
  invalid_order: 'The exchange refused the order.',
  invalid_parameters: 'The exchange refused the request: a parameter is invalid.',
  insufficient_balance: 'Not enough free balance: cost plus fees exceeds the available cash.',
  too_many_requests: 'Rate limit reached: too many requests in a short time. Wait a moment; the status bar shows the headroom.',
  conflict: 'Conflict: the resource changed or is in a state that does not allow this.',
  bad_request: 'The exchange could not read the request.',
  server_error: 'The exchange failed while handling the request. Try again; check the blotter before repeating an order.',
  service_unavailable: 'The exchange is unavailable (maintenance or overload). Try again shortly.',
  gateway_timeout: 'The exchange did not answer in time. An order may still have been placed: check the blotter.',
  response_shape: 'The exchange answered with data this terminal cannot read.',
  daily_cap_exceeded: "Over the subtrader's daily cap: this would take the day's event-contract notional past the cap set in the FCM panel.",
  category_blocked: 'This market is in a category blocked for the subtrader (FCM panel, blocked categories).',
  kill_switch: 'The kill switch is engaged: no new orders until you release it (status bar, or the palette).',
  bridge_disconnected: 'Not connected to the terminal host.',
  bridge_timeout: 'The terminal host did not answer in time.',
  bridge_closed: 'The terminal bridge is closed.',
};

/** Details the exchange sends that deserve their own sentence. */
const DETAILS_TEXT: Record<string, string> = {
  'post only cross': 'The post-only order would have crossed the book, so it was not placed.',
  INCORRECT_API_KEY_SIGNATURE: 'The signature does not match the API key: the private key is not the one registered for this key id.',
};

const KIND_TEXT: Record<string, string> = {
  validation: 'Invalid input.',
  network: 'Could not reach the exchange.',
  state: 'Not possible right now.',
  api: 'The exchange refused the request.',
  risk: 'Refused by your risk limits; nothing was sent.',
};

function statusText(status: number): string {
  if (status === 400) return ERROR_CODE_TEXT.bad_request!;
  if (status === 401) return ERROR_CODE_TEXT.unauthorized!;
  if (status === 403) return ERROR_CODE_TEXT.forbidden!;
  if (status === 404) return ERROR_CODE_TEXT.not_found!;
  if (status === 409) return ERROR_CODE_TEXT.conflict!;
  if (status === 429) return ERROR_CODE_TEXT.too_many_requests!;
  if (status === 503) return ERROR_CODE_TEXT.service_unavailable!;
  if (status === 504) return ERROR_CODE_TEXT.gateway_timeout!;
  if (status >= 500) return ERROR_CODE_TEXT.server_error!;
  return `The exchange answered HTTP ${status}.`;
}

function field<T>(err: unknown, key: string, guard: (v: unknown) => v is T): T | undefined {
  if (err === null || typeof err !== 'object') return undefined;
  const v = (err as Record<string, unknown>)[key];
  return guard(v) ? v : undefined;
}
const isString = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * Money in a message reads as money: "$150.000000" becomes "$150.00", "$0.005000" "$0.005".
 * Only trailing zeros past the cents go, so no amount changes.
 */
export function moneyText(text: string): string {
  return text.replace(/\$(-?\d+)\.(\d{3,})\b/g, (_m, whole: string, frac: string) => {
    const trimmed = frac.replace(/0+$/, '');
    return `$${whole}.${trimmed.length >= 2 ? trimmed : trimmed.padEnd(2, '0')}`;
  });
}

export function describeError(err: unknown): ErrorInfo {
  const code = field(err, 'code', isString);
  const status = field(err, 'status', isNumber);
  const details = field(err, 'details', isString);
  const kind = field(err, 'kind', isString);
  const message = moneyText(
    err instanceof Error ? err.message : typeof err === 'string' ? err : (field(err, 'message', isString) ?? 'Unknown error'),
  );
  let title = (details && DETAILS_TEXT[details]) ?? (code && ERROR_CODE_TEXT[code]);
  if (!title && status !== undefined) title = statusText(status);
  if (!title) title = (kind && KIND_TEXT[kind]) ?? 'Something went wrong.';
  const info: ErrorInfo = { title, message };
  if (code) info.code = code;
  if (status !== undefined) info.status = status;
  if (details) info.details = details;
  if (kind) info.kind = kind;
  return info;
}

/** Codes whose sentence says all the message could (the message only restates it). */
const SAID_IN_FULL = new Set(['kill_switch']);

/** One line: the sentence, the server's message when it adds something, then code and status. */
export function errorText(err: unknown): string {
  const e = describeError(err);
  const parts = [e.title];
  if (e.message && e.message !== e.title && !(e.code && SAID_IN_FULL.has(e.code))) parts.push(e.message);
  if (e.details && !e.message.includes(e.details)) parts.push(`(${e.details})`);
  const tag = [e.code, e.status !== undefined ? `HTTP ${e.status}` : undefined].filter(Boolean).join(', ');
  return tag ? `${parts.join(' ')} [${tag}]` : parts.join(' ');
}

/** A risk refusal the trader may override by confirming (a duplicate, a large order). */
export function isConfirmableRisk(err: unknown): boolean {
  return field(err, 'kind', isString) === 'risk' && (err as Record<string, unknown>).confirmable === true;
}

/** Retrying helps for transport and server trouble, never for a refusal. */
export function isRetryable(err: unknown): boolean {
  const e = describeError(err);
  if (e.code === 'too_many_requests') return false;
  if (e.kind === 'network') return true;
  return e.status !== undefined && e.status >= 500;
}
