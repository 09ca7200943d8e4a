/**
 * Heating circuits (Heizkreise) of a company's buildings: admins (`manage`) set them up — the
 * rooms a circuit serves, its heat generator, design point, heating curve and limits — and every
 * member reads them with what the rooms ask of the generator. Every 5 minutes `stepDue` runs the
 * engine's supply-temperature reset (`heating/engine/supply-reset.ts`, ASHRAE G36 trim and respond) for
 * each circuit in `shadow` on its rooms' latest reports, and keeps the step for the card and the
 * chart; nothing is sent to a heat generator yet.
 */
import type {
  CircuitReadings,
  CircuitState,
  HeatingCircuit,
  HeatingCircuitCreateSchema,
  HeatingCircuitListQuerySchema,
  HeatingCircuitUpdateSchema,
  HoldingRoom,
} from '@heizplan/contracts/heating-circuits';
import type { z } from 'zod';
import { requireMember } from '../../auth/membership.ts';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/client.ts';
import {
  heatingCurve,
  SUPPLY_RESET_DEFAULTS,
  SUPPLY_RESET_OFF,
  stepSupplyReset,
} from '../../heating/engine/supply-reset.ts';
import { isEmptyPatch } from '../../http/company-resource-routes.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import * as repo from './heating-circuits.repository.ts';

/** A step every 5 minutes (G36's sample period for hot-water reset). */
export const CIRCUIT_STEP_MS = 5 * 60_000;
/** Readings are kept this long. */
export const CIRCUIT_READINGS_KEPT_DAYS = 30;
const WEEK_MS = 7 * 86_400_000;
/** Circuits stepped per transaction. */
const STEP_BATCH = 50;

const NOT_FOUND = 'Heating circuit not found.';
const circuitNotFound = () => notFound(NOT_FOUND, { code: 'heating_circuit_not_found' });

/** The constraint of a PostgreSQL unique violation (SQLSTATE 23505), raw or wrapped by Drizzle; else null. */
function violatedUnique(error: unknown): string | null {
  const e = error as {
    code?: string;
    constraint?: string;
    cause?: { code?: string; constraint?: string };
  } | null;
  if (e?.code === '23505') return e.constraint ?? '';
  if (e?.cause?.code === '23505') return e.cause.constraint ?? '';
  return null;
}

export interface HeatingCircuitsServiceDeps {
  db: Db;
  now: Clock;
}

type Create = z.output<typeof HeatingCircuitCreateSchema>;
type Update = z.output<typeof HeatingCircuitUpdateSchema>;

export class HeatingCircuitsService {
  constructor(private readonly deps: HeatingCircuitsServiceDeps) {}

  private async toResponses(companyId: string, rows: repo.CircuitRow[]): Promise<HeatingCircuit[]> {
    const { db } = this.deps;
    const ids = rows.map((row) => row.id);
    const since = new Date(this.deps.now().getTime() - WEEK_MS);
    const [unitIds, latest, weeks] = await Promise.all([
      repo.circuitUnitIds(db, companyId, ids),
      repo.latestReadings(db, companyId, ids),
      repo.holdingUpSince(db, companyId, ids, since),
    ]);
    const names = await repo.unitNames(
      db,
      companyId,
      [...latest.values()].flatMap((reading) => reading.holdingUp.map((held) => held.unitId)),
    );
    return rows.map((row): HeatingCircuit => {
      const reading = latest.get(row.id);
      const state: CircuitState | null =
        reading && row.mode !== 'off'
          ? {
              at: reading.at.toISOString(),
              enabled: reading.enabled,
              reason: reading.reason,
              supplySetpoint: reading.supplySetpoint,
              curveSupply: reading.curveSupply,
              outdoor: reading.outdoor,
              demandPercent: reading.demandPercent,
              roomsNeedingHeat: reading.roomsNeedingHeat,
              holdingUp: reading.holdingUp.map(
                (held): HoldingRoom => ({ ...held, name: names.get(held.unitId) ?? '' }),
              ),
            }
          : null;
      return {
        id: row.id,
        name: row.name,
        buildingId: row.buildingId,
        generatorType: row.generatorType,
        designSupply: row.designSupply,
        designReturn: row.designReturn,
        designOutdoor: row.designOutdoor,
        curveSupply: row.curveSupply,
        curveRoom: row.curveRoom,
        minSupply: row.minSupply,
        maxSupply: row.maxSupply,
        mode: row.mode,
        unitIds: unitIds.get(row.id) ?? [],
        createdAt: row.createdAt.toISOString(),
        state,
        holdingUpWeek: weeks.get(row.id) ?? [],
      };
    });
  }

  async list(userId: string, companyId: string, query: z.output<typeof HeatingCircuitListQuerySchema>) {
    await requireMember(this.deps.db, userId, companyId, 'read');
    const { rows, count } = await repo.listCircuits(this.deps.db, companyId, query);
    return { results: await this.toResponses(companyId, rows), count, page: query.page, size: query.size };
  }

