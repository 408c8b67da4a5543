// Keys at rest sealed by the OS keychain (Keychain, DPAPI, libsecret) through safeStorage.
import { safeStorage } from 'electron';
import type { SecretBox } from '../vault/secret-box';
import { keychainWarning } from './keychain';

export class SafeStorageBox implements SecretBox {
  readonly kind: string;
  readonly warning: string | null;

  constructor() {
    if (!safeStorage.isEncryptionAvailable()) {
      throw new Error('the OS keychain is not available (safeStorage); keys cannot be stored safely');
    }
    const backend = process.platform === 'linux' ? safeStorage.getSelectedStorageBackend() : null;
    this.kind = backend ? `electron safeStorage (${backend})` : 'electron safeStorage';
    this.warning = keychainWarning(process.platform, backend);
  }

  seal(plain: Buffer): Buffer {
    return safeStorage.encryptString(plain.toString('utf8'));
  }

  open(sealed: Buffer): Buffer {
    return Buffer.from(safeStorage.decryptString(sealed), 'utf8');
  }
}
