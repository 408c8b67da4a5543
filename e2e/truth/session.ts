// A trader at work while the harness samples: orders joined at the bid, amended a row away,
// crossed for fills, canceled, the kill switch engaged and released, the ladder scrolled,
// re-centred (key and button), switched YES/NO, and the bottom panels shown in turn.
import { expect, type Page } from '@playwright/test';
import type { Terminal } from '../fixtures';
import { consoleCode, ladder } from '../helpers';
import type { Doing } from './health';
import type { Panel } from './figures';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** one try of an action on a starved page, and the longest a step waits for what it did to show */
const TRY_MS = 20_000;
const STEP_WAIT_MS = 120_000;
/** the longest one step may take, its own waits included */
const STEP_BOUND_MS = 2 * STEP_WAIT_MS + 30_000;

/** One step of the script; a step that cannot act now (no order to amend) just moves on. */
type Step = { name: string; run: (page: Page, terminal: Terminal) => Promise<void> };

const key = (combo: string): Step['run'] => async (page) => {
  await page.keyboard.press(combo);
};

async function ladderKey(page: Page, combo: string) {
  await page.keyboard.press('Alt+Digit2');
  await expect(ladder(page)).toBeFocused({ timeout: STEP_WAIT_MS });
  await page.keyboard.press(combo);
}

async function wheel(page: Page, notches: number) {
  const box = await ladder(page).boundingBox();
  if (!box) return;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  for (let i = 0; i < Math.abs(notches); i++) await page.mouse.wheel(0, Math.sign(notches) * 100);
}

/** Moves my resting order on the ladder a row away: click its row (the cursor), Shift+Down. */
async function amendOnLadder(page: Page) {
  const mine = ladder(page).locator('.ladder-row').filter({ has: page.locator('.mine') }).first();
  if ((await mine.count()) === 0) return;
  await mine.locator('[data-cell="price"]').click({ timeout: 2000 }).catch(() => undefined);
  await ladder(page).focus();
  await page.keyboard.press('Shift+ArrowDown');
}

/** Shows a panel's tab and waits until it is the one shown (a click lost on a busy page is tried again). */
async function showTab(page: Page, panelKey: string, panel: string, tab: string) {
  await page.keyboard.press(panelKey);
  const t = page.locator(`[data-panel="${panel}"]`).getByRole('tab', { name: tab, exact: true }).first();
  // a page starved by a busy machine (at 1,500 commands/s beside other work) answers late: each
  // try waits long, and the step tries until the tab shows (STEP_WAIT_MS bounds a stuck page only)
  await expect(async () => {
    if ((await t.getAttribute('aria-selected', { timeout: TRY_MS })) !== 'true') await t.click({ timeout: TRY_MS });
    await expect(t).toHaveAttribute('aria-selected', 'true', { timeout: TRY_MS });
  }).toPass({ timeout: STEP_WAIT_MS });
  await showEveryColumn(page, panel);
}

/** A narrow panel's table lets its lower-ranked columns give way ("+N cols"): the trader shows them all, so every figure is on screen to judge. */
async function showEveryColumn(page: Page, panel: string) {
  const more = page.locator(`[data-panel="${panel}"] .more-cols`);
  for (let i = 0; i < (await more.count()); i++) {
    const b = more.nth(i);
    if ((await b.isVisible()) && /^\+\d+ cols?$/.test((await b.innerText()).trim())) await b.click({ timeout: TRY_MS }).catch(() => undefined);
  }
}

/**
 * Flattens the position in the ladder's market (Shift+F) and confirms; with none (the buy before
 * it did not fill), the terminal says so and nothing opens: that notice ends the step at once
 * instead of the dialog's whole wait (two such flattens kept a run going 40 s longer).
 */
async function flatten(page: Page) {
  // a notice of an earlier press would answer for this one: closed first
  const none = page.locator('.toast', { hasText: 'Nothing to flatten.' });
  for (let i = 0; i < 5 && (await none.count()) > 0; i++) await none.first().getByRole('button', { name: 'Dismiss' }).click({ timeout: 2_000 }).catch(() => undefined);
  await ladderKey(page, 'Shift+F');
  const ask = page.getByRole('dialog', { name: 'Flatten position?' });
  const opened = await Promise.race([
    ask.waitFor({ state: 'visible', timeout: TRY_MS }).then(() => true, () => false),
    none.first().waitFor({ state: 'visible', timeout: TRY_MS }).then(() => false, () => false),
  ]);
  if (opened) await ask.getByRole('button', { name: 'Flatten', exact: true }).click({ timeout: STEP_WAIT_MS });
}

