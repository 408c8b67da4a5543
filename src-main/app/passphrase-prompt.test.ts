// The desktop app's passphrase prompt without Electron: what a start asks and does with each
// answer (over a real vault directory and the real PassphraseBox), how an answer is read from the
// form's navigation, and that the page shows text as text. The page itself, in Chromium with
// JavaScript off, is e2e/passphrase-prompt.spec.ts.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileKeyBox, PassphraseBox } from '../vault/secret-box';
import {
  DECLINED_FILE,
  PASSPHRASE_ANSWER_URL,
  UNLOCK_ATTEMPTS,
  passphraseForStart,
  passphrasePage,
  readPassphraseAnswer,
  type PassphraseAnswer,
  type PassphraseQuestion,
} from './passphrase-prompt';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'pass-prompt-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A prompt that answers from a script and records what it was asked. */
function scripted(answers: PassphraseAnswer[]) {
  const asked: PassphraseQuestion[] = [];
  return {
    asked,
    ask: (q: PassphraseQuestion) => {
      asked.push(q);
      const a = answers.shift();
      if (!a) throw new Error(`asked once more than scripted: ${JSON.stringify(q)}`);
      return Promise.resolve(a);
    },
  };
}

const submit = (passphrase: string, confirm = passphrase): PassphraseAnswer => ({ action: 'submit', passphrase, confirm });
const WEAK = 'No OS keychain was found (safeStorage backend: basic_text)';

describe('a locked vault', () => {
  const lock = () => new PassphraseBox(new FileKeyBox(dir), dir, 'correct horse battery');
  const check = (p: string) => void new PassphraseBox(new FileKeyBox(dir), dir, p);

  it('asks until the passphrase is right, saying why the last one was refused', async () => {
    lock();
    const s = scripted([submit('wrong one!'), submit('correct horse battery')]);
    await expect(passphraseForStart({ dir, warning: null, ask: s.ask, check })).resolves.toBe('correct horse battery');
    expect(s.asked[0]).toEqual({ mode: 'unlock' });
    expect(s.asked[1]).toMatchObject({ mode: 'unlock', error: expect.stringMatching(/wrong vault passphrase.*attempt 1 of 5/) });
  });

  it('stops the start when the trader quits or after the last wrong attempt, and is asked even when the keychain is strong', async () => {
    lock();
    await expect(passphraseForStart({ dir, warning: null, ask: scripted([{ action: 'quit' }]).ask, check })).rejects.toThrow(/stays locked: no passphrase/);
    const wrong = scripted(Array.from({ length: UNLOCK_ATTEMPTS }, () => submit('not it at all')));
    await expect(passphraseForStart({ dir, warning: null, ask: wrong.ask, check })).rejects.toThrow(/stays locked: 5 wrong passphrases/);
    expect(wrong.asked).toHaveLength(UNLOCK_ATTEMPTS);
  });
});

describe('the offer over a weak keychain', () => {
  const noCheck = () => expect.fail('an unlocked vault is never checked');

  it('asks nothing over a strong keychain', async () => {
    await expect(passphraseForStart({ dir, warning: null, ask: scripted([]).ask, check: noCheck })).resolves.toBeUndefined();
  });

  it('takes a passphrase typed twice alike and at least 8 characters, saying what was wrong otherwise', async () => {
    const s = scripted([submit('short'), submit('long enough', 'long enuogh'), submit('long enough')]);
    await expect(passphraseForStart({ dir, warning: WEAK, ask: s.ask, check: noCheck })).resolves.toBe('long enough');
    expect(s.asked.map((q) => ('error' in q ? q.error : undefined))).toEqual([undefined, 'The passphrase must be at least 8 characters.', 'The two passphrases differ.']);
    expect(s.asked[0]).toEqual({ mode: 'offer', warning: WEAK });
  });

  it('"Not now" and closing the window go on without one and ask again next start; "Don\'t ask again" is remembered (0600)', async () => {
    for (const action of ['skip', 'quit'] as const) {
      await expect(passphraseForStart({ dir, warning: WEAK, ask: scripted([{ action }]).ask, check: noCheck })).resolves.toBeUndefined();
      expect(existsSync(path.join(dir, DECLINED_FILE))).toBe(false);
    }
    await expect(passphraseForStart({ dir, warning: WEAK, ask: scripted([{ action: 'never' }]).ask, check: noCheck })).resolves.toBeUndefined();
    expect(statSync(path.join(dir, DECLINED_FILE)).mode & 0o777).toBe(0o600);
    await expect(passphraseForStart({ dir, warning: WEAK, ask: scripted([]).ask, check: noCheck })).resolves.toBeUndefined();
  });
});

describe("the prompt's answer", () => {
  it('is read only from the answer address, with the passphrase exactly as typed', () => {
    const typed = 'p&ss word+1 ü=?#';
    const url = `${PASSPHRASE_ANSWER_URL}?passphrase=${encodeURIComponent(typed)}&confirm=${encodeURIComponent(typed)}&action=submit`;
    expect(readPassphraseAnswer(url)).toEqual({ action: 'submit', passphrase: typed, confirm: typed });
    expect(readPassphraseAnswer(`${PASSPHRASE_ANSWER_URL}?passphrase=&action=skip`)).toEqual({ action: 'skip' });
    expect(readPassphraseAnswer(`${PASSPHRASE_ANSWER_URL}?action=never`)).toEqual({ action: 'never' });
    for (const other of [
      'https://passphrase.invalid/other?action=skip',
      'https://passphrase.invalid.evil.example/answer?action=skip',
      'http://passphrase.invalid/answer?action=skip',
      `${PASSPHRASE_ANSWER_URL}?action=delete`,
      `${PASSPHRASE_ANSWER_URL}`,
      'app://terminal/index.html',
      'not a url',
    ]) {
      expect(readPassphraseAnswer(other), other).toBeNull();
    }
  });

  it('the page shows the warning and an error as text, posts only to the answer address, and has no script', () => {
    const html = passphrasePage({ mode: 'offer', warning: 'backend <b>basic_text</b>. Start with --passphrase-file.', error: '"x" & <script>alert(1)</script>' });
    expect(html).toContain('backend &lt;b&gt;basic_text&lt;/b&gt;. A passphrase seals them');
    expect(html).not.toContain('--passphrase-file'); // how to get to this page is not said on it
    expect(html).toContain('&quot;x&quot; &amp; &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain(`action="${PASSPHRASE_ANSWER_URL}"`);
    expect(html).toContain("form-action https://passphrase.invalid");
    expect(passphrasePage({ mode: 'unlock' })).not.toContain('name="confirm"');
  });
});
