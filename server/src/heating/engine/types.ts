/**
 * Shapes of the pure heating engine (agreed in).
 * All temperatures are °C; all instants are UTC `Date`s; plan times are local wall-clock times
 * in the company's IANA zone. Semantics: docs/architecture.md and docs/decisions.
 */

import type { LogKind } from '@heizplan/contracts/heating';

/**
 * Heating log kinds, also the `source` of a resolved setpoint: defined in the contracts alone
 * (`LOG_KINDS`), so a new source is named once for the engine, the database and the web app.
 */
export type { LogKind };

/** One switch point of a plan: from this local time on, the plan asks for `temperature`. */
export interface SwitchPoint {
  /** ISO weekday 1 = Monday … 7 = Sunday; ignored for specific_days (use 1). */
  day: number;
  /** 0–23, local time in the company's zone. */
  hour: number;
  /** 0–59. */
  minute: number;
  /** °C. */
  temperature: number;
  ignoreWallControl: boolean;
}

export interface HeatingPlan {
  id: string;
  kind: 'seasonal' | 'specific_days';
  active: boolean;
  /** seasonal: 'MM-DD', recurring every year, inclusive. */
  validFrom?: string;
  /** seasonal: 'MM-DD', inclusive; validTo < validFrom crosses New Year. */
  validTo?: string;
  /** specific_days: 'YYYY-MM-DD' local dates. */
  dates?: string[];
  switchPoints: SwitchPoint[];
}

/** One-time event. `end === null` is open-ended. */
export interface HeatingEvent {
  id: string;
  start: Date;
  end: Date | null;
  /** °C. */
  temperature: number;
  /** While running, plan switch points are ignored. */
  preventRegular: boolean;
}

/** Manual setpoint change from the units screen (`web_change`) or the public QR page (`qr_change`). */
export interface ManualChange {
  kind: 'web_change' | 'qr_change';
  at: Date;
  /** °C. */
  temperature: number;
  /** Optional end; the change also ends at the next switch point, whichever comes first. */
  until?: Date | null;
}

/**
 * A closure covering this unit (decision 0051), with its heating mode already turned into a
 * setpoint: the caller leaves out closures the unit is an exception of.
 */
export interface HeatingClosure {
  id: string;
  start: Date;
  /** Exclusive. */
  end: Date;
  /** °C of the closure's heating mode; clamped to the range like every result. */
  temperature: number;
}

/**
 * A room booking of this unit (decision 0053). The caller leaves out bookings of stale feeds and
 * those a feed rule ignores, and moves `start` earlier by the feed's pre-heat lead.
 */
export interface HeatingBooking {
  id: string;
  /** When heating for the booking begins (the booking's start minus the pre-heat lead). */
  start: Date;
  /** The booking's own start; optimum start replaces the feed's fixed lead by the learned one (decision 0056). */
  bookedStart?: Date;
  /** Exclusive: the booking's end. */
  end: Date;
  /** °C; null for the highest switch point of the plan governing the local day the booking ends on. */
  temperature: number | null;
}

/**
 * A plan switch point moved earlier by optimum start or stop (decision 0056), computed by the
 * caller from the unit's learned warm-up model (`optimum.ts`). While `start ≤ t < end` the plan's
 * setpoint is replaced by `temperature`: an `optimum_start` shift only raises it, an
 * `optimum_stop` shift only lowers it. Everything that outranks the plan still outranks it.
 */
export interface PlanShift {
  kind: 'optimum_start' | 'optimum_stop';
  start: Date;
  /** Exclusive: the switch point the shift moves earlier. */
  end: Date;
  /** °C of that switch point. */
  temperature: number;
  /** Of that switch point. */
  ignoreWallControl: boolean;
  planId?: string;
}

export interface UnitHeatingInput {
  /** IANA, e.g. 'Europe/Berlin'. */
  timeZone: string;
  /** Company range °C; every result is clamped to it. */
  range: { min: number; max: number };
  /** °C held while paused (default 8). */
  frostProtection: number;
  ownPlans: HeatingPlan[];
  /** Used only when no own plan covers the date. */
  groupPlans: HeatingPlan[];
  /** One-time events covering this unit. */
  events: HeatingEvent[];
  /** The latest one at or before t matters. */
  manualChanges: ManualChange[];
  pause: { since: Date; resumedAt?: Date | null } | null;
  /** Closures covering this unit; while one runs it outranks everything but a pause. */
  closures?: HeatingClosure[];
  /** Bookings of this unit; while one runs it raises the plan's setpoint to its own. */
  bookings?: HeatingBooking[];
  /**
   * Local dates 'YYYY-MM-DD' whose seasonal plans use their Sunday switch points (public holidays
   * treated "like a Sunday", decision 0052).
   */
  sundayDates?: string[];
  /** Switch points moved earlier by optimum start and stop; see `PlanShift`. */
  planShifts?: PlanShift[];
}

export interface SetpointResolution {
  /** °C, clamped to range. */
  setpoint: number;
  source: LogKind;
  /** When this setpoint came into force. */
  since: Date;
  ignoreWallControl: boolean;
  /** Next instant the resolution may change (null = never). */
  nextChangeAt: Date | null;
  eventId?: string;
  planId?: string;
  closureId?: string;
  bookingId?: string;
}

export interface SetpointChange {
  at: Date;
  /** °C, clamped to range. */
  setpoint: number;
  source: LogKind;
  ignoreWallControl: boolean;
  eventId?: string;
  planId?: string;
  closureId?: string;
  bookingId?: string;
}

export interface PlanIssue {
  field: string;
  code: 'invalid_schedule' | 'invalid_time' | 'out_of_range' | 'below_range';
  message: string;
  /** The company range (°C) of a temperature outside it, so the message can name the limit. */
  params?: { min: number; max: number };
}
