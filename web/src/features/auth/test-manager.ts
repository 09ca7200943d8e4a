/** A fake oidc-client-ts UserManager for tests of the session and the auth gate. */
import { User } from 'oidc-client-ts';
import { vi } from 'vitest';
import { AuthSession, type AuthSessionOptions, type OidcManager } from './auth-session.ts';

export function testUser(over: { refresh_token?: string; returnTo?: string; expiresInS?: number } = {}) {
  return new User({
    access_token: 'access-1',
    id_token: 'id-1',
    token_type: 'Bearer',
    refresh_token: over.refresh_token,
    profile: { sub: 'u1', iss: 'https://issuer.test', aud: 'web', exp: 0, iat: 0 },
    expires_at: Math.floor(Date.now() / 1000) + (over.expiresInS ?? 3600),
    userState: over.returnTo ? { returnTo: over.returnTo } : undefined,
  });
}

export function fakeManager(stored: User | null = null) {
  return {
    signinRedirect: vi.fn(async () => {}),
    signinCallback: vi.fn(async () => testUser() as User | undefined),
    signinSilent: vi.fn(async () => testUser() as User | null),
    getUser: vi.fn(async () => stored),
    removeUser: vi.fn(async () => {}),
    signoutRedirect: vi.fn(async () => {}),
  } satisfies OidcManager;
}

export function sessionWith(manager: OidcManager, options: AuthSessionOptions = {}) {
  return new AuthSession({
    loadConfig: async () => ({
      issuer: 'https://issuer.test',
      client_id: 'web',
      audience: 'api',
      scope: 'openid',
    }),
    createManager: () => manager,
    ...options,
  });
}
