/**
 * A unit's heating log (spec §2 "Units screen"), newest first, cursor-paginated for
 * "load more". The cursor is opaque to clients: base64url of the last entry's `[at, id]`, so
 * entries written while a member pages never shift or repeat a page (unlike offsets). An entry
 * whose downlinks carried another setpoint (the device's step or range) says so: the change and
 * its downlinks share the instant (`downlinks.applied_at` = the entry's `at`). An entry names what
 * decided it — the closure or holiday, the booking, the event — as the 7-day preview does.
 */
import type { HeatingLogExportQuerySchema } from '@heizplan/contracts/exports';
import type { LogEntry } from '@heizplan/contracts/heating';
import type { z } from 'zod';
import { requireMember } from '../../auth/membership.ts';
import type { Db } from '../../db/client.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { deliveredSetpoints } from '../../lorawan/delivered-setpoints.ts';
import { carriedAt } from '../../lorawan/downlink-status.repository.ts';
import { findUnit } from '../units/units.service.ts';
import { logEntries } from './heating-log.repository.ts';
import { exportHeatingLog } from './heating-log-export.ts';
import { logSources } from './log-sources.ts';

interface Cursor {
  at: string;
  id: number;
}

function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify([c.at, c.id])).toString('base64url');
}

/** @throws HttpError 400 on a cursor this server did not issue. */
function decodeCursor(raw: string): Cursor {
  try {
    const [at, id] = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as unknown[];
    if (typeof at === 'string' && !Number.isNaN(Date.parse(at)) && Number.isSafeInteger(id)) {
      return { at, id: id as number };
    }
  } catch {
    // falls through to the 400 below
  }
  const message = 'Invalid cursor.';
  throw badRequest(message, [{ field: 'cursor', message }]);
}

export class HeatingLogService {
  constructor(private readonly db: Db) {}

  /** The log of a time window as a file (`heating-log-export.ts`, which says what it throws). */
  export(userId: string, companyId: string, query: z.output<typeof HeatingLogExportQuerySchema>) {
    return exportHeatingLog(this.db, userId, companyId, query);
  }

  async page(
    userId: string,
    companyId: string,
    unitId: string,
    query: { cursor?: string; limit: number },
  ): Promise<{ results: LogEntry[]; nextCursor: string | null }> {
    await requireMember(this.db, userId, companyId, 'read');
    if (!(await findUnit(this.db, companyId, unitId))) throw notFound('Unknown unit');
    const after = query.cursor ? decodeCursor(query.cursor) : null;
    const rows = await logEntries(this.db, companyId, unitId, {
      order: 'desc',
      after,
      limit: query.limit + 1,
    });
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    const carried = await carriedAt(
      this.db,
      companyId,
      unitId,
      page.map((r) => r.entry.at),
    );
    const sources = await logSources(
      this.db,
      userId,
      companyId,
      page.map((r) => r.entry.details ?? {}),
    );
    return {
      results: page.map(({ entry, actorName }) => {
        const delivered = deliveredSetpoints(entry.newSetpoint, carried.get(entry.at.toISOString()) ?? []);
        return {
          id: String(entry.id),
          kind: entry.kind,
          oldSetpoint: entry.oldSetpoint,
          newSetpoint: entry.newSetpoint,
          at: entry.at.toISOString(),
          actor: entry.actorId ? { id: entry.actorId, name: actorName ?? '' } : null,
          ...(delivered.length > 0 ? { delivered } : {}),
          ...sources(entry.details ?? {}),
        };
      }),
      nextCursor:
        rows.length > query.limit && last
          ? encodeCursor({ at: last.entry.at.toISOString(), id: last.entry.id })
          : null,
    };
  }
}
