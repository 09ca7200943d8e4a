/**
 * Heating circuit queries, always scoped by company: the circuits and their rooms, the rooms'
 * latest reports for the controller, the building's outdoor temperature, and the readings the
 * controller leaves for the chart.
 */
import { and, asc, count, desc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import {
  alerts,
  buildingOutdoorTemperatures,
  buildings,
  type CircuitControlState,
  heatingCircuitReadings,
  heatingCircuits,
  heatingCircuitUnits,
  heatingCircuitWrites,
  units,
} from '../../db/schema.ts';

export type CircuitRow = typeof heatingCircuits.$inferSelect;
export type CircuitInsert = typeof heatingCircuits.$inferInsert;
export type CircuitReadingRow = typeof heatingCircuitReadings.$inferSelect;
export type CircuitWriteRow = typeof heatingCircuitWrites.$inferSelect;

/** Alert kinds that leave a room out of its circuit's demand (a broken room must not hold it hot). */
const FAULT_KINDS = ['device_offline', 'device_fault', 'open_window', 'not_warming'] as const;

export async function listCircuits(
  db: Db,
  companyId: string,
  f: { buildingId?: string | undefined; page: number; size: number },
) {
  const where = and(
    eq(heatingCircuits.companyId, companyId),
    f.buildingId ? eq(heatingCircuits.buildingId, f.buildingId) : undefined,
  );
  const rows = await db
    .select()
    .from(heatingCircuits)
    .where(where)
    .orderBy(asc(heatingCircuits.name), asc(heatingCircuits.id))
    .limit(f.size)
    .offset((f.page - 1) * f.size);
  const [total] = await db.select({ n: count() }).from(heatingCircuits).where(where);
  return { rows, count: total?.n ?? 0 };
}

export async function findCircuit(db: Db, companyId: string, id: string): Promise<CircuitRow | undefined> {
  const [row] = await db
    .select()
    .from(heatingCircuits)
    .where(and(eq(heatingCircuits.companyId, companyId), eq(heatingCircuits.id, id)))
    .limit(1);
  return row;
}

/** The rooms of each circuit, by circuit id. */
export async function circuitUnitIds(
  db: Db,
  companyId: string,
  circuitIds: string[],
): Promise<Map<string, string[]>> {
  const byCircuit = new Map<string, string[]>(circuitIds.map((id) => [id, []]));
  if (circuitIds.length === 0) return byCircuit;
  const rows = await db
    .select({ circuitId: heatingCircuitUnits.circuitId, unitId: heatingCircuitUnits.unitId })
    .from(heatingCircuitUnits)
    .where(
      and(eq(heatingCircuitUnits.companyId, companyId), inArray(heatingCircuitUnits.circuitId, circuitIds)),
    )
    .orderBy(asc(heatingCircuitUnits.unitId));
  for (const row of rows) byCircuit.get(row.circuitId)?.push(row.unitId);
  return byCircuit;
}

export async function buildingExists(db: Db, companyId: string, buildingId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: buildings.id })
    .from(buildings)
    .where(and(eq(buildings.companyId, companyId), eq(buildings.id, buildingId)))
    .limit(1);
  return row !== undefined;
}

/** Of `unitIds`, those of the company in `buildingId`. */
export async function unitsInBuilding(db: Db, companyId: string, buildingId: string, unitIds: string[]) {
  if (unitIds.length === 0) return [];
  const rows = await db
    .select({ id: units.id })
    .from(units)
    .where(and(eq(units.companyId, companyId), eq(units.buildingId, buildingId), inArray(units.id, unitIds)));
  return rows.map((row) => row.id);
}

/** Of `unitIds`, those already in another circuit than `circuitId`. */
export async function unitsInOtherCircuits(
  db: Db,
  companyId: string,
  unitIds: string[],
  circuitId: string | null,
) {
  if (unitIds.length === 0) return [];
  const rows = await db
    .select({ unitId: heatingCircuitUnits.unitId })
    .from(heatingCircuitUnits)
    .where(
      and(
        eq(heatingCircuitUnits.companyId, companyId),
        inArray(heatingCircuitUnits.unitId, unitIds),
        circuitId ? sql`${heatingCircuitUnits.circuitId} <> ${circuitId}` : undefined,
      ),
    );
  return rows.map((row) => row.unitId);
}

