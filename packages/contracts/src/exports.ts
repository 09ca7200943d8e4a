/**
 * File exports of lists (decision 0060): what every export takes — `format` (`excel` a CSV for
 * German Excel: `;`, BOM, decimal comma, local times; `csv` for machines: `,`, decimal point,
 * ISO 8601 UTC; `xlsx` a workbook) and `lang` (the header row's language) — and the queries of
 * the plans and heating log exports.
 */
import { z } from 'zod';
import { type TimeRangeIssue, timeRangeIssue } from './time-range.ts';

export const LIST_EXPORT_FORMATS = ['excel', 'csv', 'xlsx'] as const;
export const ListExportFormatSchema = z.enum(LIST_EXPORT_FORMATS).default('excel');
export const ExportLangSchema = z.enum(['de', 'en']).default('de');

/** `GET …/plans/export`: every heating plan of the company, unit and group plans, one row per switch point. */
export const PlanExportQuerySchema = z.object({ format: ListExportFormatSchema, lang: ExportLangSchema });
export type PlanExportQuery = z.input<typeof PlanExportQuerySchema>;

/** Longest window of one heating log export: a year, leap day included. */
export const HEATING_LOG_EXPORT_MAX_DAYS = 366;
export const EXPORT_RANGE_END_NOT_AFTER_START = '`to` must be after `from`.';
export const EXPORT_RANGE_TOO_LONG = `\`to\` may be at most ${HEATING_LOG_EXPORT_MAX_DAYS} days after \`from\`.`;

/**
 * `GET …/heating-log/export`: the heating log of `[from, to)` (ISO instants with offset; at most
 * HEATING_LOG_EXPORT_MAX_DAYS, checked by the service so the refusal carries a problem code),
 * optionally of one unit, the units of one group and/or of one building (all given must hold).
 */
export const HeatingLogExportQuerySchema = z.object({
  from: z.iso.datetime({ offset: true }),
  to: z.iso.datetime({ offset: true }),
  unitId: z.uuid().optional(),
  groupId: z.uuid().optional(),
  buildingId: z.uuid().optional(),
  format: ListExportFormatSchema,
  lang: ExportLangSchema,
});
export type HeatingLogExportQuery = z.input<typeof HeatingLogExportQuerySchema>;

/** Why `[from, to)` is no window the heating log export answers, or null. */
export const heatingLogRangeIssue = (from: string | Date, to: string | Date): TimeRangeIssue | null =>
  timeRangeIssue(from, to, {
    maxDays: HEATING_LOG_EXPORT_MAX_DAYS,
    endNotAfterStart: { code: 'export_range_end_not_after_start', message: EXPORT_RANGE_END_NOT_AFTER_START },
    tooLong: { code: 'export_range_too_long', message: EXPORT_RANGE_TOO_LONG },
  });
