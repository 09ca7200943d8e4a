// biome-ignore-all lint/nursery/noMisusedPromises: Fastify awaits async plugins; the rule reads register's callback overload.
/**
 * The list of feature modules mounted under `/api`. Each feature adds one line here; its
 * routes live in `modules/<feature>/<feature>.routes.ts`.
 */
import type { FastifyInstance } from 'fastify';
import { alertsRoutes } from './alerts/alerts.routes.ts';
import { appConfigRoutes } from './app-config/app-config.routes.ts';
import { authConfigRoutes } from './auth-config/auth-config.routes.ts';
import { billingRoutes } from './billing/billing.routes.ts';
import { clientErrorRoutes } from './client-errors/client-errors.routes.ts';
import { companiesRoutes } from './companies/companies.routes.ts';
import { devicesRoutes } from './devices/devices.routes.ts';
import { eventsRoutes } from './events/events.routes.ts';
import { gatewaysRoutes } from './gateways/gateways.routes.ts';
import { groupsRoutes } from './groups/groups.routes.ts';
import { healthRoutes } from './health/health.routes.ts';
import { heatingLogRoutes } from './heating-log/heating-log.routes.ts';
import { invitesRoutes } from './invites/invites.routes.ts';
import { licensesRoutes } from './licenses/licenses.routes.ts';
import { meRoutes } from './me/me.routes.ts';
import { plansRoutes } from './plans/plans.routes.ts';
import { publicHeatingViewRoutes } from './public-heating-view/public-heating-view.routes.ts';
import { qrCodesRoutes } from './qr-codes/qr-codes.routes.ts';
import { unitSeriesRoutes } from './unit-series/unit-series.routes.ts';
import { unitsRoutes } from './units/units.routes.ts';

export async function registerModules(app: FastifyInstance) {
  await app.register(healthRoutes);
  await app.register(authConfigRoutes);
  await app.register(appConfigRoutes);
  await app.register(clientErrorRoutes);
  await app.register(meRoutes);
  await app.register(companiesRoutes);
  await app.register(licensesRoutes);
  await app.register(invitesRoutes);
  await app.register(unitsRoutes);
  await app.register(groupsRoutes);
  await app.register(plansRoutes);
  await app.register(heatingLogRoutes);
  await app.register(devicesRoutes);
  await app.register(gatewaysRoutes);
  await app.register(eventsRoutes);
  await app.register(qrCodesRoutes);
  await app.register(publicHeatingViewRoutes);
  await app.register(unitSeriesRoutes);
  await app.register(billingRoutes);
  await app.register(alertsRoutes);
}
