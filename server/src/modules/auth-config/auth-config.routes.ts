/**
 * `GET /api/public/auth-config`: public; tells the SPA which
 * issuer, client id, scopes and API audience to use, so the same build works with the embedded
 * provider and with an external issuer (OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_AUDIENCE).
 */
import type { ZodTypeProvider } from '@fastify/type-provider-zod';
import { type AuthConfigResponse, AuthConfigResponseSchema } from '@heizplan/contracts/auth-config';
import type { FastifyInstance } from 'fastify';
import { identityUrls, WEB_CLIENT_ID, WEB_SCOPE } from '../../auth/provider.ts';
import type { Config } from '../../config.ts';

/** External issuer when OIDC_ISSUER is set, else the embedded provider at `${PUBLIC_URL}/oidc`. */
export function authConfigFor(config: Config): AuthConfigResponse {
  const { issuer, clientId, audience } = config.oidc;
  if (issuer)
    return { issuer, client_id: clientId ?? '', audience, scope: WEB_SCOPE, public_url: config.publicUrl };
  const embedded = identityUrls(config);
  return {
    issuer: embedded.issuer,
    client_id: WEB_CLIENT_ID,
    audience,
    scope: WEB_SCOPE,
    resource: embedded.resource,
    public_url: config.publicUrl,
  };
}

export async function authConfigRoutes(app: FastifyInstance, { config }: { config: Config }) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/public/auth-config',
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        summary: 'Sign-in settings for the web app (issuer, client id, scopes, API audience)',
        security: [],
        response: { 200: AuthConfigResponseSchema },
      },
    },
    async () => authConfigFor(config),
  );
}
