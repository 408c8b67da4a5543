import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  crc32Fallback,
  decodeSnapshotFile,
  encodeFrame,
  encodeSnapshotFile,
  findValidFrame,
  FRAME_HEADER_BYTES,
  readFrame,
} from './frame';

describe('frame', () => {
  it('computes the same CRC-32 as zlib with the fallback table', () => {
    expect(crc32Fallback(Buffer.from('123456789'))).toBe(0xcbf43926);
    for (let i = 0; i < 50; i++) {
      const data = Buffer.from(Array.from({ length: i * 17 }, (_, k) => (k * 31 + i) & 0xff));
      expect(crc32Fallback(data)).toBe(zlib.crc32(data));
      expect(crc32Fallback(data, 0x1234)).toBe(zlib.crc32(data, 0x1234));
    }
  });

  it('round-trips seq and payload, including seqs beyond 32 bits', () => {
    for (const seq of [1, 2 ** 32 - 1, 2 ** 32 + 5, Number.MAX_SAFE_INTEGER]) {
      const json = JSON.stringify({ type: 'place', price: 42, note: 'é€' });
      const buf = encodeFrame(seq, json);
      const fr = readFrame(buf, 0, 1 << 20);
      expect(fr).toEqual({ ok: true, seq, payloadStart: FRAME_HEADER_BYTES, end: buf.length });
      expect(buf.toString('utf8', FRAME_HEADER_BYTES)).toBe(json);
    }
  });

  it('calls a frame cut short torn, and a flipped byte anywhere a checksum mismatch', () => {
    const buf = encodeFrame(7, '{"a":1}');
    for (let cut = 0; cut < buf.length; cut++) {
      const fr = readFrame(buf.subarray(0, cut), 0, 1 << 20);
      expect(fr.ok).toBe(false);
      if (!fr.ok) expect(fr.torn).toBe(true);
    }
    for (let i = 4; i < buf.length; i++) {
      const bad = Buffer.from(buf);
      bad[i]! ^= 0x01;
      const fr = readFrame(bad, 0, 1 << 20);
      expect(fr).toMatchObject({ ok: false, torn: false, reason: 'checksum mismatch' });
    }
  });

  it('rejects zero and oversized lengths', () => {
    const buf = encodeFrame(1, '{"a":1}');
    expect(readFrame(buf, 0, 3)).toMatchObject({ ok: false, torn: false });
    buf.writeUInt32LE(0, 0);
    expect(readFrame(buf, 0, 1 << 20)).toMatchObject({ ok: false, torn: false });
  });

  it('finds the next valid frame after garbage', () => {
    const good = encodeFrame(9, '{"x":true}');
    const buf = Buffer.concat([Buffer.from('garbage!garbage!garbage!'), good]);
    expect(findValidFrame(buf, 0, 9, 1 << 20)).toBe(24);
    expect(findValidFrame(buf, 0, 10, 1 << 20)).toBe(-1);
  });

  it('validates snapshot files whole', () => {
    const file = encodeSnapshotFile(12, '{"books":[]}');
    expect(decodeSnapshotFile(file)).toEqual({ ok: true, seq: 12, json: '{"books":[]}' });
    expect(decodeSnapshotFile(file.subarray(0, file.length - 1)).ok).toBe(false);
    expect(decodeSnapshotFile(Buffer.concat([file, Buffer.from([0])])).ok).toBe(false);
    const flipped = Buffer.from(file);
    flipped[flipped.length - 2]! ^= 0x40;
    expect(decodeSnapshotFile(flipped).ok).toBe(false);
  });
});
