// FIX tag=value framing (FIXT.1.1): encoding with BodyLength (9) and CheckSum (10), and a stream
// parser that cuts whole messages out of TCP chunks and checks both. Pure: no sockets, no Node
// API (bytes are Uint8Array, text is latin1: one char per byte), no state beyond the unread
// bytes. Shared by the embedded exchange's acceptor and the terminal's initiator (src-main/fix).
export const SOH = '\x01';
export const BEGIN_STRING = 'FIXT.1.1';

/** One decoded message: fields in wire order (a tag may repeat inside repeating groups). */
export class FixMessage {
  constructor(readonly fields: ReadonlyArray<readonly [number, string]>) {}

  get(tag: number): string | undefined {
    for (const [t, v] of this.fields) if (t === tag) return v;
    return undefined;
  }

  get msgType(): string {
    return this.get(35) ?? '';
  }

  get seqNum(): number {
    return Number(this.get(34) ?? NaN);
  }
}

/** Modulo-256 sum of the bytes, three digits. */
export function checksum(bytes: Uint8Array | string): string {
  let sum = 0;
  if (typeof bytes === 'string') for (let i = 0; i < bytes.length; i++) sum = (sum + (bytes.charCodeAt(i) & 0xff)) & 0xff;
  else for (let i = 0; i < bytes.length; i++) sum = (sum + bytes[i]!) & 0xff;
  return String(sum).padStart(3, '0');
}

/** latin1 text of bytes (one char per byte). */
export function latin1(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 8192) s += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return s;
}

/** Bytes of latin1 text (a char above 0xff keeps its low byte, as Node's 'latin1' does). */
export function latin1Bytes(text: string): Uint8Array {
  const b = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) b[i] = text.charCodeAt(i) & 0xff;
  return b;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** `20260526-14:02:11.482`: UTCTimestamp with milliseconds. */
export function fixTime(ms: number): string {
  const d = new Date(ms);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}-${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}.${p(d.getUTCMilliseconds(), 3)}`;
}

/** UTCTimestamp (seconds, milli, micro or nano precision) to Unix ms; NaN when malformed. */
export function parseFixTime(s: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})-(\d{2}):(\d{2}):(\d{2})(?:\.(\d{3})\d{0,6})?$/.exec(s);
  if (!m) return NaN;
  return Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!, m[7] ? +m[7] : 0);
}

/** A whole message: `8=FIXT.1.1|9=len|<body>|10=sum|`, body = 35 first then the rest as given. */
export function encode(fields: ReadonlyArray<readonly [number, string | number]>): string {
  let body = '';
  for (const [t, v] of fields) {
    const s = String(v);
    if (s.includes(SOH)) throw new Error(`tag ${t}: a value cannot hold SOH`);
    body += `${t}=${s}${SOH}`;
  }
  const head = `8=${BEGIN_STRING}${SOH}9=${body.length}${SOH}`;
  return `${head}${body}10=${checksum(head + body)}${SOH}`;
}

export type ParseResult = { ok: true; msg: FixMessage } | { ok: false; reason: string };

/** Whether `text` (no second SOH yet) may still grow into `8=FIXT.1.1 SOH 9=<digits> SOH`. */
function couldStartMessage(text: string): boolean {
  const lead = `8=${BEGIN_STRING}${SOH}9=`;
  return lead.startsWith(text) || (text.startsWith(lead) && /^\d*$/.test(text.slice(lead.length)));
}

/** Largest message accepted: a peer that never ends one is cut off rather than buffered forever. */
const MAX_MESSAGE_BYTES = 64 * 1024;

/**
 * Cuts messages out of a byte stream. A message whose framing is broken (no 8/9 at the start, a
 * wrong body length or checksum) comes back as `{ok: false}`; after one the stream cannot be
 * trusted to resynchronise, so the session ends it.
 */
export class FixParser {
  private buf: Uint8Array = new Uint8Array(0);

  push(chunk: Uint8Array): ParseResult[] {
    this.buf = this.buf.length ? concat(this.buf, chunk) : chunk;
    const out: ParseResult[] = [];
    for (;;) {
      if (this.buf.length === 0) break;
      const text = latin1(this.buf.subarray(0, 40));
      const first = text.indexOf(SOH);
      const second = first < 0 ? -1 : text.indexOf(SOH, first + 1);
      if (second < 0) {
        if (this.buf.length >= 40 || !couldStartMessage(text)) {
          out.push({ ok: false, reason: 'message does not start with 8=FIXT.1.1 and 9=<length>' });
          this.buf = new Uint8Array(0);
        }
        break;
      }
      const f8 = text.slice(0, first);
      const f9 = text.slice(first + 1, second);
      if (!f8.startsWith('8=') || !/^9=\d{1,6}$/.test(f9)) {
        out.push({ ok: false, reason: 'message does not start with 8=FIXT.1.1 and 9=<length>' });
        this.buf = new Uint8Array(0);
        break;
      }
      const head = [text.slice(0, second + 1), f8.slice(2), f9.slice(2)] as const;
      const bodyLen = Number(head[2]);
      const start = head[0].length;
      const total = start + bodyLen + 7; // "10=xxx\x01"
      if (total > MAX_MESSAGE_BYTES) {
        out.push({ ok: false, reason: `message of ${total} bytes is over the ${MAX_MESSAGE_BYTES} limit` });
        this.buf = new Uint8Array(0);
        break;
      }
      if (this.buf.length < total) break;
      const trailer = latin1(this.buf.subarray(start + bodyLen, total));
      const sum = checksum(this.buf.subarray(0, start + bodyLen));
      if (!(trailer.startsWith('10=') && /^\d{3}$/.test(trailer.slice(3, 6)) && trailer[6] === SOH)) {
        out.push({ ok: false, reason: 'BodyLength (9) does not end where CheckSum (10) starts' });
        this.buf = new Uint8Array(0);
        break;
      }
      if (trailer.slice(3, 6) !== sum) {
        out.push({ ok: false, reason: `CheckSum ${trailer.slice(3, 6)} is wrong (expected ${sum})` });
        this.buf = new Uint8Array(0);
        break;
      }
      const body = latin1(this.buf.subarray(start, start + bodyLen));
      this.buf = this.buf.subarray(total);
      const fields: Array<readonly [number, string]> = [];
      let bad: string | null = null;
      for (const part of body.split(SOH)) {
        if (part === '') continue;
        const eq = part.indexOf('=');
        const tag = Number(part.slice(0, eq));
        if (eq <= 0 || !Number.isSafeInteger(tag) || tag <= 0) {
          bad = `malformed field ${JSON.stringify(part.slice(0, 40))}`;
          break;
        }
        fields.push([tag, part.slice(eq + 1)]);
      }
      out.push(bad ? { ok: false, reason: bad } : { ok: true, msg: new FixMessage(fields) });
      if (bad) {
        this.buf = new Uint8Array(0);
        break;
      }
    }
    return out;
  }
}
