/**
 * The whole Drizzle schema, one file per aggregate under ./schema/. drizzle-kit reads the
 * folder; the client imports this list so relational queries know every table.
 */
export * from './schema/accounts.ts';
export * from './schema/alerts.ts';
export * from './schema/api-tokens.ts';
export * from './schema/audit.ts';
export * from './schema/billing.ts';
export * from './schema/booking-feeds.ts';
export * from './schema/buildings.ts';
export * from './schema/closures.ts';
export * from './schema/cluster.ts';
export * from './schema/device-profiles.ts';
export * from './schema/devices.ts';
export * from './schema/events.ts';
export * from './schema/heating.ts';
export * from './schema/heating-circuits.ts';
export * from './schema/identity.ts';
export * from './schema/imports.ts';
export * from './schema/invites.ts';
export * from './schema/occupant-feedback.ts';
export * from './schema/optimum.ts';
export * from './schema/qr-codes.ts';
export * from './schema/reports.ts';
export * from './schema/telemetry.ts';
