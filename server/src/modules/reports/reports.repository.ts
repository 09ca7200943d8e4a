/**
 * The report's queries over the daily rollups (decision 0061), every one scoped by company and
 * then by building, group or unit. Days are local dates `YYYY-MM-DD` (inclusive range); hours h,
 * temperatures °C. Heating degree days G20/15 (VDI 3807): a day with an outdoor mean below 15 °C
 * counts 20 °C minus that mean, averaged over the rooms of the scope that day.
 *
 * Also a building's report settings (heated area m², targets) and monthly meter readings (kWh per
 * carrier, month `YYYY-MM`), and the members' subscriptions to the monthly PDF.
 */
import type { BuildingReportSettings, MeterReading } from '@heizplan/contracts/reports';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { buildingMeterReadings, buildingReportSettings, reportSubscriptions } from '../../db/schema.ts';

export type ReportScope =
  | { kind: 'company' }
  | { kind: 'building'; id: string }
  | { kind: 'group'; id: string }
  | { kind: 'unit'; id: string };

export interface DayRange {
  from: string;
  to: string;
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const degreeDay = sql`case when r.outdoor_mean < 15 then 20 - r.outdoor_mean else 0 end`;

/** The rollup rows (alias `r`) of `companyId` in `scope` and `days`. */
function where(companyId: string, scope: ReportScope, days: DayRange): SQL {
  const base = sql`r.company_id = ${companyId} and r.day between ${days.from}::date and ${days.to}::date`;
  switch (scope.kind) {
    case 'company':
      return base;
    case 'building':
      return sql`${base} and r.building_id = ${scope.id}`;
    case 'group':
      return sql`${base} and r.unit_id in (select id from units where company_id = ${companyId} and group_id = ${scope.id})`;
    case 'unit':
      return sql`${base} and r.unit_id = ${scope.id}`;
  }
}

/** The name of the building, group or unit of the company; null when it is not the company's. */
export async function scopeName(db: Db, companyId: string, scope: ReportScope): Promise<string | null> {
  if (scope.kind === 'company') {
    const [row] = rowsOf<{ name: string }>(
      await db.execute(sql`select name from companies where id = ${companyId}`),
    );
    return row?.name ?? null;
  }
  const table = sql.raw({ building: 'buildings', group: 'groups', unit: 'units' }[scope.kind]);
  const [row] = rowsOf<{ name: string }>(
    await db.execute(sql`select name from ${table} where id = ${scope.id} and company_id = ${companyId}`),
  );
  return row?.name ?? null;
}

export interface Totals {
  rooms: number;
  occupiedHours: number;
  belowComfortHours: number;
  categoryHours: { i: number; ii: number; iii: number; below: number };
  heatingHours: number;
  setbackHours: number;
  windowHeatingHours: number;
  readingBuckets: number;
  outdoorMean: number | null;
}

/** Sums of the scope over the days. */
export async function totals(db: Db, companyId: string, scope: ReportScope, days: DayRange): Promise<Totals> {
  const [r] = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      select count(distinct r.unit_id) as rooms,
        coalesce(sum(r.occupied_minutes), 0) / 60.0 as occupied,
        coalesce(sum(r.below_comfort_minutes), 0) / 60.0 as below,
        coalesce(sum(r.category_i_minutes), 0) / 60.0 as i,
        coalesce(sum(r.category_ii_minutes), 0) / 60.0 as ii,
        coalesce(sum(r.category_iii_minutes), 0) / 60.0 as iii,
        coalesce(sum(r.heating_minutes), 0) / 60.0 as heating,
        coalesce(sum(r.setback_minutes), 0) / 60.0 as setback,
        coalesce(sum(r.window_heating_minutes), 0) / 60.0 as window_heating,
        coalesce(sum(r.reading_buckets), 0) as reading_buckets,
        avg(r.outdoor_mean) as outdoor
      from unit_rollups_daily r where ${where(companyId, scope, days)}`),
  );
  const occupied = Number(r?.occupied ?? 0);
  const [i, ii, iii] = [Number(r?.i ?? 0), Number(r?.ii ?? 0), Number(r?.iii ?? 0)];
  return {
    rooms: Number(r?.rooms ?? 0),
    occupiedHours: occupied,
    belowComfortHours: Number(r?.below ?? 0),
    categoryHours: { i, ii, iii, below: Math.max(0, occupied - i - ii - iii) },
    heatingHours: Number(r?.heating ?? 0),
    setbackHours: Number(r?.setback ?? 0),
    windowHeatingHours: Number(r?.window_heating ?? 0),
    readingBuckets: Number(r?.reading_buckets ?? 0),
    outdoorMean: num(r?.outdoor),
  };
}

export interface DayRow {
  day: string;
  roomMean: number | null;
  setpointMean: number | null;
  outdoorMean: number | null;
  heatingHours: number;
  degreeDays: number | null;
}

/** One row per day with data: means over the scope's rooms, heating hours summed, degree days. */
export async function dayRows(
  db: Db,
  companyId: string,
  scope: ReportScope,
  days: DayRange,
): Promise<DayRow[]> {
  const rows = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      select r.day::text as day, avg(r.room_mean) as room, avg(r.setpoint_mean) as setpoint,
        avg(r.outdoor_mean) as outdoor, coalesce(sum(r.heating_minutes), 0) / 60.0 as heating,
        avg(${degreeDay}) filter (where r.outdoor_mean is not null) as dd
      from unit_rollups_daily r where ${where(companyId, scope, days)}
      group by r.day order by r.day`),
  );
  return rows.map((r) => ({
    day: String(r.day),
    roomMean: num(r.room),
    setpointMean: num(r.setpoint),
    outdoorMean: num(r.outdoor),
    heatingHours: Number(r.heating),
    degreeDays: num(r.dd),
  }));
}

