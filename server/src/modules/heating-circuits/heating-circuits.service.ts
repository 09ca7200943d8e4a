/**
 * Heating circuits (Heizkreise) of a company's buildings: admins (`manage`) set them up — the
 * rooms a circuit serves, its heat generator, design point, heating curve and limits — and every
 * member reads them with what the rooms ask of the generator. Every 5 minutes `stepDue` runs the
 * engine's supply-temperature reset (`heating/engine/supply-reset.ts`, ASHRAE G36 trim and respond) for
 * each circuit in `shadow` or `on` on its rooms' latest reports, and keeps the step for the card
 * and the chart. In `on` the step's command also goes to the circuit's output (decision 0077):
 * when it changed, or every 15 minutes as the generator's watchdog, never for an hour after the
 * generator was changed by hand; each write is recorded. A LoRaWAN relay is written only when the
 * enable changes (no watchdog: LoRaWAN fair use), and its later uplinks are its read-back.
 */
import { randomUUID } from 'node:crypto';
import type {
  CircuitOutput,
  CircuitOutputConfig,
  CircuitReadings,
  CircuitState,
  CircuitWrite,
  CircuitWrites,
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
import type { CircuitReport } from '../../generators/mqtt-bms.ts';
import type { WriteResult } from '../../generators/output.ts';
import { ACTING_OUTPUT_KINDS, GeneratorOutputs, type QueueDownlink } from '../../generators/outputs.ts';
import {
  heatingCurve,
  SUPPLY_RESET_DEFAULTS,
  SUPPLY_RESET_OFF,
  stepSupplyReset,
} from '../../heating/engine/supply-reset.ts';
import { isEmptyPatch } from '../../http/company-resource-routes.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import type { AppKeyCipher } from '../devices/app-key-cipher.ts';
import * as repo from './heating-circuits.repository.ts';

/** A step every 5 minutes (G36's sample period for hot-water reset). */
export const CIRCUIT_STEP_MS = 5 * 60_000;
/** Readings are kept this long. */
export const CIRCUIT_READINGS_KEPT_DAYS = 30;
const WEEK_MS = 7 * 86_400_000;
/**
 * An unchanged command is written again after this long: a generator controller's watchdog falls
 * back to its own curve when its master goes quiet (decision 0077), and a quiet bus otherwise.
 */
export const CIRCUIT_REWRITE_MS = 15 * 60_000;
/** After a read-back showed a change by hand, nothing is written for this long (decision 0077). */
export const CIRCUIT_OVERRIDE_PAUSE_MS = 60 * 60_000;
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
  /** Encrypts and decrypts MQTT broker passwords of outputs (the device key, like AppKeys). */
  cipher: () => Promise<AppKeyCipher>;
  /** The outputs of circuits in `on`; default: built from their configuration (`generators/outputs.ts`). */
  outputs?: GeneratorOutputs;
  /**
   * Queues a LoRaWAN relay's downlink (the valves' downlink queue); without it a relay output's
   * writes fail. Used by the default `outputs`.
   */
  queueDownlink?: QueueDownlink;
}

/** A step's command for a circuit in `on`, to be written after the step's transaction. */
interface PendingWrite {
  circuit: repo.CircuitRow;
  report: CircuitReport;
}

const toWrite = (row: repo.CircuitWriteRow): CircuitWrite => ({
  at: row.at.toISOString(),
  enabled: row.enabled,
  supplySetpoint: row.supplySetpoint,
  ok: row.ok,
  detail: row.detail,
  readBackEnabled: row.readBackEnabled,
  readBackSetpoint: row.readBackSetpoint,
  override: row.override,
});

/** The same command: equal enable and setpoints within 0.05 K (stored as a 4-byte real). */
function sameCommand(
  a: { enabled: boolean; supplySetpoint: number | null },
  b: { enabled: boolean; supplySetpoint: number | null },
): boolean {
  if (a.enabled !== b.enabled) return false;
  if (a.supplySetpoint === null || b.supplySetpoint === null) return a.supplySetpoint === b.supplySetpoint;
  return Math.abs(a.supplySetpoint - b.supplySetpoint) < 0.05;
}

