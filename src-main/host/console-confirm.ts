// The web host's out-of-band confirmation. Its page is the whole UI, so a question the page
// answers proves nothing when the page is compromised: loosening a risk limit or releasing the
// kill switch needs a one-time code that the host prints on the console that started it, and the
// page must send that code back. Codes are 6 digits, one per question, valid for two minutes and
// once; a wrong code spends the one asked for; after MAX_WRONG wrong codes in one run the host
// stops asking (restart it), so guessing cannot get through.
// A code is bound to the exact change it was printed for (a digest of the question's title,
// message and `change`: the new limits' values, "release the kill switch of profile X engaged
// since T", a FIX destination): a code printed for "maxOpenOrdersPerMarket 50 -> 51" confirms
// that save and nothing else; any other save, or the same one a second time, needs its own.
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import type { ConfirmInMain } from '../app/profiles-service';
import { StateError } from '../base/errors';

export const CODE_TTL_MS = 2 * 60_000;
export const MAX_WRONG = 10;
/** the refusal's code: the page asks the trader for the console's code and sends again */
export const CONSOLE_CODE_REQUIRED = 'console_code_required';

interface Pending {
  /** the digest of the change the code was printed for */
  digest: string;
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

  /** A ConfirmInMain for the web host: true only with the code printed for this very change. */
  readonly ask: ConfirmInMain = async (q) => {
    if (this.wrong >= MAX_WRONG) {
      throw new StateError(`${MAX_WRONG} wrong console codes in this run: the web host confirms nothing more until it is restarted; nothing changed`, CONSOLE_CODE_REQUIRED);
    }
    const p = this.pending;
    const live = p !== null && p.digest === digestOf(q) && this.now() < p.expires;
    if (q.code !== undefined && q.code !== '') {
      if (live && same(q.code, p.code)) {
        this.pending = null;
        return true;
      }
      this.wrong++;
      this.pending = null;
      this.issue(q);
      throw new StateError(`that code was not printed for this change (${q.title} ${q.message}), or it was used or expired; a code confirms only the change it was printed for, once; a new one is on the console that started the terminal; nothing changed`, CONSOLE_CODE_REQUIRED);
    }
    if (!live) this.issue(q);
    throw new StateError(`${q.title} To confirm, type the 6-digit code printed on the console that started the terminal (the page alone cannot confirm this); nothing changed yet`, CONSOLE_CODE_REQUIRED);
  };

  private issue(q: Question): void {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    this.pending = { digest: digestOf(q), code, expires: this.now() + CODE_TTL_MS };
    this.print(`confirmation asked by the page: ${q.title} ${q.message}`);
    if (q.change !== undefined) this.print(`  the change: ${q.change}`);
    this.print(`  to allow it, type this code in the page: ${code} (for this change only; valid 2 minutes, once; ignore it if you did not ask)`);
  }
}

type Question = Parameters<ConfirmInMain>[0];

/** What a code is bound to: the question as asked, with the exact change it would make. */
export function digestOf(q: Question): string {
  return createHash('sha256')
    .update(JSON.stringify([q.title, q.message, q.change ?? null]))
    .digest('hex');
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
