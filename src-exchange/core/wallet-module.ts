// The wallet domain module: money history, allocation and netting (state/wallet.ts), and
// `apiCreateOrder`: an engine create that also records the order as placed through the API,
// in one journal record (the usage-level upgrade asks whether recent orders came that way).
import type { CreateOrderCommand, OrderView } from '../engine/types';
import { fail, type DomainModule } from './domain';
import { applyWallet, emptyWallet, recordApiOrder, type WalletCommand, type WalletState } from '../state/wallet';

export type ApiCreateOrderCommand = {
  type: 'apiCreateOrder';
  nowMs: number;
  order: Omit<CreateOrderCommand, 'type' | 'nowMs'>;
};

export interface ApiCreateOrderResult {
  ok: true;
  order: OrderView;
  duplicate: boolean;
}

type Command = WalletCommand | ApiCreateOrderCommand;

const STATUS: Record<string, number> = { not_found: 404, conflict: 409, invalid_parameters: 400 };

export const walletModule: DomainModule<WalletState, Command> = {
  name: 'wallet',
  commandTypes: ['seedWalletHistory', 'setTargetBalanceAllocation', 'setSubaccountNetting', 'apiCreateOrder'],
  empty: emptyWallet,
  apply(state, cmd, ctx) {
    if (cmd.type === 'apiCreateOrder') {
      const r = ctx.engine.apply({ ...cmd.order, type: 'createOrder', nowMs: cmd.nowMs });
      for (const e of r.events) ctx.emit(e);
      if (!r.ok) {
        if (r.mutated) ctx.markMutated();
        return fail(r.code, r.message, undefined, r.details);
      }
      if (!r.duplicate) recordApiOrder(state, r.order.user_id, r.order.order_id);
      return { ok: true, order: r.order, duplicate: r.duplicate } satisfies ApiCreateOrderResult;
    }
    if (cmd.type === 'setSubaccountNetting' && !ctx.engine.listSubaccounts(cmd.userId).includes(cmd.subaccount)) {
      return fail('not_found', `subaccount ${cmd.subaccount} not found`, 404);
    }
    const r = applyWallet(state, cmd);
    return r.ok ? { ok: true } : fail(r.code, r.message, STATUS[r.code]);
  },
};
