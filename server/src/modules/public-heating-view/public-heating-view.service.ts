/**
 * The public heating view of a unit (spec §1 and §9): what an occupant who scanned the
 * door's QR code may see and change, without login. The token is the only key; an unknown,
 * disabled or regenerated token answers 404 without saying which. An occupant's change moves in
 * 0.5 °C steps inside the occupant limits (`occupantLimits`: the room's wall-control limits, or the
 * company's safe default around the plan's setpoint), is logged
 * `qr_change` by an anonymous actor and holds until the next switch point or, when the company
 * limits occupant changes to N hours, until then — whichever comes first (docs/architecture.md).
 */
import type { OccupantFeeling } from '@heizplan/contracts/occupant-feedback';
import type { PublicHeatingView } from '@heizplan/contracts/public-heating-view';
import { resolveSetpoint } from '../../heating/engine/engine.ts';
import { loadHeatingInputs } from '../../heating/inputs.ts';
import type { HeatingServiceDeps } from '../../heating/services.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import type { OccupantFeedbackService } from '../occupant-feedback/occupant-feedback.service.ts';
import { findByToken } from '../qr-codes/qr-codes.service.ts';
import { findUnit, requireChangeable, type UnitsService } from '../units/units.service.ts';
import * as repo from './public-heating-view.repository.ts';

/** Occupants change the setpoint in steps of this size (°C). */
export const OCCUPANT_STEP = 0.5;
/** A reported setpoint this far (°C) from the one in force means a wall thermostat overrides it. */
export const OVERRIDE_THRESHOLD = 0.5;

const HOUR_MS = 3_600_000;

/**
 * A device overrides the setpoint when it reported, after its last downlink took effect,
 * a setpoint at least `OVERRIDE_THRESHOLD` away from what it was sent (the value in the
 * device's own steps; the unit's setpoint when it never got a downlink). A report from
 * before that downlink says nothing: the new value had not arrived yet.
 */
function isOverridden(device: repo.DeviceSetpointState, setpoint: number): boolean {
  if (device.reported === null || device.reportedAt === null) return false;
  if (device.downlinkAt && device.reportedAt.getTime() <= device.downlinkAt.getTime()) return false;
  const sent = device.downlinkSetpoint ?? setpoint;
  return Math.abs(device.reported - sent) >= OVERRIDE_THRESHOLD;
}

/** An occupant limit a group or a building sets; null = the next level's. */
interface OccupantLevel {
  ceiling: number | null;
  band: number | null;
}

/**
 * The company's settings with the occupants' ceiling (°C) and leeway (K) in force for one room:
 * each the group's where it sets one, else the building's, else the company's (decision 0066).
 * The company's leeway may be null (no leeway limit); a group or building cannot ask for that.
 */
export function occupantSettingsInForce<
  C extends { occupantMaxTemperature: number; occupantBand: number | null },
>(company: C, levels: { group: OccupantLevel; building: OccupantLevel }): C {
  return {
    ...company,
    occupantMaxTemperature: levels.group.ceiling ?? levels.building.ceiling ?? company.occupantMaxTemperature,
    occupantBand: levels.group.band ?? levels.building.band ?? company.occupantBand,
  };
}

/**
 * `min`…`max` (°C) an occupant may choose (decision 0066), on the 0.5 °C grid:
 * - a room with wall-control limits of its own: those limits inside the company range (spec §3,
 *   "Wall-control limits"), as staff set them for that room;
 * - any other room: the safe default in force (see `occupantSettingsInForce`), at most
 *   `occupantMaxTemperature` and, when a band is set, within `occupantBand` K of `planned`, the setpoint the room has without
 *   occupant changes (null when unknown: the band is not applied).
 * When the band lies wholly above the ceiling (a booking heats past it), the occupant may only
 * choose the ceiling.
 */
export function occupantLimits(
  company: {
    minTemperature: number;
    maxTemperature: number;
    occupantMaxTemperature: number;
    occupantBand: number | null;
  },
  unit: { wallControlMin: number | null; wallControlMax: number | null },
  planned: number | null,
) {
  let min: number;
  let max: number;
  if (unit.wallControlMin !== null || unit.wallControlMax !== null) {
    min = Math.max(company.minTemperature, unit.wallControlMin ?? company.minTemperature);
    max = Math.min(company.maxTemperature, unit.wallControlMax ?? company.maxTemperature);
  } else {
    min = company.minTemperature;
    max = Math.min(company.maxTemperature, company.occupantMaxTemperature);
    if (company.occupantBand !== null && planned !== null) {
      min = Math.max(min, planned - company.occupantBand);
      max = Math.min(max, planned + company.occupantBand);
    }
  }
  // Limits off the 0.5 °C grid are rounded inwards, so every offered step is allowed.
  const low = Math.ceil(min / OCCUPANT_STEP) * OCCUPANT_STEP;
  const high = Math.floor(max / OCCUPANT_STEP) * OCCUPANT_STEP;
  return { min: Math.min(low, high), max: high };
}

export class PublicHeatingViewService {
  /**
   * `units` applies an occupant's change as the units screen applies a manual one; `feedback`
   * records an occupant's "Zu warm" / "Zu kalt".
   */
  constructor(
    private readonly deps: HeatingServiceDeps,
    private readonly units: UnitsService,
    private readonly feedback: OccupantFeedbackService,
  ) {}

