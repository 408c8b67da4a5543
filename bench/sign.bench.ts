// Request signing: our signer's headers (message, RSA-PSS SHA-256, base64, the three headers)
// against the bare node:crypto sign of the same message with a key parsed once. The target is
// that the wrapper costs at most 20% over raw crypto (sign_vs_raw_crypto <= 1.2, time ratio).
import { constants, generateKeyPairSync, sign } from 'node:crypto';
import { createSigner } from '../src-main/api/signer';
import { figure, measure, median, report, scaled } from './lib';

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const signer = createSigner({ credentials: { keyId: 'bench-key', privateKeyPem: pem } });
const N = scaled(2_000, 500);
const path = '/trade-api/v2/portfolio/events/orders';
let sink = 0;

const ours = () => {
  for (let i = 0; i < N; i++) sink += signer.headers('POST', `${path}?i=${i}`, 1_700_000_000_000 + i)['SVC-ACCESS-SIGNATURE']!.length;
};
const raw = () => {
  for (let i = 0; i < N; i++) {
    const msg = Buffer.from(`${1_700_000_000_000 + i}POST${path}`, 'utf8');
    sink += sign('sha256', msg, { key: privateKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST }).toString('base64').length;
  }
};

const a = measure('createSigner().headers (RSA-PSS)', N, ours);
const b = measure('node:crypto sign (RSA-PSS), same message', N, raw);
report('Signing a request', [a, b]);
const timeRatio = median(b.opsPerSec) / median(a.opsPerSec);
const ok = timeRatio <= 1.2 && sink > 0;
console.log(`  target time ratio ours / raw <= 1.2: ${timeRatio.toFixed(3)}, ${ok ? 'met' : 'MISSED'}`);
figure('sign_per_s', median(a.opsPerSec), 'signatures/s', median(b.opsPerSec), null);
figure('sign_vs_raw_crypto', timeRatio, 'x (time)', median(b.opsPerSec), timeRatio);
process.exit(ok ? 0 : 2);
