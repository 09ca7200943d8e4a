// biome-ignore-all lint/nursery/noMisusedPromises: Fastify awaits async plugins; the rule reads register's callback overload.
/**
 * The list of feature modules mounted under `/api`. Each feature adds one line here, handing
 * its routes (`modules/<feature>/<feature>.routes.ts`) the services and settings they use.
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { JobsStatus, LorawanStatus } from '../ports.ts';
import type { Services } from '../services.ts';
import { agreementsRoutes } from './agreements/agreements.routes.ts';
import { alertsRoutes } from './alerts/alerts.routes.ts';
import { apiTokensRoutes } from './api-tokens/api-tokens.routes.ts';
import { appConfigRoutes } from './app-config/app-config.routes.ts';
import { auditRoutes } from './audit/audit.routes.ts';
import { authConfigRoutes } from './auth-config/auth-config.routes.ts';
import { billingRoutes } from './billing/billing.routes.ts';
import { bookingFeedsRoutes } from './booking-feeds/booking-feeds.routes.ts';
import { buildingsRoutes } from './buildings/buildings.routes.ts';
import { calendarLayersRoutes } from './calendar-layers/calendar-layers.routes.ts';
import { clientErrorRoutes } from './client-errors/client-errors.routes.ts';
import { closuresRoutes } from './closures/closures.routes.ts';
import { companiesRoutes } from './companies/companies.routes.ts';
import { deviceCommandsRoutes } from './device-commands/device-commands.routes.ts';
import { deviceProfilesRoutes } from './device-profiles/device-profiles.routes.ts';
import { devicesRoutes } from './devices/devices.routes.ts';
import { eventsRoutes } from './events/events.routes.ts';
import { gatewaysRoutes } from './gateways/gateways.routes.ts';
import { gettingStartedRoutes } from './getting-started/getting-started.routes.ts';
import { groupsRoutes } from './groups/groups.routes.ts';
import { healthRoutes } from './health/health.routes.ts';
import { heatingCircuitsRoutes } from './heating-circuits/heating-circuits.routes.ts';
import { heatingLogRoutes } from './heating-log/heating-log.routes.ts';
import { importsRoutes } from './imports/imports.routes.ts';
import { invitesRoutes } from './invites/invites.routes.ts';
import { meRoutes } from './me/me.routes.ts';
import { occupantFeedbackRoutes } from './occupant-feedback/occupant-feedback.routes.ts';
import { plansRoutes } from './plans/plans.routes.ts';
import { publicHeatingViewRoutes } from './public-heating-view/public-heating-view.routes.ts';
import { qrCodesRoutes } from './qr-codes/qr-codes.routes.ts';
import { reportsRoutes } from './reports/reports.routes.ts';
import { unitSeriesRoutes } from './unit-series/unit-series.routes.ts';
import { unitsRoutes } from './units/units.routes.ts';
import { warmUpRoutes } from './warm-up/warm-up.routes.ts';

export interface ModulesOptions {
  config: Config;
  database: Database;
  services: Services;
  lorawanStatus?: LorawanStatus | undefined;
  jobs?: JobsStatus | undefined;
}

export async function registerModules(app: FastifyInstance, options: ModulesOptions) {
  const { config, database, services: s, lorawanStatus, jobs } = options;
  await app.register(healthRoutes, { database, version: config.version, lorawanStatus, jobs });
  await app.register(authConfigRoutes, { config });
  await app.register(appConfigRoutes, { config });
  await app.register(clientErrorRoutes);
  await app.register(meRoutes, { me: s.me });
  await app.register(companiesRoutes, { companies: s.companies });
  await app.register(agreementsRoutes, { agreements: s.agreements });
  await app.register(invitesRoutes, { invites: s.invites });
  await app.register(unitsRoutes, { units: s.units, db: database.db });
  await app.register(groupsRoutes, { groups: s.groups });
  await app.register(plansRoutes, { plans: s.plans, previews: s.previews });
  await app.register(heatingLogRoutes, { heatingLog: s.heatingLog });
  await app.register(devicesRoutes, { devices: s.devices });
  await app.register(importsRoutes, { imports: s.imports });
  await app.register(gatewaysRoutes, { gateways: s.gateways });
  await app.register(heatingCircuitsRoutes, { heatingCircuits: s.heatingCircuits });
  await app.register(gettingStartedRoutes, { gettingStarted: s.gettingStarted });
  await app.register(eventsRoutes, { events: s.events });
  await app.register(closuresRoutes, { closures: s.closures });
  await app.register(buildingsRoutes, { buildings: s.buildings, buildingDays: s.buildingDays });
  await app.register(bookingFeedsRoutes, { bookingFeeds: s.bookingFeeds, now: s.now });
  await app.register(calendarLayersRoutes, { calendarLayers: s.calendarLayers });
  await app.register(qrCodesRoutes, { qrCodes: s.qrCodes });
  await app.register(publicHeatingViewRoutes, {
    publicHeatingView: s.publicHeatingView,
    config,
    db: database.db,
  });
  await app.register(occupantFeedbackRoutes, { occupantFeedback: s.occupantFeedback });
  await app.register(unitSeriesRoutes, { unitSeries: s.unitSeries });
  await app.register(warmUpRoutes, { warmUp: s.warmUp });
  await app.register(billingRoutes, { billing: s.billing, config });
  await app.register(alertsRoutes, { alerts: s.alerts });
  await app.register(apiTokensRoutes, { apiTokens: s.apiTokens });
  await app.register(deviceProfilesRoutes, { deviceProfiles: s.deviceProfiles });
  await app.register(deviceCommandsRoutes, { deviceCommands: s.deviceCommands });
  await app.register(auditRoutes, { audit: s.audit });
  await app.register(reportsRoutes, { reports: s.reports });
}
