/**
 * Buildings (decision 0052): where a company's units are, with the federal state (and region)
 * whose public holidays apply and the building's floors. Every method checks membership first
 * (404 for strangers; reading needs `read`, writing `operate`). Rules:
 * - a region must be one `date-holidays` knows for the state (400 `unknown_holiday_region` on
 *   `region`), also when only the state changes;
 * - floors are kept in the order given, without duplicates; a floor removed is cleared on the
 *   units on it in the same transaction;
 * - deleting a building keeps its units, without building and floor;
 * - an outdoor sensor must be a sensor model of the company without unit (400 on
 *   `body.outdoorSensorId`: `device_not_found` also for another company's device,
 *   `outdoor_sensor_not_sensor`, `outdoor_sensor_assigned`); another sensor forgets the old
 *   one's stored hours (decision 0057).
 * A change of what the heating sees (public holidays treated as closures or not, their mode,
 * state or region) marks the building's units due in the same transaction and wakes the
 * scheduler, as closures do.
 */
import type {
  Building,
  BuildingInputSchema,
  BuildingListQuerySchema,
  BuildingUpdate,
  FederalState,
  HolidayList,
  HolidayRegions,
} from '@heizplan/contracts/buildings';
import type { ProblemCode } from '@heizplan/contracts/problem-codes';
import type { z } from 'zod';
import { requireMember } from '../../auth/membership.ts';
import type { Db } from '../../db/client.ts';
import {
  allHolidayRegions,
  type HolidayLang,
  isHolidayRegion,
  publicHolidays,
} from '../../heating/holidays.ts';
import { findCompanyHeating } from '../../heating/inputs.ts';
import { inputsChanged } from '../../heating/inputs-changed.ts';
import { schoolHolidayData, schoolHolidays } from '../../heating/school-holidays.ts';
import { type HeatingServiceDeps, requireCompanyHeating } from '../../heating/services.ts';
import { type HeatingStartsCompute, keptHeatingStartsTomorrow } from '../../heating/starts.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { getCodec, isModelId } from '../../lorawan/codecs/registry.ts';
import { type CurrentOutdoor, currentOutdoor } from '../../weather/outdoor-store.repository.ts';
import { findDevice } from '../devices/devices.service.ts';
import { requireOccupantCeiling } from '../units/temperature-range.ts';
import * as repo from './buildings.repository.ts';

// What other modules may use of this module's queries: they import it from here, never from
// the repository, so the module keeps its queries private and decides what leaves it.
export {
  buildingFloors,
  type CalendarBuilding,
  calendarBuildings,
  isCompanyBuilding,
  unitsInBuilding,
} from './buildings.repository.ts';

type BuildingInput = z.output<typeof BuildingInputSchema>;
type ListQuery = z.output<typeof BuildingListQuerySchema>;

/**
 * @throws HttpError 400 `unknown_holiday_region` (params region) for a region the state lacks.
 */
function requireRegionOf(state: FederalState, region: string | null) {
  if (region === null || isHolidayRegion(state, region)) return;
  const message = `The federal state ${state} has no holiday region "${region}".`;
  const reason = { code: 'unknown_holiday_region', params: { region } } as const;
  throw badRequest(message, [{ field: 'region', message, ...reason }], reason);
}

/**
 * @throws HttpError 400 on `body.outdoorSensorId`: `device_not_found` (unknown or another
 * company's), `outdoor_sensor_not_sensor` (a valve), `outdoor_sensor_assigned` (in a unit).
 */
async function requireOutdoorSensor(db: Db, companyId: string, deviceId: string | null) {
  if (deviceId === null) return;
  const device = (await findDevice(db, companyId, deviceId))?.device;
  const refuse = (code: ProblemCode, message: string) => {
    const reason = code === 'device_not_found' ? { code } : { code, params: { id: deviceId } };
    throw badRequest(message, [{ field: 'body.outdoorSensorId', message, ...reason }], reason);
  };
  if (!device) return refuse('device_not_found', 'Device not found.');
  if (!isModelId(device.model) || getCodec(device.model).kind !== 'sensor')
    return refuse('outdoor_sensor_not_sensor', `The device ${deviceId} is no sensor.`);
  if (device.unitId !== null)
    return refuse('outdoor_sensor_assigned', `The device ${deviceId} is assigned to a unit.`);
}

const unique = (values: readonly string[]) => [...new Set(values)];

