// FIX in the terminal: a profile's FIX settings as the renderer edits them (order entry over a
// KalshiNR session, REST the fallback; a KalshiDC drop copy compared with main's own state) and
// the view main pushes (each session's phase, and what the drop copy and the terminal disagree on).
import { z } from 'zod';
import { ConsoleCode } from './risk';

export const FixSettings = z
  .object({
    /** route order entry over FIX (REST when the session is down) */
    orderEntry: z.boolean(),
    /** keep a drop-copy session and compare it with the terminal's own orders */
    dropCopy: z.boolean(),
    /**
     * the gateway's port where the host is this computer (the embedded exchange, a loopback
     * profile); absent: credentials.json's (embedded) or the service's documented ports
     */
    port: z.number().int().min(1).max(65_535).optional(),
  })
  .strict();
export type FixSettings = z.infer<typeof FixSettings>;

/**
 * A save of a profile's FIX settings. Moving where a key-holding profile's Logons go (its FIX
 * port) asks like a loosening: a native dialog in Electron, on the web host the 6-digit code its
 * console prints for that very change (`consoleCode`).
 */
export const FixSettingsInput = z.object({ profileId: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/), settings: FixSettings, consoleCode: ConsoleCode.optional() }).strict();
export type FixSettingsInput = z.infer<typeof FixSettingsInput>;

export type FixPhase = 'down' | 'connecting' | 'up' | 'stopped';

export interface FixSessionView {
  phase: FixPhase;
  detail: string;
  /** host:port the session connects to */
  endpoint: string;
}

export interface FixDisagreement {
  orderId: string;
  ticker: string;
  /** what the drop copy says, and what the terminal holds */
  dropCopy: string;
  terminal: string;
  since: number;
}

export interface FixView {
  profileId: string | null;
  settings: FixSettings | null;
  /** why FIX cannot be used on this profile (null: it can) */
  unavailable: string | null;
  orderEntry: FixSessionView | null;
  dropCopy: (FixSessionView & { orders: number; disagreements: FixDisagreement[]; checkedAt: number | null }) | null;
}
