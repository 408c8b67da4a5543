// The passphrase prompt's window: shows app/passphrase-prompt.ts's page and reads its answer from
// the navigation its form starts (cancelled here, and by the session's rules in main.ts too).
import { BrowserWindow } from 'electron';
import { passphrasePage, readPassphraseAnswer, type PassphraseAnswer, type PassphraseQuestion } from '../app/passphrase-prompt';
import { passphraseWindowOptions } from './security';

export function askPassphraseInWindow(q: PassphraseQuestion): Promise<PassphraseAnswer> {
  return new Promise((resolve) => {
    const win = new BrowserWindow(passphraseWindowOptions());
    let answered = false;
    const done = (a: PassphraseAnswer): void => {
      if (answered) return;
      answered = true;
      resolve(a);
      if (!win.isDestroyed()) win.destroy();
    };
    win.webContents.on('will-navigate', (ev, url) => {
      ev.preventDefault();
      const a = readPassphraseAnswer(url);
      if (a) done(a);
    });
    win.on('closed', () => done({ action: 'quit' }));
    win.once('ready-to-show', () => win.show());
    void win.loadURL(`data:text/html;charset=utf-8,${encodeURIComponent(passphrasePage(q))}`);
  });
}
