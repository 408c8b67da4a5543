// Errors are values: a command that cannot be applied answers a Reject and changes nothing.

import type { ErrorCode } from './types';

export interface Reject {
  ok: false;
  code: ErrorCode;
  message: string;
  details?: string;
}

export function reject(code: ErrorCode, message: string, details?: string): Reject {
  return details === undefined ? { ok: false, code, message } : { ok: false, code, message, details };
}

export function isReject(v: unknown): v is Reject {
  return typeof v === 'object' && v !== null && (v as { ok?: unknown }).ok === false;
}

/** A non-empty string of at most `max` characters. */
export function isId(v: unknown, max = 256): v is string {
  return typeof v === 'string' && v.length > 0 && v.length <= max;
}

export function isTimestamp(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}