export async function insertCircuit(db: Db, row: typeof heatingCircuits.$inferInsert): Promise<CircuitRow> {
  const [created] = await db.insert(heatingCircuits).values(row).returning();
  if (!created) throw new Error('insert returned no heating circuit row');
  return created;
}

/** Makes `unitIds` the circuit's rooms. */
export async function replaceCircuitUnits(db: Db, companyId: string, circuitId: string, unitIds: string[]) {
  await db
    .delete(heatingCircuitUnits)
    .where(and(eq(heatingCircuitUnits.companyId, companyId), eq(heatingCircuitUnits.circuitId, circuitId)));
  if (unitIds.length > 0) {
    await db.insert(heatingCircuitUnits).values(unitIds.map((unitId) => ({ circuitId, unitId, companyId })));
  }
}

export async function updateCircuit(
  db: Db,
  companyId: string,
  id: string,
  patch: Partial<typeof heatingCircuits.$inferInsert>,
): Promise<CircuitRow | undefined> {
  const [row] = await db
    .update(heatingCircuits)
    .set(patch)
    .where(and(eq(heatingCircuits.companyId, companyId), eq(heatingCircuits.id, id)))
    .returning();
  return row;
}

export async function deleteCircuit(db: Db, companyId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(heatingCircuits)
    .where(and(eq(heatingCircuits.companyId, companyId), eq(heatingCircuits.id, id)))
    .returning({ id: heatingCircuits.id });
  return rows.length > 0;
}

/** The newest reading of each circuit. */
export async function latestReadings(db: Db, companyId: string, circuitIds: string[]) {
  if (circuitIds.length === 0) return new Map<string, CircuitReadingRow>();
  const rows = await db
    .selectDistinctOn([heatingCircuitReadings.circuitId])
    .from(heatingCircuitReadings)
    .where(
      and(
        eq(heatingCircuitReadings.companyId, companyId),
        inArray(heatingCircuitReadings.circuitId, circuitIds),
      ),
    )
    .orderBy(heatingCircuitReadings.circuitId, desc(heatingCircuitReadings.at));
  return new Map(rows.map((row) => [row.circuitId, row]));
}

/**
 * Requests per room since `since` for each of `circuitIds`, most first, at most `limit` rooms a
 * circuit, with the rooms' names: one statement for the whole list.
 */
export async function holdingUpSince(
  db: Db,
  companyId: string,
  circuitIds: string[],
  since: Date,
  limit = 5,
) {
  const byCircuit = new Map<string, Array<{ unitId: string; name: string; requests: number }>>(
    circuitIds.map((id) => [id, []]),
  );
  if (circuitIds.length === 0) return byCircuit;
  const result = await db.execute(sql`
    select ranked.circuit_id, ranked.unit_id, ranked.name, ranked.requests
    from (
      select held.circuit_id, held.unit_id, ${units.name} as name, held.requests::int as requests,
        row_number() over (partition by held.circuit_id order by held.requests desc, ${units.name}) as place
      from (
        select ${heatingCircuitReadings.circuitId} as circuit_id, (element->>'unitId')::uuid as unit_id,
          sum((element->>'requests')::int) as requests
        from ${heatingCircuitReadings}, jsonb_array_elements(${heatingCircuitReadings.holdingUp}) as element
        where ${heatingCircuitReadings.companyId} = ${companyId}
          and ${inArray(heatingCircuitReadings.circuitId, circuitIds)}
          and ${heatingCircuitReadings.at} >= ${since.toISOString()}
        group by 1, 2
      ) held
      join ${units} on ${units.id} = held.unit_id and ${units.companyId} = ${companyId}
    ) ranked
    where ranked.place <= ${limit}
    order by ranked.circuit_id, ranked.place`);
  for (const row of rowsOf<{ circuit_id: string; unit_id: string; name: string; requests: number }>(result)) {
    byCircuit.get(row.circuit_id)?.push({ unitId: row.unit_id, name: row.name, requests: row.requests });
  }
  return byCircuit;
}

