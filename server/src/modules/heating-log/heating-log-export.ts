/**
 * The heating log of a time window as CSV or XLSX (decision 0060): per entry its time, the unit
 * with its group, building and floor, the kind (the log's code, as the units export's source),
 * what decided it (closure or holiday, booking, event — as the log screen names it), old and new
 * setpoint (°C) and who did it (empty for the scheduler and anonymous occupants).
 *
 * Unit by unit (by name, naturally), each unit's entries oldest first, read 1,000 at a time by
 * keyset on `(at, id)` — the order of the log's index per unit — so a year of a large company
 * (a million entries) streams without being held, and no page costs more than the one before.
 */
import { type HeatingLogExportQuerySchema, heatingLogRangeIssue } from '@heizplan/contracts/exports';
import type { z } from 'zod';
import { requireMember } from '../../auth/membership.ts';
import type { Db } from '../../db/client.ts';
import { findCompanyHeating } from '../../heating/inputs.ts';
import { badRequest } from '../../http/errors.ts';
import { type ExportCell, type TableExport, tableExport } from '../../http/table-export.ts';
import { type LogExportUnit, logEntries, logExportUnits } from './heating-log.repository.ts';
import { logSources } from './log-sources.ts';

const BATCH = 1000;

const HEADERS = {
  de: [
    'Zeitpunkt',
    'Raum',
    'Gruppe',
    'Gebäude',
    'Geschoss',
    'Art',
    'Anlass',
    'Vorher (°C)',
    'Nachher (°C)',
    'Ausgelöst von',
  ],
  en: [
    'at',
    'unit',
    'group',
    'building',
    'floor',
    'kind',
    'source',
    'old_setpoint_c',
    'new_setpoint_c',
    'actor',
  ],
};

/**
 * The log of `[query.from, query.to)` of the units the filters match, in `query.format` with
 * headers in `query.lang`.
 * @throws HttpError 404 for a stranger; 400 on the field `to` when the window ends before it
 * starts (`export_range_end_not_after_start`) or is longer than HEATING_LOG_EXPORT_MAX_DAYS
 * (`export_range_too_long`, params.days).
 */
export async function exportHeatingLog(
  db: Db,
  userId: string,
  companyId: string,
  query: z.output<typeof HeatingLogExportQuerySchema>,
): Promise<TableExport> {
  await requireMember(db, userId, companyId, 'read');
  const issue = heatingLogRangeIssue(query.from, query.to);
  if (issue) {
    const reason = { code: issue.code, ...(issue.params ? { params: issue.params } : {}) };
    throw badRequest(issue.message, [{ field: issue.field, message: issue.message, ...reason }], reason);
  }
  const window = { from: new Date(query.from), to: new Date(query.to) };
  const timeZone = (await findCompanyHeating(db, companyId))?.timeZone ?? 'Europe/Berlin';
  const units = await logExportUnits(db, companyId, query);

  async function* unitRows(unit: LogExportUnit): AsyncGenerator<ExportCell[]> {
    let after: { at: Date; id: number } | null = null;
    for (;;) {
      const batch = await logEntries(db, companyId, unit.id, { order: 'asc', after, window, limit: BATCH });
      const named = await logSources(
        db,
        userId,
        companyId,
        batch.map((r) => r.entry.details ?? {}),
      );
      for (const { entry, actorName } of batch) {
        const source = named(entry.details ?? {});
        yield [
          entry.at,
          unit.name,
          unit.groupName,
          unit.buildingName,
          unit.floor,
          entry.kind,
          source.closure?.name ?? source.booking?.title ?? source.event?.title,
          entry.oldSetpoint,
          entry.newSetpoint,
          entry.actorId ? actorName : null,
        ];
      }
      const last = batch.at(-1);
      if (!last || batch.length < BATCH) return;
      after = { at: last.entry.at, id: last.entry.id };
    }
  }
  async function* rows() {
    for (const unit of units) yield* unitRows(unit);
  }
  return tableExport(rows(), HEADERS[query.lang], { format: query.format, timeZone });
}
