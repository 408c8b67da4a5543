// The text size setting at work: applied to the page from the settings (at start, as soon as
// main's settings arrive, and on every change), and stepped by Alt+Shift+= / Alt+Shift+- (saved
// like any setting, so it is there after a restart).
import { useEffect } from 'react';
import { useCommand } from '../../lib/commands';
import { errorText } from '../../lib/errors';
import { applyFontSize, stepFont } from '../../lib/ui-scale';
import { notify } from '../../stores/notices';
import { useSession } from '../../stores/session';

export function useFontSize(): void {
  const fontPx = useSession((s) => s.settings.fontPx);
  useEffect(() => applyFontSize(fontPx), [fontPx]);
  const step = (dir: 1 | -1) => {
    const s = useSession.getState();
    const next = stepFont(s.settings.fontPx, dir);
    if (next === (s.settings.fontPx ?? 12)) return notify('info', `Text size ${next} px`, dir > 0 ? 'This is the largest.' : 'This is the smallest.');
    s.saveSettings({ fontPx: next }).then(
      () => notify('info', `Text size ${next} px`),
      (err: unknown) => notify('error', 'Could not save the text size', errorText(err)),
    );
  };
  useCommand('app.fontLarger', () => step(1));
  useCommand('app.fontSmaller', () => step(-1));
}
