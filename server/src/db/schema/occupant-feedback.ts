/**
 * Occupants' feedback on a room (decision 0070): each press of "Zu warm" / "Zu kalt" on the public
 * room page, with the room as it was then — its temperature and setpoint (°C) and its trend over
 * the hour before (K/h, null with fewer than two readings). Instants UTC. Company data like any
 * other: deleted with the company or the room (cascade).
 */
import { OCCUPANT_FEELINGS } from '@heizplan/contracts/occupant-feedback';
import { index, pgTable, real, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { companies } from './accounts.ts';
import { units } from './heating.ts';

export const occupantFeedback = pgTable(
  'occupant_feedback',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    unitId: uuid('unit_id')
      .notNull()
      .references(() => units.id, { onDelete: 'cascade' }),
    /** When it was pressed (the service's clock, UTC). */
    at: timestamp('at', { withTimezone: true }).notNull(),
    feeling: text('feeling', { enum: OCCUPANT_FEELINGS }).notNull(),
    roomTemperature: real('room_temperature'),
    setpoint: real('setpoint'),
    /** K/h over the hour before `at`; null with fewer than two readings in it. */
    trend: real('trend'),
  },
  (t) => [
    index('occupant_feedback_unit_at_idx').on(t.unitId, t.at),
    index('occupant_feedback_company_at_idx').on(t.companyId, t.at),
  ],
);
