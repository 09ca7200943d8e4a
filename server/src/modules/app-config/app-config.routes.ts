/**
 * `GET /api/public/app-config`: public; the parts of the server's configuration the web app
 * needs: the support contact of settings → help and where to report browser errors (Sentry's
 * DSN, read at run time so one build serves every deployment). Nothing secret goes here.
 */
import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import { type AppConfigResponse, AppConfigResponseSchema } from '@heizplan/contracts/app-config';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';

/** The public view of `config`. */
export function appConfigFor(config: Config): AppConfigResponse {
  return {
    version: config.version,
    support: { email: config.support.email ?? null, url: config.support.url ?? null },
    error_reporting: {
      sentry_dsn: config.sentry.dsn ?? null,
      environment: config.env,
      release: `heizplan@${config.version}`,
    },
  };
}

export async function appConfigRoutes(app: FastifyInstance, { config }: { config: Config }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/public/app-config',
    {
      config: { public: true },
      schema: {
        tags: ['app'],
        summary: "The web app's public settings (support contact, error reporting)",
        security: [],
        response: { 200: AppConfigResponseSchema },
      },
    },
    async () => appConfigFor(config),
  );
}
