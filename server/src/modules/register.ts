/**
 * The list of feature modules mounted under `/api`. Each feature adds one line here; its
 * routes live in `modules/<feature>/<feature>.routes.ts`.
 */
import type { FastifyInstance } from 'fastify';
import { healthRoutes } from './health/health.routes.ts';

export async function registerModules(app: FastifyInstance) {
  await app.register(healthRoutes);
}