export interface UnitRow {
  unitId: string;
  name: string;
  buildingId: string | null;
  roomMean: number | null;
  occupiedHours: number;
  belowComfortHours: number;
  heatingHours: number;
  setbackHours: number;
  windowHeatingHours: number;
  stuckOpenHours: number;
  readingBuckets: number;
  /** The room's first day with data in the range. */
  firstDay: string;
  degreeDays: number | null;
}

/** One row per room of the scope (a deleted room keeps its rows, named by the caller). */
export async function unitRows(
  db: Db,
  companyId: string,
  scope: ReportScope,
  days: DayRange,
): Promise<UnitRow[]> {
  const rows = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      select r.unit_id, u.name, (array_agg(r.building_id order by r.day desc))[1] as building_id,
        avg(r.room_mean) as room, sum(r.occupied_minutes) / 60.0 as occupied,
        sum(r.below_comfort_minutes) / 60.0 as below, sum(r.heating_minutes) / 60.0 as heating,
        sum(r.setback_minutes) / 60.0 as setback, sum(r.window_heating_minutes) / 60.0 as window_heating,
        sum(r.stuck_open_minutes) / 60.0 as stuck, sum(r.reading_buckets) as reading_buckets,
        min(r.day)::text as first_day,
        sum(${degreeDay}) filter (where r.outdoor_mean is not null) as dd
      from unit_rollups_daily r left join units u on u.id = r.unit_id
      where ${where(companyId, scope, days)}
      group by r.unit_id, u.name`),
  );
  return rows.map((r) => ({
    unitId: String(r.unit_id),
    name: r.name === null ? '' : String(r.name),
    buildingId: r.building_id === null ? null : String(r.building_id),
    roomMean: num(r.room),
    occupiedHours: Number(r.occupied),
    belowComfortHours: Number(r.below),
    heatingHours: Number(r.heating),
    setbackHours: Number(r.setback),
    windowHeatingHours: Number(r.window_heating),
    stuckOpenHours: Number(r.stuck),
    readingBuckets: Number(r.reading_buckets),
    firstDay: String(r.first_day),
    degreeDays: num(r.dd),
  }));
}

/** Degree days of each building of the company in the days (room-averaged per day, then summed). */
export async function buildingDegreeDays(
  db: Db,
  companyId: string,
  days: DayRange,
): Promise<Map<string | null, number>> {
  const rows = rowsOf<{ building_id: string | null; dd: unknown }>(
    await db.execute(sql`
      select building_id, sum(dd) as dd from (
        select r.building_id, r.day, avg(${degreeDay}) as dd
        from unit_rollups_daily r
        where ${where(companyId, { kind: 'company' }, days)} and r.outdoor_mean is not null
        group by r.building_id, r.day) x
      group by building_id`),
  );
  return new Map(rows.map((r) => [r.building_id, Number(r.dd)]));
}

/**
 * The saving estimate's two sums over the scope's room days with room and outdoor means: actual
 * room-minus-outdoor kelvin days and the reference's, the reference being each room's own comfort
 * setpoint 07:00–18:00 on weekdays and 4 K below it otherwise (DIN V 18599-10's night setback).
 */
export async function savingSums(
  db: Db,
  companyId: string,
  scope: ReportScope,
  days: DayRange,
): Promise<{ actual: number; reference: number; comfort: number | null }> {
  const [r] = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      select sum(greatest(0, x.room_mean - x.outdoor_mean)) as actual,
        sum(greatest(0, x.comfort - case when extract(isodow from x.day) <= 5 then 52.0 / 24 else 4 end
          - x.outdoor_mean)) as reference,
        avg(x.comfort) as comfort
      from (
        select r.day, r.room_mean, r.outdoor_mean, avg(r.occupied_setpoint_mean) over (partition by r.unit_id) as comfort
        from unit_rollups_daily r where ${where(companyId, scope, days)}
      ) x
      where x.room_mean is not null and x.outdoor_mean is not null and x.comfort is not null`),
  );
  return { actual: Number(r?.actual ?? 0), reference: Number(r?.reference ?? 0), comfort: num(r?.comfort) };
}

