import { describe, expect, it } from 'vitest';
import { csvField, csvFileName, toCsv } from './csv';

describe('RFC 4180 CSV', () => {
  it('writes a header and CRLF-terminated records', () => {
    const csv = toCsv([{ header: 'ticker', value: (r: { t: string; n: string }) => r.t }, { header: 'count', value: (r) => r.n }], [
      { t: 'A', n: '1' },
      { t: 'B', n: '2.50' },
    ]);
    expect(csv).toBe('ticker,count\r\nA,1\r\nB,2.50\r\n');
  });

  it('quotes fields holding commas, quotes, CR or LF and doubles the quotes', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('line1\nline2')).toBe('"line1\nline2"');
    expect(csvField('cr\rhere')).toBe('"cr\rhere"');
  });

  it('leaves plain values, numbers and negative decimals unquoted and unchanged', () => {
    expect(csvField('KXBTC-24')).toBe('KXBTC-24');
    expect(csvField(-1.5)).toBe('-1.5');
    expect(csvField('-0.2500')).toBe('-0.2500');
    expect(csvField(true)).toBe('true');
  });

  it('writes null and undefined as empty fields', () => {
    expect(toCsv([{ header: 'x', value: () => null }, { header: 'y', value: () => undefined }], [{}])).toBe('x,y\r\n,\r\n');
  });

  it('defuses text a spreadsheet would run as a formula', () => {
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField('+cmd')).toBe("'+cmd");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('-x')).toBe("'-x");
  });

  it('names files with a sortable, portable timestamp', () => {
    expect(csvFileName('Resting orders', new Date('2024-05-01T10:20:30Z'))).toBe('resting-orders-2024-05-01T10-20-30.csv');
  });
});
