/**
 * `GET /api/public/auth-config` (ACCOUNT_API.md): where the SPA signs in. The same shape
 * describes the embedded provider and any external issuer, so the SPA needs no build-time
 * configuration.
 */
import { api } from '../../lib/api-client.ts';

export interface AuthConfig {
  /** OIDC issuer URL; discovery at `<issuer>/.well-known/openid-configuration`. */
  issuer: string;
  client_id: string;
  /** Audience the API expects in access tokens. */
  audience: string;
  /** Space-separated scopes, e.g. `openid profile email offline_access`. */
  scope: string;
  /** Resource indicator (RFC 8707) to request JWT access tokens for, when the issuer uses one. */
  resource?: string;
}

export const fetchAuthConfig = () => api.get<AuthConfig>('/public/auth-config', { authenticated: false });
