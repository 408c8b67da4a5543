import { describe, expect, it } from 'vitest';
import { keychainWarning, passphraseFileArg } from './keychain';

describe('keys at rest under Electron safeStorage', () => {
  it('warns when Linux has no secret service (basic_text, unknown) and offers the passphrase', () => {
    for (const b of ['basic_text', 'unknown'] as const) {
      const w = keychainWarning('linux', b);
      expect(w).toMatch(new RegExp(b));
      expect(w).toMatch(/--passphrase-file/);
      expect(w).toMatch(/offers one when it starts/);
    }
  });

  it('says nothing over a real keychain', () => {
    for (const b of ['gnome_libsecret', 'kwallet', 'kwallet5', 'kwallet6'] as const) expect(keychainWarning('linux', b)).toBeNull();
    expect(keychainWarning('darwin', null)).toBeNull();
    expect(keychainWarning('win32', null)).toBeNull();
  });

  it('finds --passphrase-file in either form', () => {
    expect(passphraseFileArg(['electron', '.', '--passphrase-file', '/a/b'])).toBe('/a/b');
    expect(passphraseFileArg(['electron', '--passphrase-file=/c'])).toBe('/c');
    expect(passphraseFileArg(['electron', '.'])).toBeUndefined();
  });
});
