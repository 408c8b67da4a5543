// A named layout's name ("Save layout as…"), declared once: main's door parses it (contract.ts),
// and the Layouts dialog says what the door would refuse as the name is typed.
import { z } from 'zod';

/** As the trader typed it: no control characters, then trimmed, 1-64 characters. */
export const LayoutName = z
  .string()
  .regex(/^[^\p{Cc}]*$/u, 'a layout name cannot hold control characters (tabs, new lines)')
  .trim()
  .min(1, 'a layout name cannot be empty')
  .max(64, 'a layout name is at most 64 characters');

/** What LayoutName refuses in this name, in its words (null: a name the door takes). */
export function layoutNameProblem(raw: string): string | null {
  const r = LayoutName.safeParse(raw);
  return r.success ? null : (r.error.issues[0]?.message ?? 'not a layout name');
}
