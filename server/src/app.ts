/**
 * Builds the Fastify application as a plugin-like unit (STYLE.md): tests call
 * `buildApp(...)` and `app.inject`, `main.ts` only reads config, listens and shuts down.
 * Serves `/api` (zod-validated, OpenAPI at `/api/docs`) and the built web app with SPA
 * fallback on the same port, so one URL is the whole product.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import middie from '@fastify/middie';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from '@fastify/type-provider-zod';
import Fastify, { type FastifyInstance } from 'fastify';
import { installBearerAuth, type TokenVerifier } from './auth/bearer.ts';
import { identityPageRoutes } from './auth/interaction.routes.ts';
import type { IdentityProvider } from './auth/provider.ts';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { installErrorHandler, sendProblem } from './http/errors.ts';
import type { BillingPolicy } from './modules/devices/billing-policy.ts';
import type { AccountPorts } from './modules/me/me.ports.ts';
import { registerModules } from './modules/register.ts';

export interface AppDeps {
  config: Config;
  database: Database;
  /** Verifies API bearer tokens; see auth/bearer.ts. */
  verifyToken: TokenVerifier;
  /** The embedded OIDC provider; absent when an external issuer (OIDC_ISSUER) is used. */
  identity?: IdentityProvider;
  /** Heating scheduler to wake after a unit or plan change (main.ts); absent in tests that tick by hand. */
  heatingScheduler?: { wake(): void };
  /** Mail, identity-account and billing ports of the account calls; unset ones use defaults. */
  accountPorts?: Partial<AccountPorts>;
  /** Whether a company's subscription is active (billing issue); default in modules/devices/billing-policy.ts. */
  billingPolicy?: BillingPolicy;
}

export type App = FastifyInstance;

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
}

export async function buildApp(deps: AppDeps): Promise<App> {
  const { trustProxy } = deps.config;
  const app = Fastify({
    logger:
      deps.config.logLevel === 'silent'
        ? false
        : {
            level: deps.config.logLevel,
            redact: ['req.headers.authorization', 'req.headers.cookie'],
            // Readable lines for a person at a terminal; JSON lines for log collectors.
            ...(process.stdout.isTTY && deps.config.env !== 'production'
              ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss' } } }
              : {}),
          },
    disableRequestLogging: deps.config.env === 'test',
    // A hop count trusts that many proxies in front (Fastify's typings lack the number form).
    trustProxy:
      typeof trustProxy === 'number' ? (_address: string, hop: number) => hop < trustProxy : trustProxy,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('deps', deps);
  installErrorHandler(app);

  await app.register(swagger, {
    openapi: {
      info: { title: 'Heizplan API', version: deps.config.version },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'list' } });

  installBearerAuth(app, deps.verifyToken, deps.database.db);
  await app.register(registerModules, { prefix: '/api' });

  if (deps.identity) {
    // oidc-provider is a Koa app: it answers /oidc/* itself before Fastify routing and body
    // parsing, so it runs as Connect-style middleware (STACK.md: @fastify/middie).
    await app.register(middie);
    app.use('/oidc', deps.identity.provider.callback());
    await app.register(identityPageRoutes, {
      identity: deps.identity,
      config: deps.config,
      db: deps.database.db,
    });
  }

  const webDist = deps.config.webDist;
  const hasWeb = existsSync(path.join(webDist, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, { root: webDist, wildcard: false, index: false });
  }
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    if (pathname === '/api' || pathname.startsWith('/api/') || request.method !== 'GET' || !hasWeb) {
      return sendProblem(reply, 404, 'Not Found', `No route for ${request.method} ${pathname}.`);
    }
    // The occupants' public page is an entry of its own (decision 0021); every other client-side
    // route (and the app's own 404 page) is rendered by the SPA.
    const page = pathname.startsWith('/heating-view/') ? 'heating-view.html' : 'index.html';
    return reply.type('text/html; charset=utf-8').sendFile(page);
  });
  return app;
}
