// Exchange status, schedule, announcements and the user-data freshness stamp.
import { z } from 'zod';
import { UnixSeconds } from './common';

export const ExchangeIndexStatus = z.object({
  exchange_index: z.number().int(),
  description: z.string(),
  trading_active: z.boolean(),
  // the SDK's model requires these two; read them where they come
  exchange_active: z.boolean().optional(),
  intra_exchange_transfers_active: z.boolean().optional(),
});

export const ExchangeStatus = z.object({
  exchange_active: z.boolean(),
  trading_active: z.boolean(),
  exchange_estimated_resume_time: z.string().nullish(),
  exchange_index_statuses: z
    .array(ExchangeIndexStatus)
    .nullish()
    .transform((v) => v ?? []),
});
export type ExchangeStatus = z.output<typeof ExchangeStatus>;

export const StandardHours = z.object({ start_time: z.string(), end_time: z.string() }).passthrough();

/** Spec: `start`/`end`; the SDK: `start_datetime`/`end_datetime`. The exchange sends both; read either. */
export const MaintenanceWindow = z
  .object({
    start: z.string().optional(),
    end: z.string().optional(),
    start_datetime: z.string().optional(),
    end_datetime: z.string().optional(),
  })
  .transform((w, ctx) => {
    const start = w.start ?? w.start_datetime;
    const end = w.end ?? w.end_datetime;
    if (start === undefined || end === undefined) {
      ctx.addIssue({ code: 'custom', message: 'maintenance window needs start and end' });
      return z.NEVER;
    }
    return { start, end };
  });

export const Schedule = z.object({
  standard_hours: z
    .array(StandardHours)
    .nullish()
    .transform((v) => v ?? []),
  maintenance_windows: z
    .array(MaintenanceWindow)
    .nullish()
    .transform((v) => v ?? []),
});
export const ScheduleResponse = z.object({ schedule: Schedule });
export type Schedule = z.output<typeof Schedule>;

export const Announcement = z.object({
  type: z.string(),
  message: z.string(),
  delivery_time: z.string(),
  status: z.string(),
});
export const AnnouncementsResponse = z.object({ announcements: z.array(Announcement) });

/**
 * The field name is "not shown" in the spec; the SDK 3.30.0 model calls it `as_of_time` (an RFC 3339
 * string). The exchange sends `last_updated_ts` (and may send both); either is read and the output
 * always has `last_updated_ts`.
 */
export const UserDataTimestamp = z
  .object({
    last_updated_ts: z.union([z.string(), UnixSeconds]).optional(),
    as_of_time: z.union([z.string(), UnixSeconds]).optional(),
  })
  .transform((r, ctx) => {
    const last = r.last_updated_ts ?? r.as_of_time;
    if (last === undefined) {
      ctx.addIssue({ code: 'custom', message: 'missing last_updated_ts (or the SDK as_of_time)' });
      return z.NEVER;
    }
    return { ...r, last_updated_ts: last };
  });
export type UserDataTimestamp = z.output<typeof UserDataTimestamp>;