  async get(userId: string, companyId: string, id: string): Promise<HeatingCircuit> {
    await requireMember(this.deps.db, userId, companyId, 'read');
    const row = await repo.findCircuit(this.deps.db, companyId, id);
    if (!row) throw circuitNotFound();
    const [circuit] = await this.toResponses(companyId, [row]);
    return circuit as HeatingCircuit;
  }

  /**
   * @throws HttpError 400 `unknown_building` (body.buildingId), `circuit_unit_not_in_building` or
   * `circuit_unit_taken` (body.unitIds); 409 `heating_circuit_name_taken`.
   */
  async create(userId: string, companyId: string, body: Create): Promise<HeatingCircuit> {
    const { db } = this.deps;
    await requireMember(db, userId, companyId, 'manage');
    if (!(await repo.buildingExists(db, companyId, body.buildingId))) {
      const message = 'Building not found.';
      throw badRequest(message, [{ field: 'body.buildingId', message, code: 'unknown_building' }], {
        code: 'unknown_building',
      });
    }
    const unitIds = [...new Set(body.unitIds)];
    const { unitIds: _ignored, ...fields } = body;
    const id = await this.inTransaction(async (tx) => {
      await requireRooms(tx, companyId, body.buildingId, unitIds, null);
      const row = await repo.insertCircuit(tx, { ...fields, companyId, nextStepAt: this.deps.now() });
      await repo.replaceCircuitUnits(tx, companyId, row.id, unitIds);
      return row.id;
    }, body.name);
    return this.get(userId, companyId, id);
  }

  /** Changes only the fields given; `unitIds` replaces the circuit's rooms. Errors as `create`. */
  async update(userId: string, companyId: string, id: string, patch: Update): Promise<HeatingCircuit> {
    const { db } = this.deps;
    await requireMember(db, userId, companyId, 'manage');
    const row = await repo.findCircuit(db, companyId, id);
    if (!row) throw circuitNotFound();
    if (isEmptyPatch(patch)) return this.get(userId, companyId, id);
    const minSupply = patch.minSupply ?? row.minSupply;
    const maxSupply = patch.maxSupply ?? row.maxSupply;
    if (minSupply >= maxSupply) {
      const message = `The highest supply temperature must be above the lowest (lowest ${minSupply} °C, highest ${maxSupply} °C).`;
      const reason = { code: 'circuit_supply_limits', params: { min: minSupply, max: maxSupply } } as const;
      throw badRequest(
        message,
        [{ field: patch.maxSupply !== undefined ? 'body.maxSupply' : 'body.minSupply', message, ...reason }],
        reason,
      );
    }
    const designSupply = patch.designSupply ?? row.designSupply;
    const designReturn = patch.designReturn ?? row.designReturn;
    if (designReturn >= designSupply) {
      const message = `The design return must be below the design supply (supply ${designSupply} °C, return ${designReturn} °C).`;
      const reason = {
        code: 'circuit_return_above_supply',
        params: { supply: designSupply, return: designReturn },
      } as const;
      throw badRequest(message, [{ field: 'body.designReturn', message, ...reason }], reason);
    }
    const { unitIds, ...fields } = patch;
    const turnedOn = fields.mode !== undefined && fields.mode !== row.mode;
    await this.inTransaction(async (tx) => {
      if (unitIds !== undefined) {
        const rooms = [...new Set(unitIds)];
        await requireRooms(tx, companyId, row.buildingId, rooms, id);
        await repo.replaceCircuitUnits(tx, companyId, id, rooms);
      }
      const changes = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
      // A change of mode starts the controller afresh at the next step.
      if (turnedOn) Object.assign(changes, { controlState: null, nextStepAt: this.deps.now() });
      if (Object.keys(changes).length > 0) await repo.updateCircuit(tx, companyId, id, changes);
    }, patch.name ?? row.name);
    return this.get(userId, companyId, id);
  }

  async remove(userId: string, companyId: string, id: string): Promise<void> {
    await requireMember(this.deps.db, userId, companyId, 'manage');
    if (!(await repo.deleteCircuit(this.deps.db, companyId, id))) throw circuitNotFound();
  }

  /** The circuit's 5-minute steps between `from` and `to` (at most 14 days), oldest first. */
  async readings(
    userId: string,
    companyId: string,
    id: string,
    from: Date,
    to: Date,
  ): Promise<CircuitReadings> {
    await requireMember(this.deps.db, userId, companyId, 'read');
    if (!(await repo.findCircuit(this.deps.db, companyId, id))) throw circuitNotFound();
    const rows = await repo.readingsBetween(this.deps.db, companyId, id, from, to);
    return {
      readings: rows.map((row) => ({
        at: row.at.toISOString(),
        outdoor: row.outdoor,
        curveSupply: row.curveSupply,
        supplySetpoint: row.supplySetpoint,
        demandPercent: row.demandPercent,
        enabled: row.enabled,
        holdingUnitId: row.holdingUp[0]?.unitId ?? null,
      })),
    };
  }

