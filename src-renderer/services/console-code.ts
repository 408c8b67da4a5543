// The web host's out-of-band confirmation: loosening a limit or releasing the kill switch is
// refused with `console_code_required` until the page sends back the code the host printed on
// the console that started it. This asks the trader for that code and sends again (Electron asks
// natively in main and never refuses this way).
import { TerminalCallError } from '../lib/bridge';
import { askText } from '../ui/confirm';

const MAX_TRIES = 3;

export async function withConsoleCode<T>(send: (code: string | undefined) => Promise<T>): Promise<T> {
  let code: string | undefined;
  for (let tries = 0; ; tries++) {
    try {
      return await send(code);
    } catch (err) {
      if (!(err instanceof TerminalCallError && err.code === 'console_code_required') || tries >= MAX_TRIES) throw err;
      const typed = await askText({ title: 'Code from the console', body: err.message, label: 'Code from the console', confirmLabel: 'Confirm' });
      if (typed === null) throw err;
      code = typed.trim();
    }
  }
}