/** The Positions tab with its flat (closed or settled) rows listed too: their realized P&L and fees are judged with the rest. */
async function showFlatRows(page: Page) {
  await showTab(page, 'Alt+Digit6', 'positions', 'Positions');
  const toggle = page.locator('[data-panel="positions"] .table-tools button[aria-pressed]').filter({ hasText: /Flat \d+/ });
  if ((await toggle.count()) && (await toggle.first().getAttribute('aria-pressed')) !== 'true' && (await toggle.first().isEnabled())) await toggle.first().click({ timeout: STEP_WAIT_MS });
}

/** Engages by hotkey, then releases: on the web host with the one-time code the host printed on its console. */
async function killAndRelease(page: Page, terminal: Terminal) {
  await page.keyboard.press('ControlOrMeta+Shift+KeyK');
  const status = page.getByRole('contentinfo', { name: 'Status' });
  await expect(status).toContainText('KILL SWITCH ON', { timeout: STEP_WAIT_MS });
  await sleep(1500);
  await status.getByRole('button', { name: 'Release…' }).click();
  const printedBefore = terminal.logs.length;
  await page.getByRole('dialog', { name: 'Release the kill switch?' }).getByRole('button', { name: 'Release' }).click();
  const askCode = page.getByRole('dialog', { name: 'Code from the console' });
  await askCode.getByLabel('Code from the console').fill(await consoleCode(terminal, printedBefore));
  await askCode.getByRole('button', { name: 'Confirm' }).click();
  await expect(status.getByRole('button', { name: 'Kill switch' })).toBeVisible({ timeout: STEP_WAIT_MS });
}

export const SCRIPT: Step[] = [
  { name: 'show resting orders', run: (p) => showTab(p, 'Alt+Digit5', 'orders', 'Resting') },
  { name: 'join the bid (B)', run: (p) => ladderKey(p, 'b') },
  { name: 'cross the offer (Shift+B): a fill', run: (p) => ladderKey(p, 'Shift+B') },
  { name: 'show the tape', run: key('Alt+Backquote') },
  { name: 'amend a row down on the ladder', run: amendOnLadder },
  { name: 'show positions', run: (p) => showTab(p, 'Alt+Digit6', 'positions', 'Positions') },
  { name: 'scroll the ladder up', run: (p) => wheel(p, -3) },
  { name: 'show the balance', run: (p) => showTab(p, 'Alt+Digit6', 'positions', 'Balance') },
  {
    name: 'centre with C after the scroll made it static',
    run: async (p) => {
      await ladderKey(p, 'c');
      // C reaches this ladder (Alt+2 focused it): following again. (The Follow/Static toggle is in
      // the toolbar's "⋯" menu on a narrow ladder; Center, always on the bar, says which.)
      const center = p.locator('[data-panel="ladder"]').getByRole('button', { name: 'Center' });
      await expect.poll(() => center.getAttribute('data-static'), { message: 'the ladder follows again', timeout: STEP_WAIT_MS }).toBeNull();
    },
  },
  { name: 'switch to NO (V)', run: (p) => ladderKey(p, 'v') },
  { name: 'show resting orders', run: (p) => showTab(p, 'Alt+Digit5', 'orders', 'Resting') },
  { name: 'join the bid again (B)', run: (p) => ladderKey(p, 'b') },
  { name: 'scroll the ladder down', run: (p) => wheel(p, 4) },
  { name: 'sell at the bid (Shift+S): a fill', run: (p) => ladderKey(p, 'Shift+S') },
  { name: 'centre with the button', run: async (p) => void (await p.locator('[data-panel="ladder"]').getByRole('button', { name: 'Center' }).click({ timeout: 2000 }).catch(() => undefined)) },
  { name: 'show positions', run: (p) => showTab(p, 'Alt+Digit6', 'positions', 'Positions') },
  { name: 'offer at the ask (S)', run: (p) => ladderKey(p, 's') },
  { name: 'back to YES (V)', run: (p) => ladderKey(p, 'v') },
  // P&L through long, flat, short, flat: Positions (flat rows listed) and the Risk panel's today's P&L
  { name: 'go long: buy at the offer (Shift+B)', run: (p) => ladderKey(p, 'Shift+B') },
  { name: 'show positions with flat rows', run: showFlatRows },
  { name: 'flatten (Shift+F, confirmed)', run: flatten },
  { name: "show the Risk panel's today's P&L", run: key('Alt+Equal') },
  { name: 'go short: sell at the bid (Shift+S)', run: (p) => ladderKey(p, 'Shift+S') },
  { name: 'flatten again (Shift+F, confirmed)', run: flatten },
  { name: 'show positions', run: (p) => showTab(p, 'Alt+Digit6', 'positions', 'Positions') },
  { name: 'show the tape', run: key('Alt+Backquote') },
  { name: 'cancel my orders in this market (Shift+X)', run: (p) => ladderKey(p, 'Shift+X') },
  { name: 'show resting orders', run: (p) => showTab(p, 'Alt+Digit5', 'orders', 'Resting') },
  { name: 'join the bid (B)', run: (p) => ladderKey(p, 'b') },
  { name: 'kill switch on, then released', run: killAndRelease },
];

