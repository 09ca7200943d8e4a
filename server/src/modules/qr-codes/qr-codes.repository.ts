/** Storage of unit QR codes and their change trail; every query is scoped by company. */
import { and, count, eq } from 'drizzle-orm';
import { anyOf } from '../../db/any-of.ts';
import type { Db } from '../../db/client.ts';
import { naturally } from '../../db/natural-sort.ts';
import { companies, type QR_CODE_ACTIONS, qrCodeChanges, unitQrCodes, units } from '../../db/schema.ts';

export type QrAction = (typeof QR_CODE_ACTIONS)[number];

const columns = {
  unitId: unitQrCodes.unitId,
  unitName: units.name,
  token: unitQrCodes.token,
  enabledAt: unitQrCodes.enabledAt,
};
export type QrCodeRow = { unitId: string; unitName: string; token: string; enabledAt: Date };

export async function findQrCode(db: Db, companyId: string, unitId: string): Promise<QrCodeRow | undefined> {
  const [row] = await db
    .select(columns)
    .from(unitQrCodes)
    .innerJoin(units, eq(units.id, unitQrCodes.unitId))
    .where(and(eq(unitQrCodes.companyId, companyId), eq(unitQrCodes.unitId, unitId)));
  return row;
}

/** Every enabled code of the company, by unit name (the print sheet's order). */
export async function listQrCodes(db: Db, companyId: string): Promise<QrCodeRow[]> {
  return db
    .select(columns)
    .from(unitQrCodes)
    .innerJoin(units, eq(units.id, unitQrCodes.unitId))
    .where(eq(unitQrCodes.companyId, companyId))
    .orderBy(naturally(units.name));
}

export async function countQrCodes(db: Db, companyId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(unitQrCodes).where(eq(unitQrCodes.companyId, companyId));
  return Number(row?.n ?? 0);
}

/** Inserts the unit's code, or replaces its token (regenerate) when one exists. */
export async function upsertQrCode(
  db: Db,
  row: { companyId: string; unitId: string; token: string; enabledBy: string; enabledAt: Date },
) {
  await db
    .insert(unitQrCodes)
    .values(row)
    .onConflictDoUpdate({
      target: unitQrCodes.unitId,
      set: { token: row.token, enabledAt: row.enabledAt, enabledBy: row.enabledBy },
    });
}

export async function deleteQrCode(db: Db, companyId: string, unitId: string): Promise<boolean> {
  const rows = await db
    .delete(unitQrCodes)
    .where(and(eq(unitQrCodes.companyId, companyId), eq(unitQrCodes.unitId, unitId)))
    .returning({ unitId: unitQrCodes.unitId });
  return rows.length > 0;
}

export async function recordQrChange(
  db: Db,
  change: { companyId: string; unitId: string; action: QrAction; actorId: string; at: Date },
) {
  await db.insert(qrCodeChanges).values(change);
}

/** The unit and company of an enabled token; undefined for unknown, disabled or replaced tokens. */
export async function findByToken(
  db: Db,
  token: string,
): Promise<{ unitId: string; companyId: string } | undefined> {
  const [row] = await db
    .select({ unitId: unitQrCodes.unitId, companyId: unitQrCodes.companyId })
    .from(unitQrCodes)
    .where(eq(unitQrCodes.token, token));
  return row;
}

/** Row-locks the company until the transaction ends (serialises allowance checks). */
export async function lockCompany(db: Db, companyId: string) {
  await db.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId)).for('update');
}

/** Those of the company's units `unitIds` that have an enabled code. */
export async function unitIdsWithQrCode(db: Db, companyId: string, unitIds: string[]): Promise<string[]> {
  if (unitIds.length === 0) return [];
  const rows = await db
    .select({ unitId: unitQrCodes.unitId })
    .from(unitQrCodes)
    .where(and(eq(unitQrCodes.companyId, companyId), anyOf(unitQrCodes.unitId, unitIds)));
  return rows.map((r) => r.unitId);
}

/** Inserts new codes (units without one) in one statement. */
export async function insertQrCodes(
  db: Db,
  rows: { companyId: string; unitId: string; token: string; enabledBy: string; enabledAt: Date }[],
) {
  if (rows.length === 0) return;
  await db.insert(unitQrCodes).values(rows);
}

/** Deletes the codes of the company's units `unitIds`; @returns the units whose code went. */
export async function deleteQrCodes(db: Db, companyId: string, unitIds: string[]): Promise<string[]> {
  if (unitIds.length === 0) return [];
  const rows = await db
    .delete(unitQrCodes)
    .where(and(eq(unitQrCodes.companyId, companyId), anyOf(unitQrCodes.unitId, unitIds)))
    .returning({ unitId: unitQrCodes.unitId });
  return rows.map((r) => r.unitId);
}

/** Records several changes of the trail in one statement. */
export async function recordQrChanges(
  db: Db,
  changes: { companyId: string; unitId: string; action: QrAction; actorId: string; at: Date }[],
) {
  if (changes.length === 0) return;
  await db.insert(qrCodeChanges).values(changes);
}
