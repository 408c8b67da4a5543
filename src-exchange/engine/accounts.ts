// Money movement: deposits, withdrawals, subaccounts and transfers between them.

import { isId, reject, type Reject } from './errors';
import { available, ensureAccount, isSubaccountNumber, MAX_SUBACCOUNT, newSubaccount } from './ledger';
import { balanceView, type State } from './engine-state';
import type {
  CommandOutputs,
  CreateSubaccountCommand,
  DepositCommand,
  EngineEvent,
  TransferCommand,
  TransferView,
  WithdrawCommand,
} from './types';
import { MAX_SAFE } from './units';

function isAmount(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v > 0;
}

export function deposit(st: State, cmd: DepositCommand, _ev: EngineEvent[]): Reject | CommandOutputs['deposit'] {
  if (!isId(cmd.userId)) return reject('invalid_parameters', 'user id is required');
  const subN = cmd.subaccount ?? 0;
  if (!isSubaccountNumber(subN)) return reject('invalid_parameters', 'subaccount must be an integer 0-63');
  if (!isAmount(cmd.amountMicro)) return reject('invalid_parameters', 'amount must be a positive whole number of micro-dollars');
  const existing = st.accounts.get(cmd.userId);
  const current = existing?.subs[subN];
  if (subN !== 0 && !current) return reject('not_found', `subaccount ${subN} not found`);
  if ((current?.cash ?? 0) + cmd.amountMicro > MAX_SAFE || st.totals.deposits + cmd.amountMicro > MAX_SAFE) {
    return reject('invalid_parameters', 'amount would exceed the largest supported balance');
  }
  const account = ensureAccount(st, cmd.userId, cmd.nowMs);
  const sub = account.subs[subN]!;
  sub.cash += cmd.amountMicro;
  sub.updated_ms = cmd.nowMs;
  st.totals.deposits += cmd.amountMicro;
  st.touchSub(account, sub);
  return { balance: balanceView(account.user_id, sub) };
}

export function withdraw(st: State, cmd: WithdrawCommand, _ev: EngineEvent[]): Reject | CommandOutputs['withdraw'] {
  if (!isId(cmd.userId)) return reject('invalid_parameters', 'user id is required');
  const subN = cmd.subaccount ?? 0;
  if (!isSubaccountNumber(subN)) return reject('invalid_parameters', 'subaccount must be an integer 0-63');
  if (!isAmount(cmd.amountMicro)) return reject('invalid_parameters', 'amount must be a positive whole number of micro-dollars');
  const account = st.accounts.get(cmd.userId);
  const sub = account?.subs[subN];
  if (!account || !sub) return subN === 0 ? reject('insufficient_balance', 'insufficient balance') : reject('not_found', `subaccount ${subN} not found`);
  if (available(sub) < cmd.amountMicro) return reject('insufficient_balance', 'insufficient balance');
  sub.cash -= cmd.amountMicro;
  sub.updated_ms = cmd.nowMs;
  st.totals.withdrawals += cmd.amountMicro;
  st.touchSub(account, sub);
  return { balance: balanceView(account.user_id, sub) };
}

export function createSubaccount(st: State, cmd: CreateSubaccountCommand, _ev: EngineEvent[]): Reject | CommandOutputs['createSubaccount'] {
  if (!isId(cmd.userId)) return reject('invalid_parameters', 'user id is required');
  const existing = st.accounts.get(cmd.userId);
  let n = 1;
  while (n <= MAX_SUBACCOUNT && existing?.subs[n]) n++;
  if (n > MAX_SUBACCOUNT) return reject('invalid_parameters', 'all 63 subaccounts are in use');
  const account = ensureAccount(st, cmd.userId, cmd.nowMs);
  account.subs[n] = newSubaccount(n, cmd.nowMs);
  st.touchSub(account, account.subs[n]!);
  return { subaccount: n };
}

export function transfer(st: State, cmd: TransferCommand, ev: EngineEvent[]): Reject | CommandOutputs['transfer'] {
  if (!isId(cmd.userId)) return reject('invalid_parameters', 'user id is required');
  if (!isId(cmd.clientTransferId, 128)) return reject('invalid_parameters', 'client_transfer_id must be 1-128 characters');
  const account = st.accounts.get(cmd.userId);
  const prior = account?.clientTransfers.get(cmd.clientTransferId);
  if (account && prior !== undefined) {
    const original = account.transfers.find((t) => t.transfer_id === prior)!;
    return { transfer: { ...original }, duplicate: true };
  }
  if (!isSubaccountNumber(cmd.fromSubaccount) || !isSubaccountNumber(cmd.toSubaccount)) {
    return reject('invalid_parameters', 'subaccounts must be integers 0-63');
  }
  if (cmd.fromSubaccount === cmd.toSubaccount) return reject('invalid_parameters', 'source and destination subaccounts are the same');
  if (!isAmount(cmd.amountMicro)) return reject('invalid_parameters', 'amount must be a positive whole number of micro-dollars');
  const from = account?.subs[cmd.fromSubaccount];
  const to = account?.subs[cmd.toSubaccount];
  if (!account || !from || !to) return reject('not_found', 'subaccount not found');
  if (available(from) < cmd.amountMicro) return reject('insufficient_balance', 'insufficient balance');
  if (to.cash + cmd.amountMicro > MAX_SAFE) return reject('invalid_parameters', 'amount would exceed the largest supported balance');
  from.cash -= cmd.amountMicro;
  to.cash += cmd.amountMicro;
  from.updated_ms = cmd.nowMs;
  to.updated_ms = cmd.nowMs;
  st.touchSub(account, from);
  st.touchSub(account, to);
  const t: TransferView = {
    transfer_id: st.nextId('transfer'),
    client_transfer_id: cmd.clientTransferId,
    user_id: account.user_id,
    from_subaccount: cmd.fromSubaccount,
    to_subaccount: cmd.toSubaccount,
    amount: cmd.amountMicro,
    created_ts: Math.floor(cmd.nowMs / 1000),
  };
  account.transfers.push(t);
  account.clientTransfers.set(cmd.clientTransferId, t.transfer_id);
  ev.push({ type: 'transfer', transfer: { ...t } });
  return { transfer: { ...t }, duplicate: false };
}
