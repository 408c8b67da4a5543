// Exchange status, schedule, the removed announcements endpoint, and the user-data stamp.
//
// Schedule: the embedded exchange trades around the clock, every day (standard hours 00:00 to
// 24:00 US Eastern in the SDK's weekly form), and announces a weekly maintenance window on
// Thursdays 03:00-05:00 US Eastern (08:00-10:00 UTC). The next two windows are listed. The
// embedded exchange keeps trading through them (they are announcements, as on the demo); the
// status route says so by staying active.
import { notFound } from '../core/errors';
import { caller, type HandlerFamily } from './support';

const DAY_MS = 86_400_000;
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
/** Thursday, 08:00 UTC, two hours. */
const MAINTENANCE = { weekday: 4, startHourUtc: 8, hours: 2 };

const isoSec = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The next `n` maintenance windows that have not ended by `nowMs`. */
export function maintenanceWindows(nowMs: number, n = 2): { startMs: number; endMs: number }[] {
  const day0 = Math.floor(nowMs / DAY_MS) * DAY_MS;
  const out: { startMs: number; endMs: number }[] = [];
  for (let d = -1; out.length < n && d < 30; d++) {
    const day = day0 + d * DAY_MS;
    if (new Date(day).getUTCDay() !== MAINTENANCE.weekday) continue;
    const startMs = day + MAINTENANCE.startHourUtc * 3_600_000;
    const endMs = startMs + MAINTENANCE.hours * 3_600_000;
    if (endMs > nowMs) out.push({ startMs, endMs });
  }
  return out;
}

export const exchangeHandlers: HandlerFamily = (svc) => ({
  getExchangeStatus: () => ({
    exchange_active: true,
    trading_active: true,
    exchange_estimated_resume_time: null,
    // the SDK's ExchangeIndexStatus requires exchange_active and intra_exchange_transfers_active too
    exchange_index_statuses: [{ exchange_index: 0, description: 'event_contract', exchange_active: true, trading_active: true, intra_exchange_transfers_active: true }],
  }),
  getExchangeSchedule: (ctx) => {
    const weekStart = Math.floor(ctx.nowMs / (7 * DAY_MS)) * 7 * DAY_MS;
    const daily = [{ open_time: '00:00', close_time: '24:00' }];
    return {
      schedule: {
        standard_hours: [
          {
            // the week this schedule is valid for, and the SDK's per-day sessions (US Eastern)
            start_time: isoSec(weekStart - 7 * DAY_MS),
            end_time: isoSec(weekStart + 52 * 7 * DAY_MS),
            ...Object.fromEntries(WEEKDAYS.map((d) => [d, daily.map((s) => ({ ...s }))])),
          },
        ],
        // Both spellings (spec start/end, SDK start_datetime/end_datetime) so either reader works.
        maintenance_windows: maintenanceWindows(ctx.nowMs).map((w) => ({
          start: isoSec(w.startMs),
          end: isoSec(w.endMs),
          start_datetime: isoSec(w.startMs),
          end_datetime: isoSec(w.endMs),
        })),
      },
    };
  },
  getExchangeAnnouncements: () => {
    throw notFound('announcements (removed in spec 3.24.0)');
  },
  getUserDataTimestamp: (ctx) => {
    caller(ctx);
    const at = new Date(svc.node.now()).toISOString();
    return { last_updated_ts: at, as_of_time: at };
  },
});