/** Web and QR overrides of the scope's rooms that began in [`from`, `to`), with how long each held. */
export async function overrides(
  db: Db,
  companyId: string,
  scope: ReportScope,
  from: Date,
  to: Date,
): Promise<{ web: { count: number; hours: number }; qr: { count: number; hours: number } }> {
  const units =
    scope.kind === 'company'
      ? sql`true`
      : scope.kind === 'unit'
        ? sql`h.unit_id = ${scope.id}`
        : sql`h.unit_id in (select id from units where company_id = ${companyId} and ${sql.raw(scope.kind === 'building' ? 'building_id' : 'group_id')} = ${scope.id})`;
  const f = from.toISOString();
  const t = to.toISOString();
  const rows = rowsOf<{ kind: string; n: unknown; hours: unknown }>(
    await db.execute(sql`
      select kind, count(*) as n,
        coalesce(sum(extract(epoch from least(coalesce(next_at, ${t}::timestamptz), ${t}::timestamptz) - at)), 0) / 3600 as hours
      from (
        select h.kind, h.at, lead(h.at) over (partition by h.unit_id order by h.at, h.id) as next_at
        from heating_log h
        where h.company_id = ${companyId} and ${units}
          and h.at >= ${f}::timestamptz and h.at < ${t}::timestamptz + interval '7 days'
      ) x
      where kind in ('web_change', 'qr_change') and at < ${t}::timestamptz
      group by kind`),
  );
  const of = (kind: string) => {
    const row = rows.find((r) => r.kind === kind);
    return { count: Number(row?.n ?? 0), hours: Number(row?.hours ?? 0) };
  };
  return { web: of('web_change'), qr: of('qr_change') };
}

/**
 * Per room of `unitIds`: the share (0–1) of its occupied quarter hours in [`from`, `to`) (setpoint
 * at least `floorC` °C) in which the room's mean was more than `aboveK` K above the setpoint; rooms
 * without occupied quarter hours are left out. Read from the 15-minute rollups, so only for the few
 * rooms the caller asks about.
 */
