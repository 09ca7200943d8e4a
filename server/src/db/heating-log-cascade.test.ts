/**
 * A deleted unit takes its heating log with it, on PGlite and on PostgreSQL: the log has no
 * foreign key to `units` (decision 0073), a statement trigger on `units` does what the key's
 * cascade did — for a unit deleted by itself and for the units of a deleted company.
 */
import { asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/helpers.ts';
import { seedCompanies } from '../modules/units/heating-test-fixtures.ts';
import type { Database } from './client.ts';
import { companies, heatingLog, units } from './schema.ts';

describe('heating log of deleted units', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  /** Units `names` of `companyId` with one log entry each. */
  async function unitsWithLog(companyId: string, names: string[]) {
    const rows = await database.db
      .insert(units)
      .values(names.map((name) => ({ companyId, name })))
      .returning({ id: units.id, name: units.name });
    await database.db.insert(heatingLog).values(
      rows.map((u) => ({
        companyId,
        unitId: u.id,
        kind: 'group_plan' as const,
        newSetpoint: 21,
        at: new Date('2026-11-23T05:00:00Z'),
      })),
    );
    return rows.map((u) => u.id);
  }
  const loggedUnits = async (unitIds: string[]) =>
    (
      await database.db
        .select({ unitId: heatingLog.unitId })
        .from(heatingLog)
        .where(inArray(heatingLog.unitId, unitIds))
        .orderBy(asc(heatingLog.unitId))
    ).map((r) => r.unitId);

  it('deletes the entries of a deleted unit and keeps those of the others', async () => {
    const { companyId } = await seedCompanies(database.db);
    const [gone, kept] = (await unitsWithLog(companyId, ['Raum 1', 'Raum 2'])) as [string, string];
    await database.db.delete(units).where(eq(units.id, gone));
    expect(await loggedUnits([gone, kept])).toEqual([kept]);
  });

  it('deletes the entries of every unit of a deleted company, not those of another company', async () => {
    const { companyId, otherCompanyId } = await seedCompanies(database.db);
    const own = await unitsWithLog(companyId, ['Raum 1', 'Raum 2', 'Raum 3']);
    const other = await unitsWithLog(otherCompanyId, ['Büro']);
    await database.db.delete(companies).where(eq(companies.id, companyId));
    expect(await loggedUnits([...own, ...other])).toEqual(other);
  });
});
