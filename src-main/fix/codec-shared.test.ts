// The shared codec (now Buffer-free, src-shared/fix/codec.ts) against the exchange tests'
// independent raw client: the same bytes for the same fields, and a parse that survives any
// chunking of the stream, bytes above 0x7f included.
import { describe, expect, it } from 'vitest';
import { FixParser, checksum, encode, latin1, latin1Bytes } from '../../src-shared/fix/codec';
import { frame } from '../../src-exchange/fix/raw-client';

describe('shared FIX codec', () => {
  it('encodes exactly what an independent implementation frames', () => {
    const fields: Array<[number, string | number]> = [[35, 'D'], [49, 'key'], [56, 'KalshiNR'], [34, 7], [11, 'c-1'], [44, '0.4200']];
    expect(encode(fields)).toBe(frame(fields));
  });

  it('checksums and latin1 agree with Node for every byte value', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(latin1(all)).toBe(Buffer.from(all).toString('latin1'));
    expect(Buffer.from(latin1Bytes(latin1(all)))).toEqual(Buffer.from(all));
    let sum = 0;
    for (const b of all) sum = (sum + b) % 256;
    expect(checksum(all)).toBe(String(sum).padStart(3, '0'));
    expect(checksum(latin1(all))).toBe(checksum(all));
  });

  it('parses three messages fed one byte at a time, and refuses a wrong CheckSum', () => {
    const text = encode([[35, '0'], [34, 1]]) + encode([[35, '8'], [34, 2], [58, 'caf\xe9']]) + encode([[35, '1'], [34, 3], [112, 't']]);
    const p = new FixParser();
    const got = [];
    for (const b of latin1Bytes(text)) got.push(...p.push(Uint8Array.of(b)));
    expect(got.map((r) => (r.ok ? r.msg.msgType : r.reason))).toEqual(['0', '8', '1']);
    expect(got[1]!.ok && got[1]!.msg.get(58)).toBe('caf\xe9');
    const bad = encode([[35, '0']]).replace(/10=\d{3}/, '10=000');
    expect(new FixParser().push(latin1Bytes(bad))[0]).toMatchObject({ ok: false });
  });
});
