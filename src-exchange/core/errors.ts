// Error bodies exactly as the protocol notes (docs/spec/protocol-notes.md) give them:
// {"error": {"code": "<snake_case>", "message": "<text>", "details": "<optional>"}}.
export type ErrorCode =
  | 'authentication_error'
  | 'header_timestamp_expired'
  | 'not_found'
  | 'order_already_exists'
  | 'invalid_order'
  | 'invalid_parameters'
  | 'too_many_requests'
  | 'forbidden'
  | 'insufficient_balance'
  | 'market_closed'
  | 'conflict'
  | 'internal_server_error'
  | 'service_unavailable';

export class ExchangeError extends Error {
  override name = 'ExchangeError';
  constructor(
    readonly status: number,
    readonly code: ErrorCode | string,
    message: string,
    readonly details?: string,
  ) {
    super(message);
  }

  toBody(): { error: { code: string; message: string; details?: string } } {
    return { error: { code: this.code, message: this.message, ...(this.details !== undefined ? { details: this.details } : {}) } };
  }
}

export const notFound = (what: string) => new ExchangeError(404, 'not_found', `${what} not found`);
export const invalidParameters = (message: string, details?: string) => new ExchangeError(400, 'invalid_parameters', message, details);
export const invalidOrder = (message: string, details?: string) => new ExchangeError(400, 'invalid_order', message, details);
export const forbidden = (message: string) => new ExchangeError(403, 'forbidden', message);
export const unauthorized = (message: string, details?: string) => new ExchangeError(401, 'authentication_error', message, details);