export async function aboveSetpointShares(
  db: Db,
  companyId: string,
  unitIds: string[],
  window: { from: Date; to: Date },
  { floorC, aboveK }: { floorC: number; aboveK: number },
): Promise<Map<string, number>> {
  if (unitIds.length === 0) return new Map();
  const ids = sql.join(
    unitIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const rows = rowsOf<{ unit_id: string; share: unknown }>(
    await db.execute(sql`
      select unit_id,
        count(*) filter (where room_mean > setpoint + ${aboveK})::float / count(*) as share
      from unit_rollups_15m
      where company_id = ${companyId} and unit_id in (${ids})
        and bucket >= ${window.from.toISOString()}::timestamptz and bucket < ${window.to.toISOString()}::timestamptz
        and setpoint >= ${floorC} and room_mean is not null
      group by unit_id`),
  );
  return new Map(rows.map((r) => [String(r.unit_id), Number(r.share)]));
}

/** Meter readings (kWh per carrier) of the buildings (all the company's when `buildingId` is null) in the months. */
export async function meterKwh(
  db: Db,
  companyId: string,
  buildingId: string | null,
  months: string[],
): Promise<{ carrier: string; kwh: number }[]> {
  const rows = rowsOf<{ carrier: string; kwh: unknown }>(
    await db.execute(sql`
      select carrier, sum(kwh) as kwh from building_meter_readings
      where company_id = ${companyId} and month in (${sql.join(
        months.map((m) => sql`${m}`),
        sql`, `,
      )})
        ${buildingId ? sql`and building_id = ${buildingId}` : sql``}
      group by carrier order by carrier`),
  );
  return rows.map((r) => ({ carrier: r.carrier, kwh: Number(r.kwh) }));
}

/** Heated area (m², summed over the company's buildings when `buildingId` is null) and the building's targets. */
export async function reportSettings(
  db: Db,
  companyId: string,
  buildingId: string | null,
): Promise<{
  area: number | null;
  maxHeatingHoursPerDegreeDay: number | null;
  maxBelowComfortShare: number | null;
}> {
  const [r] = rowsOf<Record<string, unknown>>(
    await db.execute(sql`
      select sum(heated_area_m2) as area, max(max_heating_hours_per_degree_day) as max_hdd,
        max(max_below_comfort_share) as max_below
      from building_report_settings
      where company_id = ${companyId} ${buildingId ? sql`and building_id = ${buildingId}` : sql``}`),
  );
  return {
    area: num(r?.area),
    maxHeatingHoursPerDegreeDay: buildingId ? num(r?.max_hdd) : null,
    maxBelowComfortShare: buildingId ? num(r?.max_below) : null,
  };
}

/** Names of the company's buildings. */
export async function buildingNames(db: Db, companyId: string): Promise<Map<string, string>> {
  const rows = rowsOf<{ id: string; name: string }>(
    await db.execute(sql`select id, name from buildings where company_id = ${companyId}`),
  );
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** The scope's room days for a file export, by day, building and room name (a month of 1,000 rooms is 31,000 rows). */
export async function exportDays(db: Db, companyId: string, scope: ReportScope, days: DayRange) {
  return rowsOf<Record<string, unknown> & { day: string; building: string | null; unit: string | null }>(
    await db.execute(sql`
      select r.day::text as day, b.name as building, u.name as unit, r.room_mean, r.room_min, r.room_max,
        r.setpoint_mean, r.outdoor_mean, r.heating_minutes, r.occupied_minutes, r.below_comfort_minutes,
        r.setback_minutes, r.window_heating_minutes,
        case when r.outdoor_mean is null then null else ${degreeDay} end as degree_days
      from unit_rollups_daily r
      left join units u on u.id = r.unit_id
      left join buildings b on b.id = r.building_id
      where ${where(companyId, scope, days)}
      order by r.day, b.name nulls last, u.name`),
  );
}

/** A building's heated area and target values, or undefined when none were set. */
export async function findBuildingReportSettings(db: Db, buildingId: string) {
  const [settings] = await db
    .select()
    .from(buildingReportSettings)
    .where(eq(buildingReportSettings.buildingId, buildingId));
  return settings;
}

/** A building's meter readings, newest month first. */
export async function meterReadings(db: Db, buildingId: string) {
  return db
    .select({
      month: buildingMeterReadings.month,
      carrier: buildingMeterReadings.carrier,
      kwh: buildingMeterReadings.kwh,
    })
    .from(buildingMeterReadings)
    .where(eq(buildingMeterReadings.buildingId, buildingId))
    .orderBy(sql`${buildingMeterReadings.month} desc, ${buildingMeterReadings.carrier}`);
}

export async function upsertBuildingReportSettings(
  db: Db,
  companyId: string,
  buildingId: string,
  body: BuildingReportSettings,
): Promise<void> {
  await db
    .insert(buildingReportSettings)
    .values({ buildingId, companyId, ...body })
    // New targets are checked again against the last month (and its alert follows).
    .onConflictDoUpdate({
      target: buildingReportSettings.buildingId,
      set: { ...body, checkedMonth: null, missedTargets: [], updatedAt: new Date() },
    });
}

/** Enters a month's reading of one carrier, replacing the one there was. */
export async function upsertMeterReading(
  db: Db,
  companyId: string,
  buildingId: string,
  reading: MeterReading,
): Promise<void> {
  await db
    .insert(buildingMeterReadings)
    .values({ companyId, buildingId, ...reading })
    .onConflictDoUpdate({
      target: [buildingMeterReadings.buildingId, buildingMeterReadings.month, buildingMeterReadings.carrier],
      set: { kwh: reading.kwh, updatedAt: new Date() },
    });
}

/** @returns the deleted rows' months: empty when there was no such reading. */
export async function deleteMeterReading(db: Db, buildingId: string, month: string, carrier: string) {
  return db
    .delete(buildingMeterReadings)
    .where(
      and(
        eq(buildingMeterReadings.buildingId, buildingId),
        eq(buildingMeterReadings.month, month),
        sql`${buildingMeterReadings.carrier} = ${carrier}`,
      ),
    )
    .returning({ month: buildingMeterReadings.month });
}

const subscriptionOf = (companyId: string, userId: string) =>
  and(eq(reportSubscriptions.companyId, companyId), eq(reportSubscriptions.userId, userId));

export async function isSubscribed(db: Db, companyId: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: reportSubscriptions.userId })
    .from(reportSubscriptions)
    .where(subscriptionOf(companyId, userId));
  return Boolean(row);
}

