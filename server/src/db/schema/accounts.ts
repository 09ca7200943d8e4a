/**
 * Users, companies (tenants) and memberships (spec §3 "User", "Company", "Team member").
 * A user's id is the OIDC `sub`; a membership carries the member's role in that company.
 * Notices tell a user what others did to their account while they were away.
 */
import {
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

export const users = pgTable('users', {
  id: text('id').primaryKey(),
  name: text('name').notNull().default(''),
  email: text('email').notNull().default(''),
  emailVerified: boolean('email_verified').notNull().default(false),
  lang: text('lang', { enum: ['de', 'en'] }),
  active: boolean('active').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  lastLogin: timestamp('last_login', { withTimezone: true }),
  /**
   * Access tokens issued before this instant (whole seconds, UTC) are refused: set when the
   * password is reset or changed, so a signed-out session's token stops working at once.
   */
  tokensValidFrom: timestamp('tokens_valid_from', { withTimezone: true }),
});

export const companies = pgTable('companies', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  timeZone: text('time_zone').notNull().default('Europe/Berlin'),
  /** Company temperature range in °C (spec §3); nothing may exceed it. */
  minTemperature: real('min_temperature').notNull().default(5),
  maxTemperature: real('max_temperature').notNull().default(28),
  /** °C a paused unit holds; inside the company range after clamping. */
  frostProtection: real('frost_protection').notNull().default(8),
  /** °C a closure in economy mode keeps (decision 0051). */
  economyTemperature: real('economy_temperature').notNull().default(16),
  /** °C a closure in standby mode keeps. */
  standbyTemperature: real('standby_temperature').notNull().default(18),
  /**
   * Optimum start and stop (decision 0056): `off`, `shadow` (learn and show, do not act — the
   * default, so a new installation learns before it acts) or `on`. Units may opt out.
   */
  optimumStart: text('optimum_start', { enum: ['off', 'shadow', 'on'] })
    .notNull()
    .default('shadow'),
  /** Longest pre-heat, minutes (15–360; default 3 h). */
  optimumMaxLeadMinutes: integer('optimum_max_lead_minutes').notNull().default(180),
  /**
   * Hours an occupant's change on the public page holds at most; null = until the next
   * switch point only.
   */
  occupantChangeMaxHours: integer('occupant_change_max_hours'),
  /**
   * °C an occupant may choose at most on the public page of a room without wall-control limits of
   * its own (decision 0066: a warm office is 20–22 °C, DIN EN 16798-1; 24 °C leaves room).
   */
  occupantMaxTemperature: real('occupant_max_temperature').notNull().default(24),
  /**
   * K an occupant may go above or below the setpoint the plan gives, in a room without
   * wall-control limits of its own; null = the whole range up to `occupantMaxTemperature`.
   */
  occupantBand: real('occupant_band').default(2),
  /**
   * Whether an invite names the role its member gets (spec §6 "The role choice can be switched
   * off"); when off, invites carry no role and new members get `defaultInviteRole`.
   */
  inviteRoleChoice: boolean('invite_role_choice').notNull().default(true),
  /** Role preselected in the invite form and given for invites without a role (spec §6 default heating). */
  defaultInviteRole: text('default_invite_role', { enum: ['admin', 'heating', 'ems'] })
    .notNull()
    .default('heating'),
  /**
   * Heat source of the company's buildings (spec §3 "energy media setting"), kept for energy
   * reporting; null until an admin chooses one. Values: `ENERGY_MEDIA` of the contracts.
   */
  energyMedia: text('energy_media', {
    enum: ['gas', 'oil', 'district_heating', 'heat_pump', 'electricity', 'wood_pellets', 'other'],
  }),
  /**
   * Billing address printed on invoices (§14 Abs. 4 Nr. 1 UStG); all null until an admin keeps
   * one (`PUT …/billing/address`). Country as ISO 3166-1 alpha-2; VAT ID optional.
   */
  /**
   * Who must sign in with a second factor (decision 0078): `none`, `admins` or `all` members.
   * Applies to accounts of the embedded provider only; an external issuer owns its sign-in.
   */
  secondFactorRequired: text('second_factor_required', { enum: ['none', 'admins', 'all'] })
    .notNull()
    .default('none'),
  /**
   * Days a browser may skip the code step after "trust this browser" (decision 0078): 0 (off,
   * the default) or 30. A member of several companies gets it only when all of them allow it.
   */
  rememberDeviceDays: integer('remember_device_days').notNull().default(0),
  billingName: text('billing_name'),
  billingStreet: text('billing_street'),
  billingPostcode: text('billing_postcode'),
  billingCity: text('billing_city'),
  billingCountry: text('billing_country'),
  billingVatId: text('billing_vat_id'),
  avvAcceptedVersion: integer('avv_accepted_version'),
  licenseAcceptedVersion: integer('license_accepted_version'),
  privacyAcceptedVersion: integer('privacy_accepted_version'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const memberships = pgTable(
  'memberships',
  {
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['admin', 'heating', 'ems'] })
      .notNull()
      .default('heating'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.userId] })],
);

/**
 * Something a user is told on their next visit until they dismiss it: `removed_from_company`
 * when another member removed them from a company (the company's name is kept here, as the
 * user can no longer read the company).
 */
export const userNotices = pgTable(
  'user_notices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['removed_from_company'] }).notNull(),
    companyName: text('company_name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('user_notices_user_idx').on(t.userId)],
);
