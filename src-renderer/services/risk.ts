// The kill switch from anywhere (hotkey, palette, status bar, app menu, Risk panel): engaging
// needs no question (it only cancels and refuses), releasing always asks.
import { getTerminalApi } from '../lib/bridge';
import { errorText } from '../lib/errors';
import { notify } from '../stores/notices';
import { setRiskView, useRisk } from '../stores/risk';
import { confirmAction } from '../ui/confirm';
import { withConsoleCode } from './console-code';

export async function engageKillSwitch(): Promise<void> {
  try {
    const view = await getTerminalApi().engageKillSwitch();
    setRiskView(view);
    notify('warning', 'Kill switch engaged', view.killSwitch.detail || 'New orders are refused until you release it.');
  } catch (err) {
    notify('error', 'Could not engage the kill switch', errorText(err));
  }
}

export async function releaseKillSwitch(): Promise<void> {
  if (!useRisk.getState().view?.killSwitch.engaged) {
    notify('info', 'The kill switch is not engaged');
    return;
  }
  const ok = await confirmAction({
    title: 'Release the kill switch?',
    body: 'Orders will be accepted again from every panel and key. Nothing canceled comes back.',
    confirmLabel: 'Release',
    danger: true,
  });
  if (!ok) return;
  try {
    setRiskView(await withConsoleCode((code) => getTerminalApi().releaseKillSwitch({ confirm: true, ...(code ? { consoleCode: code } : {}) })));
    notify('info', 'Kill switch released', 'Orders are accepted again.');
  } catch (err) {
    notify('error', 'Could not release the kill switch', errorText(err));
  }
}