/**
 * Whether the command is written at `now` after `last` (decision 0077): never within an hour of
 * an override; always after a failed write, to a `fresh` output (a new configuration, or after a
 * restart) or when the command changed; else every 15 minutes. A LoRaWAN `relay` carries the
 * enable only and keeps its state by itself: it is written when the enable changed, never by the
 * watchdog — The Things Network's fair-use policy allows about 10 downlinks a day per device —
 * and again when its last command was not delivered (`undelivered`).
 */
export function writeDue(
  last: Pick<repo.CircuitWriteRow, 'at' | 'ok' | 'override' | 'enabled' | 'supplySetpoint'> | undefined,
  command: { enabled: boolean; supplySetpoint: number | null },
  now: Date,
  fresh: boolean,
  relay: { undelivered: boolean } | null = null,
): boolean {
  if (!last) return true;
  const since = now.getTime() - last.at.getTime();
  if (last.override && since < CIRCUIT_OVERRIDE_PAUSE_MS) return false;
  if (!last.ok || last.override || fresh) return true;
  if (relay) return relay.undelivered || last.enabled !== command.enabled;
  return !sameCommand(last, command) || since >= CIRCUIT_REWRITE_MS;
}

/** The record of one write of `report` at `now`. */
function writeRow(
  circuit: repo.CircuitRow,
  report: CircuitReport,
  now: Date,
  result: Pick<WriteResult, 'ok' | 'detail' | 'readBack' | 'override'>,
) {
  return {
    circuitId: circuit.id,
    companyId: circuit.companyId,
    at: now,
    enabled: report.enabled,
    supplySetpoint: report.enabled ? report.supplySetpoint : null,
    ok: result.ok,
    detail: result.detail,
    readBackEnabled: result.readBack?.enabled ?? null,
    readBackSetpoint: result.readBack?.supplySetpoint ?? null,
    override: result.override === true,
  };
}

/** The output as the API shows it: the MQTT password replaced by whether one is stored. */
export function outputResponse(output: CircuitOutputConfig | null): CircuitOutput | null {
  if (output === null) return null;
  if (output.kind !== 'mqtt') return output;
  const { password, ...rest } = output;
  return { ...rest, hasPassword: password !== undefined && password !== '' };
}

type Create = z.output<typeof HeatingCircuitCreateSchema>;
type Update = z.output<typeof HeatingCircuitUpdateSchema>;

export class HeatingCircuitsService {
  private readonly outputs: GeneratorOutputs;

  constructor(private readonly deps: HeatingCircuitsServiceDeps) {
    this.outputs = deps.outputs ?? new GeneratorOutputs(deps.now, undefined, deps.queueDownlink);
  }

  /** Closes the outputs' connections (shutdown). */
  close(): Promise<void> {
    return this.outputs.close();
  }

