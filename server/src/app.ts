/**
 * Builds the Fastify application from what the composition root made (main.ts; tests through
 * server/test/helpers.ts): config, database, logger and the services of services.ts, which the
 * route plugins receive as options. Nothing is added to the app's dependencies after this.
 * Serves `/api` (zod-validated, OpenAPI at `/api/docs`) and the built web app with SPA
 * fallback on the same port, so one URL is the whole product (compressed and cached by
 * http/static-web.ts).
 */

import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import middie from '@fastify/middie';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from '@fastify/type-provider-zod';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { installBearerAuth, type TokenVerifier } from './auth/bearer.ts';
import { identityPageRoutes } from './auth/interaction.routes.ts';
import type { IdentityProvider } from './auth/provider.ts';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { createErrorReporter } from './http/error-reporting.ts';
import {
  clientErrorHandler,
  frameworkErrors,
  installClosingAnswer,
  installErrorHandler,
  sendProblem,
} from './http/errors.ts';
import { installInputGuard } from './http/input-guard.ts';
import { installMetrics } from './http/metrics.routes.ts';
import { installSecurityHeaders } from './http/security-headers.ts';
import { installStaticWeb } from './http/static-web.ts';
import type { Logger } from './logger.ts';
import { installAuditRecorder } from './modules/audit/audit-recorder.ts';
import { legalRoutes } from './modules/legal/legal.routes.ts';
import { registerModules } from './modules/register.ts';
import type { JobsStatus, LorawanStatus } from './ports.ts';
import type { Services } from './services.ts';

export interface AppDeps {
  config: Config;
  database: Database;
  /** The process's logger (logger.ts); Fastify's request lines go through it too. */
  log: Logger;
  /** Every service, built once by `createServices` (services.ts). */
  services: Services;
  /** Verifies API bearer tokens; see auth/bearer.ts. */
  verifyToken: TokenVerifier;
  /** The embedded OIDC provider; absent when an external issuer (OIDC_ISSUER) is used. */
  identity?: IdentityProvider | undefined;
  /** The LoRaWAN side, for readiness and metrics; absent in an app without one. */
  lorawanStatus?: LorawanStatus | undefined;
  /** The background jobs, for readiness; absent in an app that runs none. */
  jobs?: JobsStatus | undefined;
}

export type App = FastifyInstance;

declare module 'fastify' {
  interface FastifyInstance {
    /** What the app was built from: frozen, and without a setter. */
    readonly deps: Readonly<AppDeps>;
  }
}

/**
 * The request id in every log line of a request (`reqId`) and in its `X-Request-Id` answer: the
 * load balancer's `X-Request-Id` when it sent a plausible one (so its log and ours match), else a
 * UUID — Fastify's default counter starts at 1 in every instance and would repeat across them.
 */
function requestId(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID();
}

export async function buildApp(appDeps: AppDeps): Promise<App> {
  const deps: Readonly<AppDeps> = Object.freeze({ ...appDeps });
  const { trustProxy } = deps.config;
  const app = Fastify({
    loggerInstance: deps.log,
    // Probes and scrapes arrive every few seconds; a line each would bury the requests that matter.
    logController: new LogController({
      disableRequestLogging: (request) =>
        deps.config.env === 'test' || request.url === '/metrics' || request.url.startsWith('/api/health'),
    }),
    genReqId: requestId,
    // Errors raised before routing or by Node's HTTP parser answer problem+json too.
    frameworkErrors,
    clientErrorHandler,
    return503OnClosing: false,
    // A hop count trusts that many proxies in front (Fastify's typings lack the number form).
    trustProxy:
      typeof trustProxy === 'number' ? (_address: string, hop: number) => hop < trustProxy : trustProxy,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('deps', {
    getter: () => deps,
  });
  const errorReporter = await createErrorReporter(deps.config);
  app.addHook('onClose', () => errorReporter.close());
  installErrorHandler(app, errorReporter);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  installMetrics(app, {
    db: deps.database.db,
    metricsToken: deps.config.metricsToken,
    lorawanStatus: deps.lorawanStatus,
  });
  installInputGuard(app);
  // First of the plugins: its onRequest hook must run before /oidc's middleware answers.
  installSecurityHeaders(app, deps.config);
  installClosingAnswer(app);

  await app.register(swagger, {
    openapi: {
      info: { title: 'Heizplan API', version: deps.config.version },
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description:
              "A sign-in's access token (JWT), or a company API token `hp_…` (Settings → API access; " +
              "its role, its own company's endpoints only, expiring, revocable, rate-limited per token).",
          },
        },
      },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'list' } });

  installBearerAuth(app, deps.verifyToken, deps.database.db, {
    perMinute: deps.config.apiTokenRateLimit,
    shared: deps.config.instances > 1,
    now: deps.services.now,
  });
  installAuditRecorder(app, deps.database.db);
  // biome-ignore lint/nursery/noMisusedPromises: Fastify awaits async plugins; the rule reads register's callback overload.
  await app.register(registerModules, {
    prefix: '/api',
    config: deps.config,
    database: deps.database,
    services: deps.services,
    lorawanStatus: deps.lorawanStatus,
    jobs: deps.jobs,
  });

  if (deps.identity) {
    // oidc-provider is a Koa app: it answers /oidc/* itself before Fastify routing and body
    // parsing, so it runs as Connect-style middleware (@fastify/middie).
    await app.register(middie);
    app.use('/oidc', deps.identity.provider.callback());
    // biome-ignore lint/nursery/noMisusedPromises: Fastify awaits async plugins; the rule reads register's callback overload.
    await app.register(identityPageRoutes, {
      identity: deps.identity,
      config: deps.config,
      db: deps.database.db,
      now: deps.services.now,
    });
  }

  // The Impressum and the agreements, with the operator from the configuration.
  // biome-ignore lint/nursery/noMisusedPromises: Fastify awaits async plugins; the rule reads register's callback overload.
  await app.register(legalRoutes, { config: deps.config });

  const webDist = deps.config.webDist;
  const hasWeb = existsSync(path.join(webDist, 'index.html'));
  if (hasWeb) await installStaticWeb(app, webDist);
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    if (pathname === '/api' || pathname.startsWith('/api/') || request.method !== 'GET' || !hasWeb) {
      // Fixed text: echoing the path would reflect the request into the answer.
      return sendProblem(reply, 404, 'Not Found', 'There is no route for this method and path.');
    }
    // The occupants' public page is an entry of its own (decision 0021); every other client-side
    // route (and the app's own 404 page) is rendered by the SPA.
    const page = pathname.startsWith('/heating-view/') ? 'heating-view.html' : 'index.html';
    return reply.type('text/html; charset=utf-8').sendFile(page);
  });
  return app;
}
