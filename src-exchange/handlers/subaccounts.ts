// Subaccounts: numbered wallet partitions (0 primary, 1-63), cash transfers between them
// (idempotent by client_transfer_id) and netting. A subaccount-scoped key sees only its own
// subaccount and may not open subaccounts or move cash between them.
import type { z } from 'zod';
import { MICRO_PER_CENT, microToCents } from '../engine/units';
import type { TransferView } from '../engine/types';
import type { HandlerCtx } from '../http/app';
import { forbidden } from '../core/errors';
import type { CreateSubaccountRequest, SetSubaccountNettingRequest, SubaccountTransferRequest } from '../../src-shared/wire/portfolio';
import { walletOf } from '../state/wallet';
import { engineOf, requireShard, walletState, subaccountFilter } from './engine-access';
import { dollarsText, seconds } from './present';
import { caller, pageOf, subaccountOf, type HandlerMap } from './support';
import { run, type Services } from '../core/services';

function accountWide(ctx: HandlerCtx, what: string): void {
  const c = caller(ctx);
  if (c.subaccount !== null) throw forbidden(`this API key is restricted to subaccount ${c.subaccount}; ${what} needs an account-wide key`);
}

/** A transfer as getSubaccountTransfers lists it (cents, exchange 0). */
function transferBody(t: TransferView) {
  return {
    transfer_id: t.transfer_id,
    client_transfer_id: t.client_transfer_id,
    from_subaccount: t.from_subaccount,
    to_subaccount: t.to_subaccount,
    amount_cents: microToCents(t.amount),
    created_ts: t.created_ts,
    exchange_index: 0,
  };
}

export function subaccountHandlers(svc: Services): HandlerMap {
  return {
    createSubaccount: async (ctx) => {
      accountWide(ctx, 'opening a subaccount');
      const b = ctx.body as z.output<typeof CreateSubaccountRequest>;
      requireShard(b.exchange_index);
      const r = await run<{ subaccount: number }>(svc, { type: 'createSubaccount', nowMs: svc.node.now(), userId: caller(ctx).userId });
      return { subaccount_number: r.subaccount };
    },

    transferBetweenSubaccounts: async (ctx) => {
      accountWide(ctx, 'moving cash between subaccounts');
      const b = ctx.body as z.output<typeof SubaccountTransferRequest>;
      requireShard(b.exchange_index);
      // a repeat of a client_transfer_id is answered like the first and moves nothing
      await run(svc, {
        type: 'transfer',
        nowMs: svc.node.now(),
        userId: caller(ctx).userId,
        clientTransferId: b.client_transfer_id,
        fromSubaccount: b.from_subaccount,
        toSubaccount: b.to_subaccount,
        amountMicro: b.amount_cents * MICRO_PER_CENT,
      });
      return {};
    },

    getSubaccountBalances: (ctx) => {
      const c = caller(ctx);
      const only = subaccountFilter(ctx, undefined);
      return {
        subaccount_balances: engineOf(svc)
          .listBalances(c.userId)
          .filter((b) => only === undefined || b.subaccount === only)
          .map((b) => ({ subaccount_number: b.subaccount, balance: dollarsText(b.available), updated_ts: seconds(b.updated_ms), exchange_index: 0 })),
      };
    },

    getSubaccountTransfers: (ctx) => {
      const c = caller(ctx);
      const q = ctx.query as { limit?: number; cursor?: string };
      const only = subaccountFilter(ctx, undefined);
      const all = engineOf(svc)
        .getTransfers(c.userId)
        .filter((t) => only === undefined || t.from_subaccount === only || t.to_subaccount === only);
      const page = pageOf(all, q.cursor, q.limit);
      return {
        transfers: page.items.map(transferBody),
        cursor: page.cursor,
        has_next: page.has_next,
      };
    },

    setSubaccountNetting: async (ctx) => {
      const b = ctx.body as z.output<typeof SetSubaccountNettingRequest>;
      const sub = subaccountOf(ctx, b.subaccount_number, 0) ?? 0;
      await run(svc, { type: 'setSubaccountNetting', nowMs: svc.node.now(), userId: caller(ctx).userId, subaccount: sub, enabled: b.enabled });
      return {};
    },

    getSubaccountNetting: (ctx) => {
      const c = caller(ctx);
      const only = subaccountFilter(ctx, undefined);
      const netting = walletOf(walletState(svc), c.userId).netting;
      return {
        netting_configs: engineOf(svc)
          .listSubaccounts(c.userId)
          .filter((n) => only === undefined || n === only)
          .map((n) => ({ subaccount_number: n, enabled: netting[String(n)] === true, exchange_index: 0 })),
      };
    },
  };
}
