// The one door between the renderer and main. It refuses any method not in the contract,
// parses every argument with the method's zod schema, dispatches to the services, and turns
// whatever went wrong into a TerminalError the UI can show. Nothing else touches IPC.
import { z } from 'zod';
import { METHOD_NAMES, methodArgs, methodChannel, type ChannelImpls, type DoorResult, type MethodName, type ServiceMethods, type TerminalError } from '../../src-shared/ipc/contract';
import { ApiError, ArgsValidationError, NetworkError, formatIssues } from '../api/errors';
import { KeyError } from '../api/signer';
import { ProfileError } from '../api/profiles';
import { ConfigFileError, StateError } from '../base/errors';
import { ClockSkewError } from '../api/clock';
import { RiskRefusal } from '../risk/gate';

export type Dispatch = (method: MethodName, args: unknown[]) => Promise<unknown>;

export type { DoorResult };

export function toTerminalError(err: unknown): TerminalError {
  if (err instanceof ApiError) {
    return {
      kind: 'api',
      message: err.serverMessage || err.message,
      status: err.status,
      ...(err.code ? { code: err.code } : {}),
      ...(err.details ? { details: err.details } : {}),
    };
  }
  if (err instanceof RiskRefusal) return { kind: 'risk', code: err.code, message: err.message, ...(err.confirmable ? { confirmable: true } : {}) };
  if (err instanceof ArgsValidationError) return { kind: 'validation', message: err.message };
  if (err instanceof z.ZodError) return { kind: 'validation', message: formatIssues(err.issues) };
  if (err instanceof NetworkError) return { kind: 'network', message: err.message };
  if (err instanceof StateError && err.code) return { kind: 'state', code: err.code, message: err.message };
  if (err instanceof KeyError || err instanceof ProfileError || err instanceof StateError || err instanceof ConfigFileError || err instanceof ClockSkewError) {
    return { kind: 'state', message: err.message };
  }
  return { kind: 'state', message: err instanceof Error ? err.message : String(err) };
}

/**
 * The door's dispatch table, derived from the contract's channels: each method calls the
 * same-named method of its channel's service (bound to it). A service that lacks a method its
 * channel declares is refused here (and by `ChannelImpl` at compile time).
 */
export function serveChannels(impls: ChannelImpls): ServiceMethods {
  const table: Record<string, (...args: unknown[]) => Promise<unknown>> = Object.create(null) as Record<string, never>;
  for (const name of METHOD_NAMES) {
    const channel = methodChannel[name];
    const service = impls[channel] as unknown as Record<string, unknown>;
    const fn = service[name];
    if (typeof fn !== 'function') throw new Error(`the ${channel} service does not implement ${name}`);
    table[name] = (...args) => (fn as (...a: unknown[]) => Promise<unknown>).apply(service, args);
  }
  return table as unknown as ServiceMethods;
}

export function createDoor(target: ServiceMethods, log?: (m: string) => void) {
  return async function call(method: string, args: unknown): Promise<DoorResult> {
    if (!Object.prototype.hasOwnProperty.call(methodArgs, method)) {
      return { ok: false, error: { kind: 'validation', message: `unknown method ${JSON.stringify(method).slice(0, 80)}` } };
    }
    const schema = methodArgs[method as MethodName];
    const parsed = schema.safeParse(args);
    if (!parsed.success) {
      return { ok: false, error: { kind: 'validation', message: `${method}: ${formatIssues(parsed.error.issues)}` } };
    }
    try {
      // only the parsed arguments reach the service, never what the renderer sent
      const fn = target[method as MethodName] as (...a: unknown[]) => Promise<unknown>;
      const value = await fn(...(parsed.data as unknown[]));
      return { ok: true, value: value === undefined ? null : value };
    } catch (err) {
      const e = toTerminalError(err);
      if (e.kind === 'state' && !(err instanceof StateError) && !(err instanceof ClockSkewError)) log?.(`${method} failed: ${(err as Error).stack ?? String(err)}`);
      return { ok: false, error: e };
    }
  };
}
