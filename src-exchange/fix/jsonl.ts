// The FIX stores' append-only JSON-lines files (seq-store.ts, exec-history.ts) read back the same
// way: one JSON value a line, blank lines skipped, a torn last line (a crash mid-append) dropped.

/** Each line of `text` that parses, in order. */
export function* jsonLines<T>(text: string): Generator<T> {
  for (const raw of text.split('\n')) {
    if (raw === '') continue;
    let line: T;
    try {
      line = JSON.parse(raw) as T;
    } catch {
      continue; // a torn last line
    }
    yield line;
  }
}