/** Subscribes the member, `lastMonth` (`YYYY-MM`) counting as sent; a subscription kept as it is. */
export async function subscribe(db: Db, companyId: string, userId: string, lastMonth: string): Promise<void> {
  await db.insert(reportSubscriptions).values({ companyId, userId, lastMonth }).onConflictDoNothing();
}

export async function unsubscribe(db: Db, companyId: string, userId: string): Promise<void> {
  await db.delete(reportSubscriptions).where(subscriptionOf(companyId, userId));
}

/**
 * Claims one building whose targets are due to be checked against last month (in its company's
 * zone) at `now`, by moving its `checked_month` forward (`skip locked`). @returns undefined when
 * none is due.
 */
export async function claimEfficiencyCheck(db: Db, now: Date) {
  const [claim] = rowsOf<{
    building_id: string;
    company_id: string;
    time_zone: string;
    name: string;
    month: string;
  }>(
    await db.execute(sql`
      with due as (
        select r.building_id, r.company_id, c.time_zone, b.name, m.month
        from building_report_settings r
        join buildings b on b.id = r.building_id
        join companies c on c.id = r.company_id
        cross join lateral (select to_char(date_trunc('month', ${now.toISOString()}::timestamptz at time zone c.time_zone)
          - interval '1 month', 'YYYY-MM') as month) m
        where (r.max_heating_hours_per_degree_day is not null or r.max_below_comfort_share is not null)
          and (r.checked_month is null or r.checked_month < m.month)
        limit 1
        for update of r skip locked
      )
      update building_report_settings r set checked_month = due.month from due
      where r.building_id = due.building_id
      returning due.building_id, due.company_id, due.time_zone, due.name, due.month`),
  );
  return claim;
}

/** The targets the building missed in the month checked last (contract's `missed` list, JSON). */
export async function storeMissedTargets(db: Db, buildingId: string, missed: unknown[]): Promise<void> {
  await db.execute(sql`
    update building_report_settings set missed_targets = ${JSON.stringify(missed)}::jsonb
    where building_id = ${buildingId}`);
}

/**
 * Claims one subscribed member whose company's last month (in its zone) has not been mailed at
 * `now`, by moving the subscription's `last_month` forward (`skip locked`). @returns undefined when
 * none is due.
 */
export async function claimMonthlyMail(db: Db, now: Date) {
  const [claim] = rowsOf<{
    company_id: string;
    time_zone: string;
    email: string;
    lang: 'de' | 'en' | null;
    month: string;
  }>(
    await db.execute(sql`
      with due as (
        select s.company_id, s.user_id, c.time_zone, u.email, u.lang, m.month
        from report_subscriptions s
        join companies c on c.id = s.company_id
        join users u on u.id = s.user_id
        cross join lateral (select to_char(date_trunc('month', ${now.toISOString()}::timestamptz at time zone c.time_zone)
          - interval '1 month', 'YYYY-MM') as month) m
        where u.email <> '' and (s.last_month is null or s.last_month < m.month)
        limit 1
        for update of s skip locked
      )
      update report_subscriptions s set last_month = due.month from due
      where s.company_id = due.company_id and s.user_id = due.user_id
      returning due.company_id, due.time_zone, due.email, due.lang, due.month`),
  );
  return claim;
}
