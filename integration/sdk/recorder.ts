// Records each SDK call of the contract scenario: which operation, what status, what body,
// and which of the answer's lists must be non-empty (a list that came back empty would
// validate nothing, so the scenario says where it expects items).
import type { AxiosResponse } from 'axios';

export type Expect =
  /** a 2xx answer, validated against the operation's response model */
  | 'ok'
  /** one of the SDK's operations beyond the spec's 112: the exchange answers 404 */
  | 'not_provided';

export interface RecordedCall {
  op: string;
  expect: Expect;
  status: number;
  data: unknown;
  /** dotted paths into the answer that must hold a non-empty array */
  nonEmpty: string[];
}

export class Recorder {
  readonly calls: RecordedCall[] = [];

  /** Awaits a call that must succeed; throws at once (with the answer) if it did not. */
  async ok<T>(op: string, call: Promise<AxiosResponse<T>>, nonEmpty: string[] = []): Promise<T> {
    const res = await call;
    this.calls.push({ op, expect: 'ok', status: res.status, data: res.data, nonEmpty });
    if (res.status < 200 || res.status > 299) throw new Error(`${op} answered ${res.status}: ${JSON.stringify(res.data)}`);
    return res.data;
  }

  /** Awaits one of the operations the exchange does not provide (checked for 404 later). */
  async notProvided(op: string, call: Promise<AxiosResponse<unknown>>): Promise<void> {
    const res = await call;
    this.calls.push({ op, expect: 'not_provided', status: res.status, data: res.data, nonEmpty: [] });
  }

  byOp(op: string): RecordedCall[] {
    return this.calls.filter((c) => c.op === op);
  }
}

/** The value at a dotted path (numeric parts index arrays). */
export function at(value: unknown, dotted: string): unknown {
  let v = value;
  for (const part of dotted.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

/** A string at a dotted path of an answer, or a clear failure naming it. */
export function str(value: unknown, dotted: string): string {
  const v = at(value, dotted);
  if (typeof v !== 'string' || v === '') throw new Error(`expected a string at ${dotted} in ${JSON.stringify(value).slice(0, 300)}`);
  return v;
}
