/**
 * Optimum start and stop (decision 0056): each unit's learned warm-up model, the sessions it was
 * fitted from and the mornings it was judged by. One row per unit, written by the learning job;
 * the scheduler reads it to move plan steps earlier. Temperatures °C, rates K/h, minutes, UTC.
 */
import { boolean, index, jsonb, pgTable, real, timestamp, uuid } from 'drizzle-orm/pg-core';
import { companies } from './accounts.ts';
import { units } from './heating.ts';

/** A warm-up session as stored (`WarmUpSession` of `heating/engine/warm-up.ts`, `start` as ISO UTC). */
export interface StoredWarmUpSession {
  start: string;
  lift: number;
  outdoor: number | null;
  deadtimeMinutes: number;
  rate: number;
  durationMinutes: number;
}

/** One plan comfort start: whether the room was within 0.5 K of comfort at the switch point. */
export interface StoredMorning {
  /** The switch point, ISO UTC. */
  at: string;
  comfort: number;
  /** °C at the switch point; null when no reading was near it. */
  room: number | null;
  hit: boolean;
}

export const unitWarmUpModels = pgTable(
  'unit_warm_up_models',
  {
    unitId: uuid('unit_id')
      .primaryKey()
      .references(() => units.id, { onDelete: 'cascade' }),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    deadtimeMinutes: real('deadtime_minutes').notNull(),
    rateAt0: real('rate_at0').notNull(),
    ratePerOutdoorK: real('rate_per_outdoor_k').notNull(),
    coolRate: real('cool_rate'),
    /** Median comfort hold after a switch-off, minutes (decision 0056); null until one was seen. */
    comfortHoldMinutes: real('comfort_hold_minutes'),
    confidence: real('confidence').notNull(),
    learned: boolean('learned').notNull(),
    /** The last ≤ 10 valid sessions, oldest first. */
    sessions: jsonb('sessions').$type<StoredWarmUpSession[]>().notNull(),
    /** Cool-down rates (K/h) of the last ≤ 10 step-downs. */
    coolDowns: jsonb('cool_downs').$type<number[]>().notNull(),
    /** Comfort holds (minutes) of the last ≤ 10 step-downs, oldest first. */
    comfortHolds: jsonb('comfort_holds').$type<number[]>().notNull().default([]),
    /** Comfort starts of the last 30 days, oldest first. */
    mornings: jsonb('mornings').$type<StoredMorning[]>().notNull(),
    /** History up to this instant has been read; the next run starts here. */
    learnedThrough: timestamp('learned_through', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('unit_warm_up_models_company_idx').on(t.companyId)],
);
