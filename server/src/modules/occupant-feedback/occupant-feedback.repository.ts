/**
 * Queries of the occupants' feedback (decision 0070): recording a press, a room's feedback of a
 * window, the counts per room for the reports, and the readings a trend is computed from. Every
 * query is scoped by company. Instants UTC, temperatures °C.
 */
import type { OccupantFeeling } from '@heizplan/contracts/occupant-feedback';
import { and, asc, desc, eq, gt, gte, inArray, isNotNull, lt, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { occupantFeedback, telemetry } from '../../db/schema.ts';

export type FeedbackRow = typeof occupantFeedback.$inferSelect;
export type NewFeedback = Omit<typeof occupantFeedback.$inferInsert, 'id'>;

/** Stores one press; returns its row. */
export async function insertFeedback(db: Db, row: NewFeedback): Promise<FeedbackRow> {
  const [inserted] = await db.insert(occupantFeedback).values(row).returning();
  if (!inserted) throw new Error('occupant feedback was not stored');
  return inserted;
}

/** The room's feedback of `[from, to)`, newest first. */
export async function unitFeedback(
  db: Db,
  companyId: string,
  unitId: string,
  window: { from: Date; to: Date },
): Promise<FeedbackRow[]> {
  return db
    .select()
    .from(occupantFeedback)
    .where(
      and(
        eq(occupantFeedback.companyId, companyId),
        eq(occupantFeedback.unitId, unitId),
        gte(occupantFeedback.at, window.from),
        lt(occupantFeedback.at, window.to),
      ),
    )
    .orderBy(desc(occupantFeedback.at), desc(occupantFeedback.id));
}

/** Presses per room and feeling in `[from, to)`, for the rooms `unitIds` (all of the company's when omitted). */
export async function feedbackCounts(
  db: Db,
  companyId: string,
  window: { from: Date; to: Date },
  unitIds?: string[],
): Promise<Array<{ unitId: string; feeling: OccupantFeeling; count: number }>> {
  if (unitIds && unitIds.length === 0) return [];
  const rows = await db
    .select({
      unitId: occupantFeedback.unitId,
      feeling: occupantFeedback.feeling,
      count: sql<number>`count(*)`.mapWith(Number),
    })
    .from(occupantFeedback)
    .where(
      and(
        eq(occupantFeedback.companyId, companyId),
        gte(occupantFeedback.at, window.from),
        lt(occupantFeedback.at, window.to),
        unitIds ? inArray(occupantFeedback.unitId, unitIds) : undefined,
      ),
    )
    .groupBy(occupantFeedback.unitId, occupantFeedback.feeling);
  return rows;
}

/** The room's temperature readings in `(from, to]`, oldest first: what its trend is computed from. */
export async function roomReadings(
  db: Db,
  companyId: string,
  unitId: string,
  window: { from: Date; to: Date },
): Promise<Array<{ time: Date; roomTemperature: number }>> {
  const rows = await db
    .select({ time: telemetry.time, roomTemperature: telemetry.roomTemperature })
    .from(telemetry)
    .where(
      and(
        eq(telemetry.companyId, companyId),
        eq(telemetry.unitId, unitId),
        gt(telemetry.time, window.from),
        lte(telemetry.time, window.to),
        isNotNull(telemetry.roomTemperature),
      ),
    )
    .orderBy(asc(telemetry.time));
  return rows.flatMap((r) =>
    r.roomTemperature === null ? [] : [{ time: r.time, roomTemperature: r.roomTemperature }],
  );
}
