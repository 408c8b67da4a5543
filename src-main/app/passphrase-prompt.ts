// The desktop app's passphrase prompt, without Electron: the page it shows, how its answer is read,
// and what a start does with it. The web host asks on its console (host/passphrase.ts); the
// desktop app has no console, so main shows this page in a small window of its own
// (electron/passphrase-window.ts) when the vault is locked by a passphrase, or when the OS keychain
// is only a fixed password (safeStorage's 'basic_text' on Linux without a secret service), to offer
// one.
//
// The page runs no script at all (the window has JavaScript off): a plain form whose submission
// is a navigation main stops and reads (`readPassphraseAnswer`). Nothing is sent anywhere: the
// address is under `.invalid`, a name that never resolves, main cancels the navigation before it
// starts, and the session refuses every request that is not the app's own anyway.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { vaultHasPassphrase } from '../vault/secret-box';

/** Where the prompt's form goes: read by main, never loaded. */
export const PASSPHRASE_ANSWER_URL = 'https://passphrase.invalid/answer';
/** The shortest passphrase a vault takes (PassphraseBox refuses shorter ones too). */
export const MIN_PASSPHRASE = 8;
/** Most attempts at a locked vault's passphrase in one start. */
export const UNLOCK_ATTEMPTS = 5;
/** A trader who said "don't ask again" to the offer: the file's presence is the answer. */
export const DECLINED_FILE = 'vault.no-passphrase-offer';

export type PassphraseQuestion =
  | { mode: 'unlock'; error?: string }
  /** `warning`: why the keys are weakly sealed now */
  | { mode: 'offer'; warning: string; error?: string };

export type PassphraseAnswer =
  | { action: 'submit'; passphrase: string; confirm: string }
  /** offer: go on without one this time */
  | { action: 'skip' }
  /** offer: go on without one and do not ask again */
  | { action: 'never' }
  /** the window was closed, or unlock was cancelled */
  | { action: 'quit' };

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The warning's first sentence (the rest tells how to get here: this page is the answer). */
function firstSentence(text: string): string {
  const end = text.search(/\.(\s|$)/);
  return end < 0 ? text : text.slice(0, end + 1);
}

