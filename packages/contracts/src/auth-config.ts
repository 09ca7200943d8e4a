/**
 * Response of `GET /api/public/auth-config`: what the SPA's oidc-client-ts needs to
 * sign in, identical in shape for the embedded provider and an external issuer.
 */
import { z } from 'zod';

export const AuthConfigResponseSchema = z.object({
  /** OIDC issuer; discovery at `${issuer}/.well-known/openid-configuration`. */
  issuer: z.url(),
  /** The SPA's public client id at that issuer. */
  client_id: z.string(),
  /** Audience the API requires in access tokens. */
  audience: z.string(),
  /** Space-separated scopes to request. */
  scope: z.string(),
  /** Resource indicator (RFC 8707) of the API; optional because the embedded issuer defaults to it. */
  resource: z.url().optional(),
  /**
   * PUBLIC_URL: the address the sign-in's redirects are registered for. Opened under another
   * origin (127.0.0.1 instead of localhost) the sign-in cannot complete, so the app says so.
   */
  public_url: z.url().optional(),
});
export type AuthConfigResponse = z.infer<typeof AuthConfigResponseSchema>;