  private get db() {
    return this.deps.db;
  }

  /** @throws 404 for an unknown, disabled or regenerated token. */
  private async resolve(token: string) {
    const found = await findByToken(this.db, token);
    const record = found ? await findUnit(this.db, found.companyId, found.unitId) : null;
    const settings = found
      ? await repo.findOccupantSettings(this.db, found.companyId, found.unitId)
      : undefined;
    if (!found || !record || !settings) throw notFound();
    return {
      companyId: found.companyId,
      unit: record.unit,
      company: occupantSettingsInForce(settings.company, settings.levels),
    };
  }

  /**
   * °C the room has without occupant changes: its setpoint in force, or while an occupant's
   * change holds, the setpoint that change started from. The band is measured from it, so
   * occupants cannot climb step by step. Null when the room has no setpoint yet.
   */
  private async plannedSetpoint(
    companyId: string,
    unit: { id: string; setpoint: number | null; setpointSource: string | null },
  ): Promise<number | null> {
    if (unit.setpointSource !== 'qr_change') return unit.setpoint;
    return (await repo.lastSetpointBeforeOccupants(this.db, companyId, unit.id)) ?? unit.setpoint;
  }

  /** What the page shows for `token`. @throws 404 (see resolve). */
  async view(token: string): Promise<PublicHeatingView> {
    const { companyId, unit, company } = await this.resolve(token);
    const now = this.deps.now();
    const devices = await repo.deviceSetpointStates(this.db, companyId, unit.id, now);
    const lastReadingAt = await repo.lastReadingAt(this.db, companyId, unit.id);
    const { setpoint } = unit;
    const deliveryPending = devices.some((d) => d.downlinkState === 'queued' || d.downlinkState === 'sent');
    const overridden =
      !unit.ignoreWallControl &&
      setpoint !== null &&
      !deliveryPending &&
      devices.some((d) => isOverridden(d, setpoint));
    let nextChange: PublicHeatingView['nextChange'] = null;
    if (unit.nextChangeAt) {
      const input = (await loadHeatingInputs(this.db, [unit], undefined, now)).get(unit.id);
      if (input) {
        nextChange = {
          at: unit.nextChangeAt.toISOString(),
          setpoint: resolveSetpoint(input, unit.nextChangeAt).setpoint,
        };
      }
    }
    const occupantActive = unit.setpointSource === 'qr_change' && unit.manualSetpoint !== null;
    return {
      unitName: unit.name,
      roomTemperature: unit.roomTemperature,
      setpoint,
      valveOpening: unit.valveOpening,
      lastReadingAt: lastReadingAt?.toISOString() ?? null,
      wallControlOverride: overridden,
      wallControlReported: !deliveryPending && devices.some((d) => d.reported !== null),
      deliveryPending,
      setpointSource: unit.setpointSource,
      ...occupantLimits(company, unit, await this.plannedSetpoint(companyId, unit)),
      step: OCCUPANT_STEP,
      paused: unit.paused,
      occupantChange:
        occupantActive && unit.manualSetpoint !== null
          ? { setpoint: unit.manualSetpoint, until: unit.nextChangeAt?.toISOString() ?? null }
          : null,
      nextChange,
      timeZone: company.timeZone,
    };
  }

  /**
   * The occupant's setpoint change.
   * @throws 404 (see resolve), 409 while paused or closed (decision 0051), 400 off the 0.5 °C grid
   * or outside the limits.
   */
  async changeSetpoint(token: string, setpoint: number): Promise<PublicHeatingView> {
    const { companyId, unit, company } = await this.resolve(token);
    requireChangeable(unit);
    const { min, max } = occupantLimits(company, unit, await this.plannedSetpoint(companyId, unit));
    if (!Number.isInteger(setpoint / OCCUPANT_STEP)) {
      const reason = { code: 'setpoint_step', params: { step: OCCUPANT_STEP } } as const;
      throw badRequest(
        'The temperature can only be changed in steps of 0.5 °C.',
        [{ field: 'body.setpoint', message: 'Use steps of 0.5 °C.', ...reason }],
        reason,
      );
    }
    if (setpoint < min || setpoint > max) {
      const message = `Choose a temperature between ${min} °C and ${max} °C.`;
      const reason = { code: 'setpoint_outside_limits', params: { min, max } } as const;
      throw badRequest(message, [{ field: 'body.setpoint', message, ...reason }], reason);
    }
    const limitHours = company.occupantChangeMaxHours;
    const until = limitHours ? new Date(this.deps.now().getTime() + limitHours * HOUR_MS) : null;
    await this.units.applyManualChange(companyId, unit.id, { kind: 'qr_change', setpoint, until }, null);
    return this.view(token);
  }

  /**
   * The occupant's "Zu warm" (`too_warm`) or "Zu kalt" (`too_cold`), recorded with the room's
   * temperature, setpoint and trend at this instant (decision 0070). Taken while paused or closed
   * too: the occupant feels the room either way.
   * @throws 404 (see resolve).
   */
  async recordFeedback(token: string, feeling: OccupantFeeling): Promise<void> {
    const { companyId, unit } = await this.resolve(token);
    await this.feedback.record(companyId, unit, feeling);
  }
}