type HeatingFields = Pick<
  repo.BuildingRow,
  'publicHolidays' | 'holidayMode' | 'schoolHolidays' | 'state' | 'region'
>;

/** Whether the building's calendar changes its units' heating at all. */
const changesHeating = (b: HeatingFields) => b.publicHolidays !== 'ignore' || b.schoolHolidays;

/** What the heating reads of a building: a change of it re-evaluates the building's units. */
function heatingRelevant(b: HeatingFields) {
  return changesHeating(b)
    ? `${b.state}:${b.region ?? ''}:${b.publicHolidays}:${b.schoolHolidays}:${b.holidayMode}`
    : 'ignore';
}

/** The heating services' collaborators, and what computes tomorrow's starts (a test counts it). */
export interface BuildingsServiceDeps extends HeatingServiceDeps {
  /** Default `heatingStartsTomorrow`; called only for buildings whose kept start is stale. */
  computeHeatingStarts?: HeatingStartsCompute;
}

export class BuildingsService {
  constructor(private readonly deps: BuildingsServiceDeps) {}

  private get db() {
    return this.deps.db;
  }

  async list(userId: string, companyId: string, q: ListQuery) {
    await requireMember(this.db, userId, companyId, 'read');
    const { rows, count } = await repo.listBuildings(this.db, companyId, q.page, q.size);
    return { results: await this.respond(companyId, rows), count, page: q.page, size: q.size };
  }

  /**
   * The buildings as the API answers them, each with tomorrow's heating start: kept per building
   * and computed only where stale (decision 0069); a building without units has none.
   */
  private async respond(companyId: string, records: repo.BuildingRecord[]): Promise<Building[]> {
    const company = await findCompanyHeating(this.db, companyId);
    const starts = company
      ? await keptHeatingStartsTomorrow(
          this.db,
          company,
          records.filter((r) => r.unitCount > 0).map((r) => r.building.id),
          this.deps.now(),
          this.deps.computeHeatingStarts,
        )
      : new Map<string, Date | null>();
    const outdoor = await currentOutdoor(
      this.db,
      companyId,
      records
        .filter((r) => r.building.latitude !== null || r.building.outdoorSensorId !== null)
        .map((r) => r.building.id),
      this.deps.now(),
    );
    return records.map((record) =>
      toResponse(record, starts.get(record.building.id) ?? null, outdoor.get(record.building.id) ?? null),
    );
  }

  private async respondOne(companyId: string, record: repo.BuildingRecord): Promise<Building> {
    const [building] = await this.respond(companyId, [record]);
    return building as Building;
  }

  /** @throws 404 unknown building (also another company's). */
  async get(userId: string, companyId: string, buildingId: string): Promise<Building> {
    await requireMember(this.db, userId, companyId, 'read');
    return this.respondOne(companyId, await this.load(companyId, buildingId));
  }

  /** @throws 400 `unknown_holiday_region` or an occupant ceiling outside the company range. */
  async create(userId: string, companyId: string, input: BuildingInput): Promise<Building> {
    const company = await requireCompanyHeating(this.db, userId, companyId, 'operate');
    requireOccupantCeiling(input.occupantMaxTemperature, company);
    requireRegionOf(input.state, input.region);
    await requireOutdoorSensor(this.db, companyId, input.outdoorSensorId);
    const id = await repo.insertBuilding(this.db, companyId, {
      ...input,
      floors: unique(input.floors),
      createdBy: userId,
    });
    // A new building has no units yet: nothing for the heating to do.
    return this.respondOne(companyId, await this.load(companyId, id));
  }

