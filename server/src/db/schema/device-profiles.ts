/**
 * Device profiles (decision 0062): the configuration a fleet manager wants on the valves of one
 * model — keep-alive, open-window detection, child lock, temperature range, temperature offset —
 * and where it applies. An assignment names the company (all of it), a building, a group or a
 * unit; for a device the most specific assignment of a profile of its model wins. What the
 * device last reported of its configuration is kept on the device row (`devices.reported_config`).
 */

import type { DeviceConfig } from '@heizplan/contracts/device-profiles';
import { sql } from 'drizzle-orm';
import { check, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { companies } from './accounts.ts';
import { buildings } from './buildings.ts';
import { groups, units } from './heating.ts';

export const deviceProfiles = pgTable(
  'device_profiles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Codec model id the profile is for (lorawan/codecs/registry.ts). */
    model: text('model').notNull(),
    config: jsonb('config').$type<DeviceConfig>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('device_profiles_company_name_key').on(t.companyId, sql`lower(${t.name})`)],
);

export const deviceProfileAssignments = pgTable(
  'device_profile_assignments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    profileId: uuid('profile_id')
      .notNull()
      .references(() => deviceProfiles.id, { onDelete: 'cascade' }),
    /** The profile's model, so one assignment per model and place can be enforced. */
    model: text('model').notNull(),
    /** At most one of the three is set; none = the company's default for the model. */
    buildingId: uuid('building_id').references(() => buildings.id, { onDelete: 'cascade' }),
    groupId: uuid('group_id').references(() => groups.id, { onDelete: 'cascade' }),
    unitId: uuid('unit_id').references(() => units.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('device_profile_assignments_place_key').on(
      t.companyId,
      t.model,
      sql`coalesce(${t.buildingId}, ${t.groupId}, ${t.unitId}, '00000000-0000-0000-0000-000000000000'::uuid)`,
    ),
    index('device_profile_assignments_profile_idx').on(t.profileId),
    check(
      'device_profile_assignments_one_place',
      sql`num_nonnulls(${t.buildingId}, ${t.groupId}, ${t.unitId}) <= 1`,
    ),
  ],
);
