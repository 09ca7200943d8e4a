/** Builds the collaborators of the heating services (units, groups, plans) from the app. */
import type { FastifyInstance } from 'fastify';
import type { HeatingServiceDeps } from './units.service.ts';

export function heatingServiceDeps(app: FastifyInstance): HeatingServiceDeps {
  return {
    db: app.deps.database.db,
    now: () => new Date(),
    wake: () => app.deps.heatingScheduler?.wake(),
  };
}
