/**
 * The list of feature modules mounted under `/api`. Each feature adds one line here; its
 * routes live in `modules/<feature>/<feature>.routes.ts`.
 */
import type { FastifyInstance } from 'fastify';
import { companiesRoutes } from './companies/companies.routes.ts';
import { healthRoutes } from './health/health.routes.ts';
import { invitesRoutes } from './invites/invites.routes.ts';
import { licensesRoutes } from './licenses/licenses.routes.ts';
import { meRoutes } from './me/me.routes.ts';

export async function registerModules(app: FastifyInstance) {
  await app.register(healthRoutes);
  await app.register(meRoutes);
  await app.register(companiesRoutes);
  await app.register(licensesRoutes);
  await app.register(invitesRoutes);
}
