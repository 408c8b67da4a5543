// The REST passthrough: endpoint rows by their `renderer` access. Reads and harmless writes go
// as asked; rows that can create exposure (RFQ quotes and their acceptance, block trades) are
// sized into intents and pass the risk gate and the kill switch's hold, audited; the rest never
// go (keys are managed in main, orders through the typed methods). An answer that carries key
// material never reaches the renderer.
import type { z } from 'zod';
import type { RestCallInput } from '../../src-shared/ipc/contract';
import type { EndpointId } from '../../src-shared/endpoints';
import { TYPED_INSTEAD, UI_WRITE_ROWS } from '../../src-shared/ipc/ui-rows';
import { endpointRow, validateArgs } from '../api/client';
import { describeIntent, RiskRefusal, type OrderIntent } from '../risk/gate';
import { intentsFor, IntentError } from '../risk/intents';
import type { SendGuard } from '../session/session';
import { StateError } from '../base/errors';
import type { AuditBase, TradingAudit } from './trading-audit';
import type { RiskGate } from './trading-gate';
import type { ActiveSession } from './profiles-service';

export interface PassthroughParts {
  /** the active session, or a StateError */
  need: () => ActiveSession;
  gate: RiskGate;
  audit: TradingAudit;
  guard: (profileId: string) => SendGuard;
}

type Row = ReturnType<typeof endpointRow>;

/** The row a renderer may call through the passthrough, or why not (nothing is sent). */
function rowFor(id: string): Row {
  const row = (() => {
    try {
      return endpointRow(id);
    } catch {
      throw new StateError(`unknown endpoint ${id}`);
    }
  })();
  if (row.renderer === undefined) {
    throw new StateError(`${id} is not available to the UI through request: ${row.id.includes('ApiKey') ? 'keys are managed through the Account panel (importKey, generateKey, rotateKey, deleteKey, revokeExchangeKey), which keep private keys in main' : 'use the typed order methods (cancelOrder, batchCancel, cancelAll, decreaseOrder)'}`);
  }
  if (row.renderer !== 'read' && !UI_WRITE_ROWS.has(row.id as EndpointId)) {
    const instead = TYPED_INSTEAD[row.id as EndpointId];
    throw new StateError(`${id} is not sent through request: no panel writes with it${instead ? `; the terminal uses ${instead}` : ''}. Nothing was sent`);
  }
  return row;
}

/** Rows by their `renderer` access: reads and harmless writes go; exposure goes through the gate; the rest never. */
export async function passthrough(input: z.output<typeof RestCallInput>, p: PassthroughParts): Promise<unknown> {
  const row = rowFor(input.id);
  const active = p.need();
  const args: Record<string, unknown> = {};
  if (input.params) args.params = input.params;
  if (input.query) args.query = input.query;
  if (input.body !== undefined) args.body = input.body;
  const call = (a: Record<string, unknown>, o?: SendGuard) => (active.session.client.call as (id: EndpointId, x: unknown, o?: unknown) => Promise<unknown>)(row.id as EndpointId, a, o);
  if (row.renderer !== 'exposure') return scrub(await call(args));

  // The row's own schemas first: a malformed call is a validation error, not a risk question.
  const v = validateArgs(row, args);
  let intents: OrderIntent[];
  try {
    intents = await intentsFor(row.id, v, { client: active.session.client, userId: active.session.userId });
  } catch (e) {
    if (e instanceof IntentError) throw new RiskRefusal('not_sized', `${row.id}: ${e.message}; nothing was sent`);
    throw e;
  }
  if (intents.length === 0) throw new RiskRefusal('not_sized', `${row.id}: nothing to trade in this call; nothing was sent`);
  // (order creates never come this way: createOrder is refused above, placeOrder carries the client_order_id)
  const first = intents[0]!;
  const base: AuditBase = { action: first.action, origin: input.origin ?? 'api', ticker: first.ticker, asked: { id: row.id, ...args }, gate: 'passed', clientOrderId: null };
  const held = p.gate.pass(active, intents, base, input.confirmed);
  const guard = p.guard(active.profileId);
  try {
    return await p.audit.audited(active, base, async () => scrub(await call(args, guard)), () => intents.map(describeIntent).join('; '));
  } finally {
    // off the book: what it trades comes back as fills and positions
    p.gate.release(held);
  }
}

/** Defense in depth: an answer that carries key material never reaches the renderer. */
function scrub(answer: unknown): unknown {
  if (answer !== null && typeof answer === 'object' && /-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(JSON.stringify(answer))) {
    throw new StateError('the answer carried private key material and was withheld');
  }
  return answer;
}