/** The script's step that shows a panel the judge still waits on (one that needs luck: still insides while shown). */
const SHOW: Partial<Record<Panel, Step['run']>> = Object.fromEntries(
  (
    [
      ['risk', "show the Risk panel's today's P&L"],
      ['balance', 'show the balance'],
      ['positions', 'show positions'],
      ['pnl', 'show positions with flat rows'],
      ['blotter', 'show resting orders'],
      ['tape', 'show the tape'],
    ] as const
  ).map(([panel, name]) => {
    const step = SCRIPT.find((s) => s.name === name);
    if (!step) throw new Error(`the script has no step "${name}"`);
    return [panel, step.run];
  }),
);
/** how long the trader leaves such a panel in view for the samples to judge it */
const HOLD_MS = 5000;

/**
 * Runs the script in a loop until `until`, a step every `pauseMs`; returns the steps done (also
 * pushed into `done` as they finish, for the sampler to know how far the trader got). Once the
 * time asked for is over, `needs` names the panels never judged yet: between two steps the trader
 * shows one of them and leaves it in view for a while (on a slow page at a high rate, a panel
 * shown for one step can go by without two still samples).
 */
export async function trade(page: Page, terminal: Terminal, until: () => boolean, pauseMs = 700, done: string[] = [], doing?: Doing, needs: () => Panel[] = () => []): Promise<string[]> {
  const note = (step: string) => doing && Object.assign(doing, { step, since: Date.now() });
  for (let i = 0; until() === false; i++) {
    const step = SCRIPT[i % SCRIPT.length]!;
    note(step.name);
    try {
      await bounded(step.run(page, terminal));
      done.push(step.name);
    } catch (err) {
      done.push(`${step.name} (failed: ${(err as Error).message.split('\n')[0]})`);
    }
    await closeDialog(page);
    const wanted = needs().find((p) => SHOW[p]);
    if (wanted && !until()) {
      note(`show ${wanted} and hold it (never judged yet)`);
      await bounded(SHOW[wanted]!(page, terminal)).catch(() => undefined);
      await closeDialog(page);
      await sleep(HOLD_MS);
    }
    note('(a pause between steps)');
    await sleep(pauseMs);
  }
  return done;
}

/** A step that neither acts nor fails (a key the page never takes) is told as failed, with how long it waited, instead of holding the script for the rest of the run. */
async function bounded(run: Promise<void>): Promise<void> {
  let bound: ReturnType<typeof setTimeout> | undefined;
  const stuck = new Promise<never>((_, reject) => {
    bound = setTimeout(() => reject(new Error(`the step did not end in ${STEP_BOUND_MS / 1000} s`)), STEP_BOUND_MS);
  });
  await Promise.race([run, stuck]).finally(() => clearTimeout(bound));
}

/** A dialog left open (a confirmation) would freeze the keys: close it. */
async function closeDialog(page: Page): Promise<void> {
  if (await page.getByRole('dialog').count()) await page.keyboard.press('Escape');
}
