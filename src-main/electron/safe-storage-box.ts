// Keys at rest sealed by the OS keychain (Keychain, DPAPI, libsecret) through safeStorage.
import { safeStorage } from 'electron';
import type { SecretBox } from '../vault/secret-box';

export class SafeStorageBox implements SecretBox {
  readonly kind = 'electron safeStorage';

  constructor() {
    if (!safeStorage.isEncryptionAvailable()) {
      throw new Error('the OS keychain is not available (safeStorage); keys cannot be stored safely');
    }
  }

  seal(plain: Buffer): Buffer {
    return safeStorage.encryptString(plain.toString('utf8'));
  }

  open(sealed: Buffer): Buffer {
    return Buffer.from(safeStorage.decryptString(sealed), 'utf8');
  }
}
