// Byte layout of journal records and snapshot files.
//
// Record frame (little-endian), 16-byte header then the payload:
//   u32 payloadLength | u32 crc32 | u32 seqLow | u32 seqHigh | payload (UTF-8 JSON)
// The CRC covers the length field, the sequence number and the payload, so a torn
// or flipped length is caught as surely as a flipped payload byte.
// Snapshot file: 8-byte magic `EXJSNAP1`, then one frame whose seq is the last
// journal seq the state includes and whose payload is the state as JSON.
import zlib from 'node:zlib';

export const FRAME_HEADER_BYTES = 16;
const SNAPSHOT_MAGIC = Buffer.from('EXJSNAP1', 'latin1');
/** Where a snapshot file's JSON starts (after the magic and the frame header). */
export const SNAPSHOT_JSON_OFFSET = SNAPSHOT_MAGIC.length + FRAME_HEADER_BYTES;
const TWO_32 = 2 ** 32;

let table: Uint32Array | null = null;

/** Table-driven CRC-32 (IEEE), the same function as zlib.crc32; used where zlib.crc32 is missing. */
export function crc32Fallback(data: Uint8Array, value = 0): number {
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let crc = ~value >>> 0;
  for (let i = 0; i < data.length; i++) crc = table[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8);
  return ~crc >>> 0;
}

// zlib.crc32 arrived in Node 20.15 / 22.2; keep working on anything older.
export const crc32: (data: Uint8Array, value?: number) => number =
  typeof (zlib as { crc32?: unknown }).crc32 === 'function' ? (d, v) => zlib.crc32(d, v) : crc32Fallback;

function frameCrc(buf: Buffer, off: number, payloadLength: number): number {
  return crc32(buf.subarray(off + 8, off + FRAME_HEADER_BYTES + payloadLength), crc32(buf.subarray(off, off + 4)));
}

/** Encode one record; `payloadLength` is `Buffer.byteLength(json)` (callers already know it). */
export function encodeFrame(seq: number, json: string, payloadLength = Buffer.byteLength(json, 'utf8')): Buffer {
  const buf = Buffer.allocUnsafe(FRAME_HEADER_BYTES + payloadLength);
  buf.writeUInt32LE(payloadLength, 0);
  buf.writeUInt32LE(seq % TWO_32, 8);
  buf.writeUInt32LE(Math.floor(seq / TWO_32), 12);
  buf.write(json, FRAME_HEADER_BYTES, payloadLength, 'utf8');
  buf.writeUInt32LE(frameCrc(buf, 0, payloadLength), 4);
  return buf;
}

export type FrameRead =
  | { ok: true; seq: number; payloadStart: number; end: number }
  /** torn: the frame runs past the end of the data (what an interrupted write leaves). */
  | { ok: false; torn: boolean; reason: string };

/** Read the frame at `off`. Never throws; says why a frame is unusable. */
export function readFrame(buf: Buffer, off: number, maxRecordBytes: number): FrameRead {
  const available = buf.length - off;
  if (available < FRAME_HEADER_BYTES) {
    return { ok: false, torn: true, reason: `incomplete header (${available} of ${FRAME_HEADER_BYTES} bytes)` };
  }
  const length = buf.readUInt32LE(off);
  if (length === 0 || length > maxRecordBytes) {
    return { ok: false, torn: false, reason: `implausible record length ${length}` };
  }
  const end = off + FRAME_HEADER_BYTES + length;
  if (end > buf.length) {
    return { ok: false, torn: true, reason: `record of ${length} bytes runs ${end - buf.length} bytes past the end` };
  }
  if (buf.readUInt32LE(off + 4) !== frameCrc(buf, off, length)) {
    return { ok: false, torn: false, reason: 'checksum mismatch' };
  }
  const seq = buf.readUInt32LE(off + 8) + buf.readUInt32LE(off + 12) * TWO_32;
  return { ok: true, seq, payloadStart: off + FRAME_HEADER_BYTES, end };
}

/** First offset at or after `from` holding a checksum-valid frame with seq >= minSeq, or -1. */
export function findValidFrame(buf: Buffer, from: number, minSeq: number, maxRecordBytes: number): number {
  for (let off = from; off + FRAME_HEADER_BYTES <= buf.length; off++) {
    const length = buf.readUInt32LE(off);
    if (length === 0 || length > maxRecordBytes || off + FRAME_HEADER_BYTES + length > buf.length) continue;
    const seq = buf.readUInt32LE(off + 8) + buf.readUInt32LE(off + 12) * TWO_32;
    if (seq < minSeq) continue;
    if (buf.readUInt32LE(off + 4) === frameCrc(buf, off, length)) return off;
  }
  return -1;
}

export function encodeSnapshotFile(seq: number, stateJson: string): Buffer {
  return Buffer.concat([SNAPSHOT_MAGIC, encodeFrame(seq, stateJson)]);
}

/** Decode a whole snapshot file; returns the reason it is unusable instead of throwing. */
export function decodeSnapshotFile(buf: Buffer): { ok: true; seq: number; json: string } | { ok: false; reason: string } {
  if (buf.length < SNAPSHOT_MAGIC.length || !buf.subarray(0, SNAPSHOT_MAGIC.length).equals(SNAPSHOT_MAGIC)) {
    return { ok: false, reason: 'bad magic' };
  }
  const fr = readFrame(buf, SNAPSHOT_MAGIC.length, Number.MAX_SAFE_INTEGER);
  if (!fr.ok) return { ok: false, reason: fr.reason };
  if (fr.end !== buf.length) return { ok: false, reason: `${buf.length - fr.end} trailing bytes` };
  return { ok: true, seq: fr.seq, json: buf.toString('utf8', fr.payloadStart, fr.end) };
}
