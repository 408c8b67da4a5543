// What safeStorage's Linux backend means for keys at rest. Without a secret service (no GNOME
// keyring or KWallet), Chromium's OSCrypt falls back to 'basic_text': a fixed, public password, so
// sealed keys are only obscured. Pure, so it is tested without Electron.
export type LinuxBackend = 'basic_text' | 'gnome_libsecret' | 'kwallet' | 'kwallet5' | 'kwallet6' | 'unknown';

export function keychainWarning(platform: NodeJS.Platform, backend: LinuxBackend | null): string | null {
  if (platform !== 'linux' || backend === null) return null;
  if (backend === 'basic_text' || backend === 'unknown') {
    return `No OS keychain was found (safeStorage backend: ${backend}): keys are sealed with a fixed password anyone can look up. Seal them with a passphrase: the terminal offers one when it starts (if you chose "Don't ask again", delete vault.no-passphrase-offer in its data folder), or start it with --passphrase-file <file>; or install and unlock a secret service (GNOME Keyring, KWallet) and restart.`;
  }
  return null;
}

/** `--passphrase-file <file>` or `--passphrase-file=<file>` among the app's arguments */
export function passphraseFileArg(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--passphrase-file') return argv[i + 1];
    if (a.startsWith('--passphrase-file=')) return a.slice('--passphrase-file='.length);
  }
  return undefined;
}
