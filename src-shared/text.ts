// Words for counts, the same in main's messages and the renderer's.

/** "1 order", "3 orders", "0 orders" (`pluralNoun` for an irregular plural). */
export function plural(n: number, noun: string, pluralNoun = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : pluralNoun}`;
}