/** Names of the company's units among `ids`. */
export async function unitNames(db: Db, companyId: string, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: units.id, name: units.name })
    .from(units)
    .where(and(eq(units.companyId, companyId), inArray(units.id, ids)));
  return new Map(rows.map((row) => [row.id, row.name]));
}

export async function readingsBetween(db: Db, companyId: string, circuitId: string, from: Date, to: Date) {
  return db
    .select()
    .from(heatingCircuitReadings)
    .where(
      and(
        eq(heatingCircuitReadings.companyId, companyId),
        eq(heatingCircuitReadings.circuitId, circuitId),
        gte(heatingCircuitReadings.at, from),
        lte(heatingCircuitReadings.at, to),
      ),
    )
    .orderBy(asc(heatingCircuitReadings.at));
}

/**
 * Circuits in `shadow` or `on` whose step is due, locked for this transaction (`skip locked`:
 * instances share them), at most `limit`.
 */
export async function claimDueCircuits(db: Db, now: Date, limit: number): Promise<CircuitRow[]> {
  return db
    .select()
    .from(heatingCircuits)
    .where(and(inArray(heatingCircuits.mode, ['shadow', 'on']), lte(heatingCircuits.nextStepAt, now)))
    .orderBy(asc(heatingCircuits.nextStepAt))
    .limit(limit)
    .for('update', { skipLocked: true });
}

/** The circuit's rooms as their valves last reported, and whether an open alert leaves them out. */
export async function circuitRoomReports(db: Db, companyId: string, circuitId: string) {
  return db
    .select({
      unitId: units.id,
      setpoint: units.setpoint,
      roomTemperature: units.roomTemperature,
      valveOpening: units.valveOpening,
      faulty: sql<boolean>`exists (
        select 1 from ${alerts}
        where ${alerts.companyId} = ${companyId} and ${alerts.unitId} = ${units.id}
          and ${alerts.state} = 'open' and ${inArray(alerts.kind, [...FAULT_KINDS])}
      )`,
    })
    .from(heatingCircuitUnits)
    .innerJoin(units, eq(units.id, heatingCircuitUnits.unitId))
    .where(and(eq(heatingCircuitUnits.companyId, companyId), eq(heatingCircuitUnits.circuitId, circuitId)));
}

/** The building's outdoor temperature of the hour of `at` (or the hour before), °C; null when none. */
export async function outdoorAt(db: Db, buildingId: string, at: Date): Promise<number | null> {
  const hour = new Date(Math.floor(at.getTime() / 3_600_000) * 3_600_000);
  const [row] = await db
    .select({ temperature: buildingOutdoorTemperatures.temperature })
    .from(buildingOutdoorTemperatures)
    .where(
      and(
        eq(buildingOutdoorTemperatures.buildingId, buildingId),
        lte(buildingOutdoorTemperatures.at, hour),
        gte(buildingOutdoorTemperatures.at, new Date(hour.getTime() - 3_600_000)),
      ),
    )
    .orderBy(desc(buildingOutdoorTemperatures.at))
    .limit(1);
  return row?.temperature ?? null;
}

/** Stores one step: the controller's state, its reading, and when the next step is due. */
export async function saveStep(
  db: Db,
  circuit: Pick<CircuitRow, 'id' | 'companyId'>,
  step: { state: CircuitControlState; nextStepAt: Date; reading: typeof heatingCircuitReadings.$inferInsert },
) {
  await db
    .update(heatingCircuits)
    .set({ controlState: step.state, nextStepAt: step.nextStepAt })
    .where(and(eq(heatingCircuits.companyId, circuit.companyId), eq(heatingCircuits.id, circuit.id)));
  await db.insert(heatingCircuitReadings).values(step.reading).onConflictDoNothing();
}

/** Deletes readings older than `before`; answers how many. */
export async function purgeReadings(db: Db, before: Date): Promise<number> {
  const rows = await db
    .delete(heatingCircuitReadings)
    .where(lte(heatingCircuitReadings.at, before))
    .returning({ at: heatingCircuitReadings.at });
  return rows.length;
}