/** The prompt page for `q`: self-contained HTML (no script, no request), dark like the terminal. */
export function passphrasePage(q: PassphraseQuestion): string {
  const unlock = q.mode === 'unlock';
  const title = unlock ? 'Unlock your keys' : 'Seal your keys with a passphrase';
  const lead = unlock
    ? 'The vault holding your API keys is locked with a passphrase. Enter it to start the terminal.'
    : `${escapeHtml(firstSentence(q.warning))} A passphrase seals them with a key only you know.`;
  const error = q.error ? `<p class="error" role="alert">${escapeHtml(q.error)}</p>` : '';
  const confirm = unlock
    ? ''
    : `<label for="confirm">Repeat it</label><input id="confirm" name="confirm" type="password" autocomplete="new-password" required minlength="${MIN_PASSPHRASE}">`;
  const buttons = unlock
    ? '<button type="submit" name="action" value="submit" class="primary">Unlock</button><button type="submit" name="action" value="quit" formnovalidate>Quit</button>'
    : '<button type="submit" name="action" value="submit" class="primary">Seal with passphrase</button><button type="submit" name="action" value="skip" formnovalidate>Not now</button><button type="submit" name="action" value="never" formnovalidate>Don\'t ask again</button>';
  const note = unlock
    ? 'A forgotten passphrase cannot be recovered: the keys would have to be imported again.'
    : `At least ${MIN_PASSPHRASE} characters. It is asked at every start; a forgotten passphrase cannot be recovered (the keys would have to be imported again).`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; form-action ${new URL(PASSPHRASE_ANSWER_URL).origin}">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<style>
  :root { color-scheme: dark; }
  body { margin: 0; padding: 20px 24px; background: #111418; color: #d6dbe1; font: 13px/1.45 system-ui, -apple-system, 'Segoe UI', sans-serif; }
  h1 { font-size: 15px; font-weight: 600; margin: 0 0 8px; color: #eef1f4; }
  p { margin: 0 0 12px; color: #aab3bd; }
  .error { color: #f0a0a0; background: #3a1d20; border: 1px solid #6b2c31; padding: 6px 8px; border-radius: 3px; }
  label { display: block; margin: 10px 0 4px; color: #c3cad2; }
  input { box-sizing: border-box; width: 100%; padding: 6px 8px; background: #1a1f25; color: #eef1f4; border: 1px solid #343c46; border-radius: 3px; font: inherit; }
  input:focus { outline: 2px solid #3d7eff; outline-offset: 0; border-color: #3d7eff; }
  .row { display: flex; gap: 8px; justify-content: flex-end; margin-top: 16px; }
  button { padding: 6px 12px; background: #232a32; color: #d6dbe1; border: 1px solid #3a434e; border-radius: 3px; font: inherit; cursor: pointer; }
  button:focus-visible { outline: 2px solid #3d7eff; }
  button.primary { background: #2b5fd9; border-color: #2b5fd9; color: #fff; }
  .note { margin-top: 14px; font-size: 12px; color: #7f8a96; }
</style></head>
<body>
<h1>${title}</h1>
<p>${lead}</p>
${error}
<form method="get" action="${PASSPHRASE_ANSWER_URL}" autocomplete="off">
<label for="passphrase">Passphrase</label><input id="passphrase" name="passphrase" type="password" autocomplete="${unlock ? 'current-password' : 'new-password'}" required minlength="${unlock ? 1 : MIN_PASSPHRASE}" autofocus>
${confirm}
<div class="row">${buttons}</div>
</form>
<p class="note">${note}</p>
</body></html>`;
}

/** The answer a navigation to `url` carries, or null when it is not the prompt's answer. */
export function readPassphraseAnswer(url: string): PassphraseAnswer | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (`${u.origin}${u.pathname}` !== PASSPHRASE_ANSWER_URL) return null;
  const action = u.searchParams.get('action');
  if (action === 'skip' || action === 'never' || action === 'quit') return { action };
  if (action !== 'submit') return null;
  return { action: 'submit', passphrase: u.searchParams.get('passphrase') ?? '', confirm: u.searchParams.get('confirm') ?? '' };
}

export interface PassphraseStart {
  /** the vault's directory (where a passphrase's salt and check live) */
  dir: string;
  /** why the platform's sealing is weak (null: it is not, nothing is offered) */
  warning: string | null;
  ask(q: PassphraseQuestion): Promise<PassphraseAnswer>;
  /** opens a locked vault with `passphrase` to check it; throws when it is wrong */
  check(passphrase: string): void;
}

/**
 * The passphrase this start seals keys with: asked for a locked vault until it is right (at most
 * UNLOCK_ATTEMPTS times; quitting or running out stops the start), offered when the platform's
 * sealing is weak unless the trader said not to ask again; undefined when there is none.
 */
export async function passphraseForStart(s: PassphraseStart): Promise<string | undefined> {
  if (vaultHasPassphrase(s.dir)) {
    let error: string | undefined;
    for (let attempt = 1; attempt <= UNLOCK_ATTEMPTS; attempt++) {
      const a = await s.ask(error === undefined ? { mode: 'unlock' } : { mode: 'unlock', error });
      if (a.action !== 'submit') throw new Error('the vault stays locked: no passphrase was given');
      try {
        s.check(a.passphrase);
        return a.passphrase;
      } catch (err) {
        error = `${err instanceof Error ? err.message : String(err)} (attempt ${attempt} of ${UNLOCK_ATTEMPTS})`;
      }
    }
    throw new Error(`the vault stays locked: ${UNLOCK_ATTEMPTS} wrong passphrases`);
  }
  if (s.warning === null || existsSync(path.join(s.dir, DECLINED_FILE))) return undefined;
  let error: string | undefined;
  for (;;) {
    const a = await s.ask(error === undefined ? { mode: 'offer', warning: s.warning } : { mode: 'offer', warning: s.warning, error });
    if (a.action === 'skip' || a.action === 'quit') return undefined;
    if (a.action === 'never') {
      mkdirSync(s.dir, { recursive: true, mode: 0o700 });
      writeFileSync(path.join(s.dir, DECLINED_FILE), 'the trader declined a vault passphrase; delete this file to be offered one again\n', { mode: 0o600 });
      return undefined;
    }
    if ([...a.passphrase].length < MIN_PASSPHRASE) error = `The passphrase must be at least ${MIN_PASSPHRASE} characters.`;
    else if (a.passphrase !== a.confirm) error = 'The two passphrases differ.';
    else return a.passphrase;
  }
}
