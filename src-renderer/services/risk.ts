// The kill switch from anywhere (hotkey, palette, status bar, app menu, Risk panel): engaging
// needs no question (it only cancels and refuses; main also holds every local order and stops
// every strategy), releasing always asks, and says what resumes: with local orders held, per kind.
import type { LocalKind, LocalOrdersView } from '../../src-shared/ipc/tools';
import { getTerminalApi } from '../lib/bridge';
import { errorText } from '../lib/errors';
import { notify } from '../stores/notices';
import { setRiskView, useRisk } from '../stores/risk';
import { setLocalView, useTools } from '../stores/tools';
import { askKillRelease, heldByKind, heldCount, heldText, type HeldByKind } from '../stores/kill-release';
import { confirmAction } from '../ui/confirm';
import { withConsoleCode } from './console-code';

/** The local orders main holds for the kill switch, read fresh (the stream's copy when the read fails). */
async function heldNow(): Promise<HeldByKind> {
  let view: LocalOrdersView | null | undefined = null;
  try {
    view = await getTerminalApi().getLocalOrders();
    if (view) setLocalView(view);
  } catch {
    view = null;
  }
  return heldByKind((view ?? useTools.getState().local)?.orders ?? []);
}

export async function engageKillSwitch(): Promise<void> {
  try {
    const view = await getTerminalApi().engageKillSwitch();
    setRiskView(view);
    const held = heldText(await heldNow());
    const also = `${held ? ` Local orders held (they do not fire until you release it): ${held}.` : ''} Strategies are stopped.`;
    notify('warning', 'Kill switch engaged', `${view.killSwitch.detail || 'New orders are refused until you release it.'}${also}`);
  } catch (err) {
    notify('error', 'Could not engage the kill switch', errorText(err));
  }
}

export async function releaseKillSwitch(): Promise<void> {
  if (!useRisk.getState().view?.killSwitch.engaged) {
    notify('info', 'The kill switch is not engaged');
    return;
  }
  const held = await heldNow();
  let rearm: LocalKind[] = [];
  if (heldCount(held) > 0) {
    const chosen = await askKillRelease(held);
    if (chosen === null) return;
    rearm = chosen;
  } else {
    const ok = await confirmAction({
      title: 'Release the kill switch?',
      body: 'Orders will be accepted again from every panel and key. Nothing canceled comes back; strategies it stopped stay stopped (start them again from Strategies). No local order is held.',
      confirmLabel: 'Release',
      danger: true,
    });
    if (!ok) return;
  }
  try {
    setRiskView(await withConsoleCode((code) => getTerminalApi().releaseKillSwitch({ confirm: true, ...(code ? { consoleCode: code } : {}) })));
  } catch (err) {
    notify('error', 'Could not release the kill switch', errorText(err));
    return;
  }
  if (heldCount(held) === 0) {
    notify('info', 'Kill switch released', 'Orders are accepted again.');
    return;
  }
  const again: HeldByKind = {};
  const off: HeldByKind = {};
  for (const [k, n] of Object.entries(held) as [LocalKind, number][]) (rearm.includes(k) ? again : off)[k] = n;
  try {
    setLocalView(await getTerminalApi().releaseKillHeldLocal({ rearm }));
    const parts = [heldText(again) && `armed again: ${heldText(again)}`, heldText(off) && `left disarmed: ${heldText(off)}`].filter(Boolean);
    notify('info', 'Kill switch released', `Orders are accepted again. Local orders ${parts.join('; ')}.`);
  } catch (err) {
    notify('warning', 'Kill switch released; local orders still held', `${errorText(err)}. Choose for them in Orders → Local.`);
  }
}
