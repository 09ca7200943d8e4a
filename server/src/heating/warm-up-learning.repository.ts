/**
 * The warm-up learning's queries (decision 0056): the units to learn, their history — room °C
 * from `telemetry` and the setpoints the heating log recorded — and the stored model per unit,
 * and making units due when a new model moves their pre-heat. The learned models reach the
 * engine through the inputs repository (`warmUpModelsOf`).
 */
import { and, asc, eq, gte, isNotNull, lt, ne, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client.ts';
import { companies, heatingLog, telemetry, units, unitWarmUpModels } from '../db/schema.ts';
import { heatingStartsChanged } from './starts.repository.ts';

/** Units taking part in optimum start of companies that run it, not learned since `learnedBefore`. */
export async function unitsToLearn(db: Db, learnedBefore: Date) {
  return db
    .select({
      id: units.id,
      companyId: units.companyId,
      buildingId: units.buildingId,
      learnedThrough: unitWarmUpModels.learnedThrough,
    })
    .from(units)
    .innerJoin(companies, eq(companies.id, units.companyId))
    .leftJoin(unitWarmUpModels, eq(unitWarmUpModels.unitId, units.id))
    .where(
      and(
        eq(units.optimumStart, true),
        ne(companies.optimumStart, 'off'),
        sql`(${unitWarmUpModels.learnedThrough} is null or ${unitWarmUpModels.learnedThrough} < ${learnedBefore.toISOString()})`,
      ),
    );
}

/**
 * Makes those of `unitIds` due at `now` whose company acts on optimum start (mode 'on'), and
 * their buildings' kept heating starts stale: a new model moves the pre-heat.
 */
export async function markOptimumUnitsDue(db: Db, unitIds: string[], now: Date): Promise<void> {
  // `in ()` is no SQL: nothing to mark.
  if (unitIds.length === 0) return;
  const marked = rowsOf<{ building_id: string | null }>(
    await db.execute(sql`
      update ${units} set next_change_at = ${now.toISOString()}
      from ${companies}
      where ${companies.id} = ${units.companyId} and ${companies.optimumStart} = 'on'
        and ${units.id} in (${sql.join(
          unitIds.map((id) => sql`${id}::uuid`),
          sql`, `,
        )})
      returning ${units.buildingId} as building_id`),
  );
  await heatingStartsChanged(db, { buildingIds: marked.map((r) => r.building_id) });
}

/** The unit's room temperatures (°C) in [`since`, `until`), oldest first. */
export async function roomReadings(db: Db, unitId: string, since: Date, until: Date) {
  return db
    .select({ at: telemetry.time, temperature: telemetry.roomTemperature })
    .from(telemetry)
    .where(
      and(
        eq(telemetry.unitId, unitId),
        gte(telemetry.time, since),
        lt(telemetry.time, until),
        isNotNull(telemetry.roomTemperature),
      ),
    )
    .orderBy(asc(telemetry.time));
}

/** The unit's last logged setpoint (°C) before `at`, with its source. */
export async function setpointBefore(db: Db, unitId: string, at: Date) {
  const [before] = await db
    .select({ at: heatingLog.at, setpoint: heatingLog.newSetpoint, source: heatingLog.kind })
    .from(heatingLog)
    .where(and(eq(heatingLog.unitId, unitId), lt(heatingLog.at, at)))
    .orderBy(sql`${heatingLog.at} desc`)
    .limit(1);
  return before;
}

/** The unit's logged setpoints (°C) in [`since`, `until`), in log order. */
export async function setpointsBetween(db: Db, unitId: string, since: Date, until: Date) {
  return db
    .select({ at: heatingLog.at, setpoint: heatingLog.newSetpoint, source: heatingLog.kind })
    .from(heatingLog)
    .where(and(eq(heatingLog.unitId, unitId), gte(heatingLog.at, since), lt(heatingLog.at, until)))
    .orderBy(asc(heatingLog.at), asc(heatingLog.id));
}

/** The unit's stored warm-up model row, or undefined before its first learning. */
export async function storedWarmUpModel(db: Db, unitId: string) {
  const [stored] = await db.select().from(unitWarmUpModels).where(eq(unitWarmUpModels.unitId, unitId));
  return stored;
}

/** Stores the unit's learned model, replacing the one before. */
export async function saveWarmUpModel(db: Db, values: typeof unitWarmUpModels.$inferInsert): Promise<void> {
  await db
    .insert(unitWarmUpModels)
    .values(values)
    .onConflictDoUpdate({ target: unitWarmUpModels.unitId, set: values });
}