  /**
   * Changes only the fields given; floors removed are cleared on their units.
   * @throws 400 `unknown_holiday_region` or an occupant ceiling outside the company range, 404
   * unknown building.
   */
  async update(
    userId: string,
    companyId: string,
    buildingId: string,
    patch: BuildingUpdate,
  ): Promise<Building> {
    const company = await requireCompanyHeating(this.db, userId, companyId, 'operate');
    requireOccupantCeiling(patch.occupantMaxTemperature, company);
    const { building: before } = await this.load(companyId, buildingId);
    const after = {
      ...before,
      ...Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)),
    } as repo.BuildingRow;
    if (patch.floors) after.floors = unique(patch.floors);
    requireRegionOf(after.state, after.region);
    const sensorChanged = before.outdoorSensorId !== after.outdoorSensorId;
    if (sensorChanged) await requireOutdoorSensor(this.db, companyId, after.outdoorSensorId);
    const removed = before.floors.filter((floor) => !after.floors.includes(floor));
    const heatingChanged = heatingRelevant(before) !== heatingRelevant(after);
    const moved = before.latitude !== after.latitude || before.longitude !== after.longitude;
    const now = this.deps.now();
    await this.db.transaction(async (tx) => {
      await repo.updateBuilding(tx, companyId, buildingId, {
        name: after.name,
        street: after.street,
        postcode: after.postcode,
        city: after.city,
        state: after.state,
        region: after.region,
        floors: after.floors,
        publicHolidays: after.publicHolidays,
        holidayMode: after.holidayMode,
        schoolHolidays: after.schoolHolidays,
        latitude: after.latitude,
        longitude: after.longitude,
        outdoorSensorId: after.outdoorSensorId,
        occupantMaxTemperature: after.occupantMaxTemperature,
        occupantBand: after.occupantBand,
        updatedAt: now,
      });
      // The weather stored belongs to the old place: fetched again for the new one at once.
      if (moved) await repo.resetOutdoor(tx, companyId, buildingId);
      // Another (or no) outdoor sensor: the old one's hours go, the new one's come at once.
      else if (sensorChanged) await repo.resetOutdoor(tx, companyId, buildingId, 'sensor');
      await repo.clearUnitFloors(tx, companyId, buildingId, removed);
      if (heatingChanged) await inputsChanged(tx, { companyId, buildingId }, now);
    });
    if (heatingChanged) this.deps.wake();
    return this.respondOne(companyId, await this.load(companyId, buildingId));
  }

  /** Deletes the building; its units stay, without building and floor. @throws 404 unknown building. */
  async remove(userId: string, companyId: string, buildingId: string): Promise<void> {
    await requireMember(this.db, userId, companyId, 'operate');
    const { building } = await this.load(companyId, buildingId);
    const heatingChanged = changesHeating(building);
    await this.db.transaction(async (tx: Db) => {
      if (heatingChanged) await inputsChanged(tx, { companyId, buildingId }, this.deps.now());
      await repo.deleteBuilding(tx, companyId, buildingId);
    });
    if (heatingChanged) this.deps.wake();
  }

  /**
   * The public holidays of the building's state and region in `year`, and the state's school
   * holiday periods overlapping it. @throws 404 unknown building.
   */
  async holidays(
    userId: string,
    companyId: string,
    buildingId: string,
    q: { year: number; lang: HolidayLang },
  ): Promise<HolidayList> {
    await requireMember(this.db, userId, companyId, 'read');
    const { building } = await this.load(companyId, buildingId);
    return {
      results: publicHolidays(building.state, building.region, q.year, q.lang),
      schoolHolidays: schoolHolidays(building.state, `${q.year}-01-01`, `${q.year}-12-31`, q.lang),
      schoolHolidaysUntil: schoolHolidayData().to,
    };
  }

  /** Every federal state with its holiday regions; the same for every signed-in user. */
  regions(lang: HolidayLang): HolidayRegions {
    return allHolidayRegions(lang);
  }

  private async load(companyId: string, buildingId: string): Promise<repo.BuildingRecord> {
    const row = await repo.findBuilding(this.db, companyId, buildingId);
    if (!row) throw notFound('Unknown building', { code: 'unknown_building' });
    return row;
  }
}

function toResponse(
  { building: b, creatorName, unitCount }: repo.BuildingRecord,
  heatingStart: Date | null,
  outdoor: CurrentOutdoor | null,
): Building {
  return {
    id: b.id,
    name: b.name,
    street: b.street,
    postcode: b.postcode,
    city: b.city,
    state: b.state,
    region: b.region,
    floors: b.floors,
    publicHolidays: b.publicHolidays,
    holidayMode: b.holidayMode,
    schoolHolidays: b.schoolHolidays,
    latitude: b.latitude,
    longitude: b.longitude,
    outdoorSensorId: b.outdoorSensorId,
    outdoor: outdoor ? { ...outdoor, at: outdoor.at.toISOString() } : null,
    occupantMaxTemperature: b.occupantMaxTemperature,
    occupantBand: b.occupantBand,
    unitCount,
    heatingStartTomorrow: heatingStart ? heatingStart.toISOString() : null,
    createdAt: b.createdAt.toISOString(),
    createdBy: b.createdBy ? { id: b.createdBy, name: creatorName ?? '' } : null,
  };
}
