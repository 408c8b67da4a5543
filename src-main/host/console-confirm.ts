// The web host's out-of-band confirmation. Its page is the whole UI, so a question the page
// answers proves nothing when the page is compromised: loosening a risk limit or releasing the
// kill switch needs a one-time code that the host prints on the console that started it, and the
// page must send that code back. Codes are 6 digits, one per question, valid for two minutes and
// once; a wrong code spends the one asked for; after MAX_WRONG wrong codes in one run the host
// stops asking (restart it), so guessing cannot get through.
import { randomInt, timingSafeEqual } from 'node:crypto';
import type { ConfirmInMain } from '../app/profiles-service';
import { StateError } from '../base/errors';

export const CODE_TTL_MS = 2 * 60_000;
export const MAX_WRONG = 10;
/** the refusal's code: the page asks the trader for the console's code and sends again */
export const CONSOLE_CODE_REQUIRED = 'console_code_required';

interface Pending {
  title: string;
  code: string;
  expires: number;
}

export class ConsoleConfirm {
  private pending: Pending | null = null;
  private wrong = 0;

  constructor(
    /** writes one line on the console that started the host (never the page's log) */
    private readonly print: (line: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** A ConfirmInMain for the web host: true only with the code printed for this very question. */
  readonly ask: ConfirmInMain = async (q) => {
    if (this.wrong >= MAX_WRONG) {
      throw new StateError(`${MAX_WRONG} wrong console codes in this run: the web host confirms nothing more until it is restarted; nothing changed`, CONSOLE_CODE_REQUIRED);
    }
    const p = this.pending;
    const live = p !== null && p.title === q.title && this.now() < p.expires;
    if (q.code !== undefined && q.code !== '') {
      if (live && same(q.code, p.code)) {
        this.pending = null;
        return true;
      }
      this.wrong++;
      this.pending = null;
      this.issue(q);
      throw new StateError(`that code is not the one printed for "${q.title}" (or it expired); a new one is on the console that started the terminal; nothing changed`, CONSOLE_CODE_REQUIRED);
    }
    if (!live) this.issue(q);
    throw new StateError(`${q.title} To confirm, type the 6-digit code printed on the console that started the terminal (the page alone cannot confirm this); nothing changed yet`, CONSOLE_CODE_REQUIRED);
  };

  private issue(q: { title: string; message: string }): void {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    this.pending = { title: q.title, code, expires: this.now() + CODE_TTL_MS };
    this.print(`confirmation asked by the page: ${q.title} ${q.message}`);
    this.print(`  to allow it, type this code in the page: ${code} (valid 2 minutes, once; ignore it if you did not ask)`);
  }
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
