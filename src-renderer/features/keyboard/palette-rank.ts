// How the command palette ranks and preselects: cmdk's own match score (command-score), with an
// action that sends, cancels or refuses orders (keymap `danger`) ranked below safe ones unless the
// search names it outright, and never preselected on a partial match: Enter after a few letters
// can only do something harmless.
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
 * The item to preselect after the search changed, from the items in the order cmdk shows them:
 * the first enabled one, skipping a dangerous action the search does not name outright; '' for none.
 */
export function preselect(items: readonly { value: string; disabled: boolean }[], search: string): string {
  const pick = items.find((i) => !i.disabled && (!isDangerValue(i.value) || namesOutright(i.value, search)));
  return pick?.value ?? '';
}