/** The circuit's newest write, or undefined before the first. */
export async function latestWrite(
  db: Db,
  companyId: string,
  circuitId: string,
): Promise<CircuitWriteRow | undefined> {
  const [row] = await db
    .select()
    .from(heatingCircuitWrites)
    .where(and(eq(heatingCircuitWrites.companyId, companyId), eq(heatingCircuitWrites.circuitId, circuitId)))
    .orderBy(desc(heatingCircuitWrites.at))
    .limit(1);
  return row;
}

/** Records one write (a second one at the same instant is dropped). */
export async function insertWrite(db: Db, row: typeof heatingCircuitWrites.$inferInsert): Promise<void> {
  await db.insert(heatingCircuitWrites).values(row).onConflictDoNothing();
}

/**
 * The device of the company with DevEUI `devEui` (a circuit's LoRaWAN relay): its model, the
 * relays it last reported (closed = true) and when, and its newest relay command (a downlink
 * without a setpoint that was not superseded) with its delivery state and when it went to the
 * network server. undefined when the company has no such device.
 */
export async function relayDevice(
  db: Db,
  companyId: string,
  devEui: string,
): Promise<
  | {
      model: string;
      relays: { ro1Closed: boolean; ro2Closed: boolean } | null;
      relaysAt: Date | null;
      command: { state: string; publishedAt: Date | null } | null;
    }
  | undefined
> {
  const [row] = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      select d.model, d.relays, d.relays_at, dl.state, dl.published_at, dl.id as command_id
      from devices d
      left join lateral (
        select x.id, x.state, x.published_at from downlinks x
        where x.device_id = d.id and x.company_id = d.company_id and x.setpoint is null
          and x.state <> 'superseded'
        order by x.applied_at desc, x.created_at desc
        limit 1
      ) dl on true
      where d.company_id = ${companyId} and d.dev_eui = ${devEui.toLowerCase()}
      limit 1`),
  );
  if (!row) return undefined;
  const date = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string));
  return {
    model: String(row.model),
    relays: (row.relays as { ro1Closed: boolean; ro2Closed: boolean } | null) ?? null,
    relaysAt: date(row.relays_at),
    command:
      row.command_id === null ? null : { state: String(row.state), publishedAt: date(row.published_at) },
  };
}

/** Sets the read-back of the circuit's write at `at`, and whether it showed an override. */
export async function setWriteReadBack(
  db: Db,
  companyId: string,
  circuitId: string,
  at: Date,
  readBackEnabled: boolean,
  override: boolean,
): Promise<void> {
  await db
    .update(heatingCircuitWrites)
    .set({ readBackEnabled, override })
    .where(
      and(
        eq(heatingCircuitWrites.companyId, companyId),
        eq(heatingCircuitWrites.circuitId, circuitId),
        eq(heatingCircuitWrites.at, at),
      ),
    );
}

/** The circuit's writes, newest first, at most `limit`. */
export async function latestWrites(db: Db, companyId: string, circuitId: string, limit: number) {
  return db
    .select()
    .from(heatingCircuitWrites)
    .where(and(eq(heatingCircuitWrites.companyId, companyId), eq(heatingCircuitWrites.circuitId, circuitId)))
    .orderBy(desc(heatingCircuitWrites.at))
    .limit(limit);
}

/** The newest write of each circuit. */
export async function lastWrites(db: Db, companyId: string, circuitIds: string[]) {
  if (circuitIds.length === 0) return new Map<string, CircuitWriteRow>();
  const rows = await db
    .selectDistinctOn([heatingCircuitWrites.circuitId])
    .from(heatingCircuitWrites)
    .where(
      and(eq(heatingCircuitWrites.companyId, companyId), inArray(heatingCircuitWrites.circuitId, circuitIds)),
    )
    .orderBy(heatingCircuitWrites.circuitId, desc(heatingCircuitWrites.at));
  return new Map(rows.map((row) => [row.circuitId, row]));
}

/** Deletes write records older than `before`; answers how many. */
export async function purgeWrites(db: Db, before: Date): Promise<number> {
  const rows = await db
    .delete(heatingCircuitWrites)
    .where(lte(heatingCircuitWrites.at, before))
    .returning({ at: heatingCircuitWrites.at });
  return rows.length;
}
