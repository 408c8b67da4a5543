// What the page said while a test ran: every toast and alert as it appeared (its text and when),
// recorded in the page from its first script on (the fixture adds it to every page). Two uses:
// a failed test's report prints the last of them (a CI log shows only text, and a key that "did
// nothing" usually said why in a toast gone by the time the assertion gave up), and a step can
// ask what was said since a mark (did the order that joined the bid fill?).
import type { Page } from '@playwright/test';

interface Said {
  /** how many lines were ever said (the kept ones are the newest) */
  total: number;
  lines: string[];
}

/** Runs in the page (page.addInitScript): keeps the newest 500 lines in window.__e2eSaid. */
export function recordSaid(): void {
  const said: Said = { total: 0, lines: [] };
  (window as unknown as { __e2eSaid: Said }).__e2eSaid = said;
  const SAYS = '.toast, [role="alert"]';
  const seen = new WeakMap<Element, string>();
  const t0 = performance.now();
  // Read every 200 ms, not on every change: a live book changes the page thousands of times a
  // second, and a MutationObserver over the whole document made the recorder itself a load on a
  // starved page. A toast stays for seconds and an alert until it is answered; the page is read
  // once more whenever the test asks what was said (saidNow).
  const look = () => {
    for (const el of document.querySelectorAll(SAYS)) {
      const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim();
      if (!text || seen.get(el) === text) continue;
      seen.set(el, text);
      said.total++;
      said.lines.push(`${((performance.now() - t0) / 1000).toFixed(1)} s  ${text.slice(0, 200)}`);
      if (said.lines.length > 500) said.lines.shift();
    }
  };
  (window as unknown as { __e2eSaidNow: () => void }).__e2eSaidNow = look;
  setInterval(look, 200);
}

async function said(page: Page): Promise<Said> {
  return page.evaluate(() => {
    const w = window as unknown as { __e2eSaid?: Said; __e2eSaidNow?: () => void };
    w.__e2eSaidNow?.();
    return w.__e2eSaid ?? { total: 0, lines: [] };
  });
}

/** A mark to ask saidSince from. */
export async function saidMark(page: Page): Promise<number> {
  return (await said(page)).total;
}

/** The lines said after `mark` (each "12.3 s  text"). */
export async function saidSince(page: Page, mark: number): Promise<string[]> {
  const s = await said(page);
  return s.lines.slice(Math.max(0, s.lines.length - (s.total - mark)));
}

/** The page as a failed test left it: the last 40 things it said, where the keys go, the status bar. */
export async function pageAtFailure(page: Page): Promise<string> {
  const state = await page
    .evaluate(() => {
      (window as unknown as { __e2eSaidNow?: () => void }).__e2eSaidNow?.();
      const a = document.activeElement;
      const panel = a?.closest('[data-panel]')?.getAttribute('data-panel');
      const focus = a ? `${a.tagName.toLowerCase()}${a.getAttribute('role') ? ` role=${a.getAttribute('role')}` : ''}${a.getAttribute('aria-label') ? ` "${a.getAttribute('aria-label')}"` : ''}${panel ? ` in panel ${panel}` : ''}` : 'none';
      const status = ((document.querySelector('[role="contentinfo"]') as HTMLElement | null)?.innerText ?? '').replace(/\s+/g, ' ').trim();
      return { lines: (window as unknown as { __e2eSaid?: Said }).__e2eSaid?.lines.slice(-40) ?? [], focus, status };
    })
    .catch((e: unknown) => ({ lines: [`(the page did not answer: ${String(e).slice(0, 120)})`], focus: '?', status: '?' }));
  return [
    `e2e: the page at failure: focus on ${state.focus}`,
    `e2e: status bar: ${state.status.slice(0, 240)}`,
    'e2e: toasts and alerts the page showed (newest last):',
    ...state.lines.map((l) => `e2e:   ${l}`),
  ].join('\n');
}