  private async toResponses(companyId: string, rows: repo.CircuitRow[]): Promise<HeatingCircuit[]> {
    const { db } = this.deps;
    const ids = rows.map((row) => row.id);
    const since = new Date(this.deps.now().getTime() - WEEK_MS);
    const [unitIds, latest, weeks, writes] = await Promise.all([
      repo.circuitUnitIds(db, companyId, ids),
      repo.latestReadings(db, companyId, ids),
      repo.holdingUpSince(db, companyId, ids, since),
      repo.lastWrites(db, companyId, ids),
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
        output: outputResponse(row.output ?? null),
        unitIds: unitIds.get(row.id) ?? [],
        createdAt: row.createdAt.toISOString(),
        state,
        holdingUpWeek: weeks.get(row.id) ?? [],
        lastWrite: writes.has(row.id) ? toWrite(writes.get(row.id) as repo.CircuitWriteRow) : null,
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
    requireActingOutput(body.mode, body.output, 'body.mode');
    await requireRelayDevice(db, companyId, body.mode, body.output);
    const unitIds = [...new Set(body.unitIds)];
    const { unitIds: _ignored, output, ...fields } = body;
    // The id is chosen here: it is the additional data of the output's encrypted password.
    const newId = randomUUID();
    const stored = await this.storedOutput(newId, output, null);
    const id = await this.inTransaction(async (tx) => {
      await requireRooms(tx, companyId, body.buildingId, unitIds, null);
      const row = await repo.insertCircuit(tx, {
        ...fields,
        id: newId,
        output: stored,
        companyId,
        nextStepAt: this.deps.now(),
      });
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
    const { unitIds, output, ...fields } = patch;
    // Named where the change is: the mode asked for, or the output taken from a circuit in `on`.
    const mode = fields.mode ?? row.mode;
    const nextOutput = output === undefined ? (row.output ?? null) : output;
    requireActingOutput(mode, nextOutput, fields.mode !== undefined ? 'body.mode' : 'body.output');
    // Only a change of mode or output is checked: a relay removed since shows as failed writes
    // (and their alert), and must not block renaming the circuit.
    if (fields.mode !== undefined || output !== undefined) {
      await requireRelayDevice(db, companyId, mode, nextOutput);
    }
    const turnedOn = fields.mode !== undefined && fields.mode !== row.mode;
    const stored = output === undefined ? undefined : await this.storedOutput(id, output, row.output ?? null);
    await this.inTransaction(async (tx) => {
      if (unitIds !== undefined) {
        const rooms = [...new Set(unitIds)];
        await requireRooms(tx, companyId, row.buildingId, rooms, id);
        await repo.replaceCircuitUnits(tx, companyId, id, rooms);
      }
      const changes: Partial<repo.CircuitInsert> = Object.fromEntries(
        Object.entries(fields).filter(([, value]) => value !== undefined),
      );
      if (stored !== undefined) changes.output = stored;
      // A change of mode starts the controller afresh at the next step.
      if (turnedOn) Object.assign(changes, { controlState: null, nextStepAt: this.deps.now() });
      if (Object.keys(changes).length > 0) await repo.updateCircuit(tx, companyId, id, changes);
    }, patch.name ?? row.name);
    // The next write builds the output afresh from the new configuration.
    if (output !== undefined || turnedOn) await this.outputs.drop(id);
    return this.get(userId, companyId, id);
  }

  async remove(userId: string, companyId: string, id: string): Promise<void> {
    await requireMember(this.deps.db, userId, companyId, 'manage');
    if (!(await repo.deleteCircuit(this.deps.db, companyId, id))) throw circuitNotFound();
    await this.outputs.drop(id);
  }

  /** The circuit's writes to its output, newest first, at most `limit`. */
  async writes(userId: string, companyId: string, id: string, limit: number): Promise<CircuitWrites> {
    await requireMember(this.deps.db, userId, companyId, 'read');
    if (!(await repo.findCircuit(this.deps.db, companyId, id))) throw circuitNotFound();
    const rows = await repo.latestWrites(this.deps.db, companyId, id, limit);
    return { writes: rows.map(toWrite) };
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
   * One step of every circuit in `shadow` or `on` whose step is due, on its rooms' latest reports
   * and the building's outdoor temperature; answers how many circuits stepped. Circuits are
   * claimed `skip locked`, so instances share them. The commands of circuits in `on` are written
   * after each batch's transaction (no lock is held while a generator answers), all of a batch at
   * once: a slow or failing generator holds up no other circuit, each output's own timeout bounds
   * the wait. @throws AggregateError after all writes, when recording some of them failed.
   */
  async stepDue(): Promise<number> {
    const now = this.deps.now();
    let stepped = 0;
    for (;;) {
      const pending: PendingWrite[] = [];
      const count = await this.deps.db.transaction(async (tx) => {
        const due = await repo.claimDueCircuits(tx, now, STEP_BATCH);
        for (const circuit of due) {
          const report = await stepCircuit(tx, circuit, now);
          if (circuit.mode === 'on' && circuit.output) pending.push({ circuit, report });
        }
        return due.length;
      });
      const results = await Promise.allSettled(pending.map((write) => this.writeCommand(write, now)));
      const failed = results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
      if (failed.length > 0) throw new AggregateError(failed, 'recording circuit writes failed');
      stepped += count;
      if (count < STEP_BATCH) return stepped;
    }
  }

  /** Writes one circuit's command to its output when due (`writeDue`) and records the write. */
  private async writeCommand({ circuit, report }: PendingWrite, now: Date): Promise<void> {
    const { db } = this.deps;
    const last = await repo.latestWrite(db, circuit.companyId, circuit.id);
    let config: CircuitOutputConfig;
    try {
      config = await this.clearOutput(circuit);
    } catch {
      // A device key that changed since the password was stored: recorded and alerted, not thrown.
      if (!writeDue(last, report, now, false)) return;
      const result = {
        ok: false,
        detail: 'MQTT: the stored broker password cannot be decrypted; enter it again',
      };
      await repo.insertWrite(db, writeRow(circuit, report, now, result));
      return;
    }
    const { output, fresh } = await this.outputs.get(circuit.id, config, circuit.companyId);
    let relay: { undelivered: boolean } | null = null;
    let latest = last;
    if (config.kind === 'lora_relay') {
      ({ relay, last: latest } = await this.relayReadBack(circuit, config, last, report, now));
    }
    if (!writeDue(latest, report, now, fresh, relay)) return;
    const result = await output.write(report);
    await repo.insertWrite(db, writeRow(circuit, report, now, result));
  }

  /**
   * The read-back of a LoRaWAN relay (decision 0077, "Relay output wired"): once the last write's
   * downlink is acknowledged, the relays the device reported at or after the write show whether
   * the generator is released as written. A match is stored as the write's read-back; a
   * difference (switched by hand, or the device did not carry out the command) is recorded at
   * `now` as an override — nothing is sent, and the hour's pause runs from when it was seen. A
   * command the network server could not deliver counts as undelivered: it is written again.
   * @returns the newest write after this (for `writeDue`) and the relay's delivery state.
   */
  private async relayReadBack(
    circuit: repo.CircuitRow,
    config: Extract<CircuitOutputConfig, { kind: 'lora_relay' }>,
    last: repo.CircuitWriteRow | undefined,
    report: CircuitReport,
    now: Date,
  ): Promise<{ relay: { undelivered: boolean }; last: repo.CircuitWriteRow | undefined }> {
    const { db } = this.deps;
    if (!last?.ok || last.override) return { relay: { undelivered: false }, last };
    const device = await repo.relayDevice(db, circuit.companyId, config.devEui);
    const command = device?.command ?? null;
    if (command?.state === 'failed') return { relay: { undelivered: true }, last };
    if (
      command?.state !== 'acknowledged' ||
      !device?.relays ||
      !device.relaysAt ||
      device.relaysAt < last.at
    ) {
      return { relay: { undelivered: false }, last };
    }
    // RO1 releases the generator; `invert` means an open contact releases it (decision 0075).
    const enabled = device.relays.ro1Closed !== config.invert;
    if (enabled === last.enabled) {
      if (last.readBackEnabled !== enabled) {
        await repo.setWriteReadBack(db, circuit.companyId, circuit.id, last.at, enabled, false);
      }
      return { relay: { undelivered: false }, last: { ...last, readBackEnabled: enabled } };
    }
    const seen = {
      ...writeRow(circuit, { ...report, enabled: last.enabled, supplySetpoint: last.supplySetpoint }, now, {
        ok: true,
        detail: `LT-22222-L ${config.devEui}: reported RO1 ${device.relays.ro1Closed ? 'closed' : 'open'} at ${device.relaysAt.toISOString()}, enable ${enabled ? 'on' : 'off'} where ${last.enabled ? 'on' : 'off'} was written: changed by hand or the command was not carried out; nothing is sent for an hour`,
        readBack: { enabled },
        override: true,
      }),
      supplySetpoint: last.supplySetpoint,
    };
    await repo.insertWrite(db, seen);
    return { relay: { undelivered: false }, last: { ...last, ...seen, readBackSetpoint: null } };
  }

  /** The circuit's output configuration with an MQTT password decrypted. */
  private async clearOutput(circuit: repo.CircuitRow): Promise<CircuitOutputConfig> {
    const output = circuit.output as CircuitOutputConfig;
    if (output.kind !== 'mqtt' || !output.password) return output;
    return { ...output, password: (await this.deps.cipher()).decrypt(output.password, circuit.id) };
  }

  /** Deletes readings and write records past their keeping time; answers how many. */
  async purgeReadings(): Promise<number> {
    const before = new Date(this.deps.now().getTime() - CIRCUIT_READINGS_KEPT_DAYS * 86_400_000);
    const readings = await repo.purgeReadings(this.deps.db, before);
    return readings + (await repo.purgeWrites(this.deps.db, before));
  }

  /**
   * The output as stored for circuit `id`: an MQTT password encrypted; one left out keeps the
   * password of the circuit's MQTT output `before`, "" removes it.
   */
  private async storedOutput(
    id: string,
    output: CircuitOutputConfig | null,
    before: CircuitOutputConfig | null,
  ): Promise<CircuitOutputConfig | null> {
    if (output?.kind !== 'mqtt') return output;
    const { password, ...rest } = output;
    if (password === undefined) {
      const kept = before?.kind === 'mqtt' ? before.password : undefined;
      return kept ? { ...rest, password: kept } : rest;
    }
    if (password === '') return rest;
    return { ...rest, password: (await this.deps.cipher()).encrypt(password, id) };
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
 * Mode `on` needs an output the server can write to.
 * @throws HttpError 400 on `field` (`body.mode`, or `body.output` when only the output changes):
 * `circuit_on_without_output` without an output, `circuit_output_cannot_act` for a kind that
 * cannot act (none today: every kind of `ACTING_OUTPUT_KINDS` can, decision 0077).
 */
function requireActingOutput(
  mode: HeatingCircuit['mode'],
  output: CircuitOutputConfig | null,
  field: 'body.mode' | 'body.output',
) {
  if (mode !== 'on') return;
  if (output === null) {
    const message = 'Mode "on" needs an output to write to.';
    const reason = { code: 'circuit_on_without_output' } as const;
    throw badRequest(message, [{ field, message, ...reason }], reason);
  }
  if (!ACTING_OUTPUT_KINDS.includes(output.kind)) {
    const message = `Mode "on" cannot write through a ${output.kind} output.`;
    const reason = { code: 'circuit_output_cannot_act', params: { kind: output.kind } } as const;
    throw badRequest(message, [{ field, message, ...reason }], reason);
  }
}

/**
 * Mode `on` with a LoRaWAN relay needs the relay paired as an LT-22222-L of the company: its
 * downlinks go through the devices' downlink queue, which knows devices by company.
 * @throws HttpError 400 `circuit_relay_not_a_device` on `body.output.devEui`.
 */
async function requireRelayDevice(
  db: Db,
  companyId: string,
  mode: HeatingCircuit['mode'],
  output: CircuitOutputConfig | null,
) {
  if (mode !== 'on' || output?.kind !== 'lora_relay') return;
  const device = await repo.relayDevice(db, companyId, output.devEui);
  if (device?.model === 'dragino-lt22222') return;
  const message = `The relay ${output.devEui} is not a Dragino LT-22222-L of your company; pair it under devices first.`;
  const reason = { code: 'circuit_relay_not_a_device', params: { devEui: output.devEui } } as const;
  throw badRequest(message, [{ field: 'body.output.devEui', message, ...reason }], reason);
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

/**
 * One controller step of `circuit` at `now`, stored with its reading. @returns the step's command
 * with what explains it to a BMS; the setpoint rounded to 0.1 °C, a generator's resolution.
 */
async function stepCircuit(db: Db, circuit: repo.CircuitRow, now: Date): Promise<CircuitReport> {
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
  // The rooms' names go to a BMS (MQTT `holding_up`); a circuit in shadow sends nothing.
  const names =
    circuit.mode !== 'on' || decided.holdingUp.length === 0
      ? new Map<string, string>()
      : await repo.unitNames(
          db,
          circuit.companyId,
          decided.holdingUp.map((held) => held.unitId),
        );
  return {
    circuitId: circuit.id,
    name: circuit.name,
    enabled: decided.enabled,
    supplySetpoint:
      decided.enabled && decided.supplySetpoint !== null
        ? Math.round(decided.supplySetpoint * 10) / 10
        : null,
    demandPercent: decided.demandPercent,
    holdingUp: decided.holdingUp.map((held) => names.get(held.unitId) ?? held.unitId),
  };
}
