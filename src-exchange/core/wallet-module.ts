// The wallet domain module: money history, allocation and netting (state/wallet.ts). Order
// entry through the API is the orders module's (orders-module.ts).
import { fail, type DomainModule } from '../state/domain';
import { applyWallet, emptyWallet, type WalletCommand, type WalletState } from '../state/wallet';

type Command = WalletCommand;

const STATUS: Record<string, number> = { not_found: 404, conflict: 409, invalid_parameters: 400 };

export const walletModule: DomainModule<WalletState, Command> = {
  name: 'wallet',
  commandTypes: ['seedWalletHistory', 'setTargetBalanceAllocation', 'setSubaccountNetting'],
  empty: emptyWallet,
  apply(state, cmd, ctx) {
    if (cmd.type === 'setSubaccountNetting' && !ctx.engine.listSubaccounts(cmd.userId).includes(cmd.subaccount)) {
      return fail('not_found', `subaccount ${cmd.subaccount} not found`, 404);
    }
    const r = applyWallet(state, cmd);
    return r.ok ? { ok: true } : fail(r.code, r.message, STATUS[r.code]);
  },
};
