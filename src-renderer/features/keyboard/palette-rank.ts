// How the command palette ranks and preselects: cmdk's own match score (command-score), with an
// action that sends, cancels or refuses orders (keymap `danger`) ranked below safe ones unless the
// search names it outright. The palette's own selection (when it opens, after the search changed)
// is never such an action: one runs only when the trader typed to it and moved to it (the arrow
// keys) or clicked it, so Enter on a palette the trader did not steer can only do something harmless.
import { ACTION_BY_ID } from '../../lib/keymap';

/** The palette item value of an action: its label, then its id (the last word). */
export const actionValue = (id: string, label: string): string => `${label} ${id}`;

const idOf = (value: string): string => value.slice(value.lastIndexOf(' ') + 1);

export function isDangerValue(value: string): boolean {
  return ACTION_BY_ID.get(idOf(value))?.danger === true;
}

const norm = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();

/** The search names the action outright: its label starts with the search, in whole words ("flatten", "cancel all"), or the search is its id. */
export function namesOutright(value: string, search: string): boolean {
  const q = norm(search);
  if (q.length < 3) return false;
  const id = idOf(value);
  if (q === id.toLowerCase()) return true;
  const label = norm(value.slice(0, value.length - id.length));
  return label.startsWith(q) && (label.length === q.length || /[^a-z0-9]/.test(label[q.length]!));
}

/** cmdk filter: its score, a dangerous action on a partial match kept below every safe match. */
export function rankItem(score: (value: string, search: string, keywords?: string[]) => number) {
  return (value: string, search: string, keywords?: string[]): number => {
    const s = score(value, search, keywords);
    if (s <= 0 || !isDangerValue(value) || namesOutright(value, search)) return s;
    return s * 0.01;
  };
}

/**
 * The item the palette selects by itself (when it opens, after the search changed), from the items
 * in the order cmdk shows them: none while nothing is typed (Enter on a freshly opened palette does
 * nothing), else the first enabled one that is not dangerous, whatever the search; '' for none.
 */
export function preselect(items: readonly { value: string; disabled: boolean }[], search: string): string {
  if (!search.trim()) return '';
  const pick = items.find((i) => !i.disabled && !isDangerValue(i.value));
  return pick?.value ?? '';
}

/**
 * Whether Enter may run the selected item: a safe one always; a dangerous one only when the search
 * is not empty (the trader typed to it) and the trader moved the selection onto it themselves.
 */
export function enterMayRun(value: string, search: string, chosenByTrader: string | null): boolean {
  if (!value) return false;
  if (!isDangerValue(value)) return true;
  return search.trim() !== '' && chosenByTrader === value;
}
