// A trader at work while the harness samples: orders joined at the bid, amended a row away,
// crossed for fills, canceled, the kill switch engaged and released, the ladder scrolled,
// re-centred (key and button), switched YES/NO, and the bottom panels shown in turn.
import { expect, type Page } from '@playwright/test';
import type { Terminal } from '../fixtures';
import { consoleCode, ladder } from '../helpers';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One step of the script; a step that cannot act now (no order to amend) just moves on. */
type Step = { name: string; run: (page: Page, terminal: Terminal) => Promise<void> };

const key = (combo: string): Step['run'] => async (page) => {
  await page.keyboard.press(combo);
};

async function ladderKey(page: Page, combo: string) {
  await page.keyboard.press('Alt+Digit2');
  await expect(ladder(page)).toBeFocused({ timeout: 10_000 });
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

async function showTab(page: Page, panelKey: string, panel: string, tab: string) {
  await page.keyboard.press(panelKey);
  const t = page.locator(`[data-panel="${panel}"]`).getByRole('tab', { name: tab, exact: true });
  if (await t.count()) await t.first().click({ timeout: 2000 }).catch(() => undefined);
}

/** Engages by hotkey, then releases: on the web host with the one-time code the host printed on its console. */
async function killAndRelease(page: Page, terminal: Terminal) {
  await page.keyboard.press('ControlOrMeta+Shift+KeyK');
  const status = page.getByRole('contentinfo', { name: 'Status' });
  await expect(status).toContainText('KILL SWITCH ON', { timeout: 10_000 });
  await sleep(1500);
  await status.getByRole('button', { name: 'Release…' }).click();
  const printedBefore = terminal.logs.length;
  await page.getByRole('dialog', { name: 'Release the kill switch?' }).getByRole('button', { name: 'Release' }).click();
  const askCode = page.getByRole('dialog', { name: 'Code from the console' });
  await askCode.getByLabel('Code from the console').fill(await consoleCode(terminal, printedBefore));
  await askCode.getByRole('button', { name: 'Confirm' }).click();
  await expect(status.getByRole('button', { name: 'Kill switch' })).toBeVisible({ timeout: 10_000 });
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
      await expect.poll(() => center.getAttribute('data-static'), { message: 'the ladder follows again', timeout: 10_000 }).toBeNull();
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
  { name: 'show the tape', run: key('Alt+Backquote') },
  { name: 'cancel my orders in this market (Shift+X)', run: (p) => ladderKey(p, 'Shift+X') },
  { name: 'show resting orders', run: (p) => showTab(p, 'Alt+Digit5', 'orders', 'Resting') },
  { name: 'join the bid (B)', run: (p) => ladderKey(p, 'b') },
  { name: 'kill switch on, then released', run: killAndRelease },
];

/** Runs the script in a loop until `until`, a step every `pauseMs`; returns the steps done. */
export async function trade(page: Page, terminal: Terminal, until: () => boolean, pauseMs = 700): Promise<string[]> {
  const done: string[] = [];
  for (let i = 0; until() === false; i++) {
    const step = SCRIPT[i % SCRIPT.length]!;
    try {
      await step.run(page, terminal);
      done.push(step.name);
    } catch (err) {
      done.push(`${step.name} (failed: ${(err as Error).message.split('\n')[0]})`);
    }
    // a dialog left open (a confirmation) would freeze the keys: close it
    const dialog = page.getByRole('dialog');
    if (await dialog.count()) await page.keyboard.press('Escape');
    await sleep(pauseMs);
  }
  return done;
}