  /**
   * One step of every circuit in `shadow` whose step is due, on its rooms' latest reports and the
   * building's outdoor temperature; answers how many circuits stepped. Circuits are claimed
   * `skip locked`, so instances share them.
   */
  async stepDue(): Promise<number> {
    const now = this.deps.now();
    let stepped = 0;
    for (;;) {
      const count = await this.deps.db.transaction(async (tx) => {
        const due = await repo.claimDueCircuits(tx, now, STEP_BATCH);
        for (const circuit of due) await stepCircuit(tx, circuit, now);
        return due.length;
      });
      stepped += count;
      if (count < STEP_BATCH) return stepped;
    }
  }

  /** Deletes readings past their keeping time; answers how many. */
  purgeReadings(): Promise<number> {
    return repo.purgeReadings(
      this.deps.db,
      new Date(this.deps.now().getTime() - CIRCUIT_READINGS_KEPT_DAYS * 86_400_000),
    );
  }

  /** Runs `change` in a transaction; a duplicate name answers 409. */
  private async inTransaction<T>(change: (tx: Db) => Promise<T>, name: string): Promise<T> {
    try {
      return await this.deps.db.transaction((tx) => change(tx));
    } catch (error) {
      if (violatedUnique(error) === 'heating_circuits_building_name_key') {
        throw conflict(`The building already has a heating circuit "${name}".`, {
          code: 'heating_circuit_name_taken',
          params: { name },
        });
      }
      throw error;
    }
  }
}

/**
 * @throws HttpError 400 on `body.unitIds`: `circuit_unit_not_in_building` for a room of another
 * building or company, `circuit_unit_taken` for a room another circuit serves.
 */
async function requireRooms(
  db: Db,
  companyId: string,
  buildingId: string,
  unitIds: string[],
  circuitId: string | null,
) {
  const inBuilding = new Set(await repo.unitsInBuilding(db, companyId, buildingId, unitIds));
  const outside = unitIds.find((unitId) => !inBuilding.has(unitId));
  if (outside) {
    const message = `The room ${outside} is not in the circuit's building.`;
    const reason = { code: 'circuit_unit_not_in_building', params: { id: outside } } as const;
    throw badRequest(message, [{ field: 'body.unitIds', message, ...reason }], reason);
  }
  const [taken] = await repo.unitsInOtherCircuits(db, companyId, unitIds, circuitId);
  if (taken) {
    const message = `The room ${taken} belongs to another heating circuit already.`;
    const reason = { code: 'circuit_unit_taken', params: { id: taken } } as const;
    throw badRequest(message, [{ field: 'body.unitIds', message, ...reason }], reason);
  }
}

/** One controller step of `circuit` at `now`, stored with its reading. */
async function stepCircuit(db: Db, circuit: repo.CircuitRow, now: Date) {
  const [reports, outdoor] = await Promise.all([
    repo.circuitRoomReports(db, circuit.companyId, circuit.id),
    repo.outdoorAt(db, circuit.buildingId, now),
  ]);
  const curveSupply =
    outdoor === null
      ? null
      : heatingCurve(outdoor, {
          designSupply: circuit.curveSupply,
          designOutdoor: circuit.designOutdoor,
          roomTemperature: circuit.curveRoom,
        });
  const settings = { ...SUPPLY_RESET_DEFAULTS, minSupply: circuit.minSupply, maxSupply: circuit.maxSupply };
  const decided = stepSupplyReset(
    circuit.controlState ?? SUPPLY_RESET_OFF,
    reports.map((room) => ({
      unitId: room.unitId,
      setpoint: room.setpoint ?? 0,
      roomTemperature: room.roomTemperature,
      valveOpening: room.valveOpening,
      faulty: room.faulty || room.setpoint === null,
      preheatSoon: false,
      weight: 1,
    })),
    // Without an outdoor temperature the curve gives no bound: the circuit's highest limit does.
    curveSupply ?? circuit.maxSupply,
    now.getTime(),
    settings,
  );
  await repo.saveStep(db, circuit, {
    state: decided.state,
    nextStepAt: new Date(now.getTime() + CIRCUIT_STEP_MS),
    reading: {
      circuitId: circuit.id,
      companyId: circuit.companyId,
      at: now,
      enabled: decided.enabled,
      reason: decided.reason,
      supplySetpoint: decided.supplySetpoint,
      curveSupply,
      outdoor,
      demandPercent: decided.demandPercent,
      roomsNeedingHeat: decided.roomsNeedingHeat,
      holdingUp: decided.holdingUp,
    },
  });
}
