/**
 * Occupants' feedback on a room (decision 0070): "Zu warm" / "Zu kalt" pressed on the public room
 * page (`POST /api/public/heating-view/{token}/feedback`, no login, rate-limited like a setpoint
 * change, 404 for an unknown or disabled token), and staff reading a room's feedback over a period
 * (`GET /api/companies/{companyId}/units/{unitId}/feedback?from=&to=`, every member may read).
 * Temperatures °C, trends K/h, instants ISO-8601 UTC. The public page imports these as types only,
 * so zod stays out of its bundle.
 */
import { z } from 'zod';
import { type TimeRangeIssue, timeRangeIssue } from './time-range.ts';

export const OCCUPANT_FEELINGS = ['too_warm', 'too_cold'] as const;
export const OccupantFeelingSchema = z.enum(OCCUPANT_FEELINGS);
export type OccupantFeeling = z.infer<typeof OccupantFeelingSchema>;

/** Body of the occupant's feedback; the answer is 204 without content. */
export const PublicFeedbackRequestSchema = z.object({ feeling: OccupantFeelingSchema });
export type PublicFeedbackRequest = z.infer<typeof PublicFeedbackRequestSchema>;

/** One press of "Zu warm" or "Zu kalt", with the room as it was at that instant. */
export const OccupantFeedbackEntrySchema = z.object({
  id: z.string(),
  /** When it was pressed (UTC). */
  at: z.iso.datetime(),
  feeling: OccupantFeelingSchema,
  /** °C the room's devices last reported then; null when none had. */
  roomTemperature: z.number().nullable(),
  /** °C in force then; null before the scheduler first evaluated the room. */
  setpoint: z.number().nullable(),
  /**
   * K/h the room's temperature changed over the hour before (least-squares slope of its readings);
   * null with fewer than two readings in that hour.
   */
  trend: z.number().nullable(),
});
export type OccupantFeedbackEntry = z.infer<typeof OccupantFeedbackEntrySchema>;

/** A room's feedback of `[from, to)`: the counts and every entry, newest first. */
export const UnitFeedbackSchema = z.object({
  from: z.iso.datetime(),
  to: z.iso.datetime(),
  /** IANA time zone of the company, for showing times. */
  timeZone: z.string(),
  counts: z.object({ tooWarm: z.number().int(), tooCold: z.number().int() }),
  results: z.array(OccupantFeedbackEntrySchema),
});
export type UnitFeedback = z.infer<typeof UnitFeedbackSchema>;

/** Longest window of one feedback read: a year, leap day included. */
export const FEEDBACK_MAX_DAYS = 366;

/** `GET …/units/{unitId}/feedback`: the window `[from, to)`, ISO instants with offset. */
export const UnitFeedbackQuerySchema = z.object({
  from: z.iso.datetime({ offset: true }),
  to: z.iso.datetime({ offset: true }),
});
export type UnitFeedbackQuery = z.infer<typeof UnitFeedbackQuerySchema>;

/** Why `[from, to)` is no window the feedback read answers, or null. */
export const feedbackRangeIssue = (from: string | Date, to: string | Date): TimeRangeIssue | null =>
  timeRangeIssue(from, to, {
    maxDays: FEEDBACK_MAX_DAYS,
    endNotAfterStart: {
      code: 'feedback_range_end_not_after_start',
      message: '`to` must be after `from`.',
    },
    tooLong: {
      code: 'feedback_range_too_long',
      message: `\`to\` may be at most ${FEEDBACK_MAX_DAYS} days after \`from\`.`,
    },
  });
