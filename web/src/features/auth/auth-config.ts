/**
 * `GET /api/public/auth-config` (ACCOUNT_API.md): where the SPA signs in. The same shape
 * describes the embedded provider and any external issuer, so the SPA needs no build-time
 * configuration.
 */
import type { AuthConfigResponse } from '@heizplan/contracts/auth-config';
import { api } from '../../lib/api-client.ts';

/** Wire shape from `@heizplan/contracts/auth-config`. */
export type AuthConfig = AuthConfigResponse;

export const fetchAuthConfig = () => api.get<AuthConfig>('/public/auth-config', { authenticated: false });
