// RFC 4180 CSV for every blotter: CRLF records, fields quoted when they hold a comma, quote, CR
// or LF, quotes doubled. Text that a spreadsheet would run as a formula is defused with a
// leading apostrophe; plain numbers (also negative ones) are left exactly as they are.

export interface CsvColumn<T> {
  header: string;
  value: (row: T) => string | number | boolean | null | undefined;
}

const NUMBER_RE = /^-?\d+(?:\.\d+)?$/;
const FORMULA_RE = /^[=+\-@\t\r]/;

export function csvField(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_RE.test(text) && !NUMBER_RE.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv<T>(columns: readonly CsvColumn<T>[], rows: readonly T[]): string {
  const lines = [columns.map((c) => csvField(c.header)).join(',')];
  for (const row of rows) lines.push(columns.map((c) => csvField(c.value(row))).join(','));
  return lines.join('\r\n') + '\r\n';
}

/** `orders-2024-05-01T10-20-30.csv`: a name that sorts and is valid on every file system. */
export function csvFileName(base: string, at: Date = new Date()): string {
  const stamp = at.toISOString().slice(0, 19).replace(/:/g, '-');
  return `${base.replace(/[^a-z0-9-]+/gi, '-').toLowerCase()}-${stamp}.csv`;
}

export function downloadCsv(fileName: string, csv: string): void {
  const blob = new Blob([csv], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function exportCsv<T>(base: string, columns: readonly CsvColumn<T>[], rows: readonly T[]): void {
  downloadCsv(csvFileName(base), toCsv(columns, rows));
}
