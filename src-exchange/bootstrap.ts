// First start in an empty data dir: the steps that seed a new exchange, in order. Each is a
// sequence of ordinary journaled commands, so a restart replays them like anything else.
import { randomUUID } from 'node:crypto';
import type { Services } from './core/services';
import { run } from './core/services';
import { seedWalletHistory } from './sim/wallet-seed';
import { DEFAULT_ACCOUNTS, generateRsaKeyPair, type AccountPlan, type KeyPair } from './provision';
import type { BootstrapStep } from './server-types';
import type { ProvisionedAccount } from '../src-shared/credentials';
import { seedCatalog } from './sim/catalog-seed';

/** Starting cash per provisioned account: $100,000 of paper money, in micro-dollars. */
export const STARTING_CASH_MICRO = 100_000 * 1_000_000;

/** `keys` are used in order, one per account, instead of generating (tests); past them keys are generated. */
export async function provisionAccounts(svc: Services, plans: readonly AccountPlan[] = DEFAULT_ACCOUNTS, keys: readonly KeyPair[] = []): Promise<ProvisionedAccount[]> {
  const out: ProvisionedAccount[] = [];
  for (const [i, plan] of plans.entries()) {
    const user_id = randomUUID();
    const api_key_id = randomUUID();
    const { publicKeyPem, privateKeyPem } = keys[i] ?? generateRsaKeyPair();
    await run(svc, { type: 'createUser', nowMs: svc.node.now(), user_id, name: plan.name, is_fcm_member: plan.fcm });
    await run(svc, {
      type: 'addApiKey',
      nowMs: svc.node.now(),
      key: {
        api_key: api_key_id,
        user_id,
        name: `${plan.name} (provisioned)`,
        public_key_pem: publicKeyPem,
        key_type: 'rsa',
        scopes: ['read', 'write'],
        subaccount: null,
        fcm_subtrader_id: null,
      },
    });
    await run(svc, { type: 'deposit', nowMs: svc.node.now(), userId: user_id, amountMicro: STARTING_CASH_MICRO });
    out.push({ name: plan.name, user_id, api_key_id, private_key_pem: privateKeyPem, fcm: plan.fcm });
  }
  return out;
}

/** Seeding steps after accounts exist (catalog, history...). Families register theirs here. */
export const bootstrapSteps: BootstrapStep[] = [
  seedCatalog,
  seedWalletHistory,
];
