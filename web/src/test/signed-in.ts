/**
 * A signed-in browser for component tests of screens behind the auth gate and main guard:
 * a fresh API token, a session with a fake UserManager, and `fetch` answering the account
 * calls the guard makes (profile, agreement versions). Extra routes answer through `extra`.
 */
import type { LicenseCurrent, LicenseRecord, User } from '@heizplan/contracts/account';
import { vi } from 'vitest';
import { connectApiClient } from '../features/auth/auth-session.ts';
import { fakeManager, sessionWith, testUser } from '../features/auth/test-manager.ts';
import { storeToken } from '../lib/client-storage.ts';

export const testProfile = (over: Partial<User> = {}): User => ({
  id: 'u1',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  email_verified: true,
  lang: 'de',
  created_at: '2026-01-01T00:00:00Z',
  last_login: null,
  company_ids: ['c1'],
  ...over,
});

export const CURRENT_VERSIONS: LicenseCurrent = { avv_version: 1, license_version: 1, privacy_version: 1 };
export const ACCEPTED_VERSIONS: LicenseRecord = {
  avv_accepted_version: 1,
  license_accepted_version: 1,
  privacy_accepted_version: 1,
};

export type FetchHandler = (method: string, path: string, init: RequestInit) => Response | undefined;

export const json = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json' },
  });

export interface SignedInOptions {
  profile?: User;
  accepted?: LicenseRecord;
  extra?: FetchHandler;
}

/** Signs a fake user in and stubs `fetch`; returns the session and the fetch mock. */
export function signIn({
  profile = testProfile(),
  accepted = ACCEPTED_VERSIONS,
  extra,
}: SignedInOptions = {}) {
  storeToken('test-token', Date.now() / 1000 + 3600);
  const session = sessionWith(fakeManager(testUser()));
  connectApiClient(session);
  const fetchMock = vi.fn(async (input: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    const path = input.split('?')[0] ?? '';
    const answer = extra?.(method, input, init);
    if (answer) return answer;
    if (method === 'GET' && path === '/api/me/') return json(200, profile);
    if (method === 'GET' && path === '/api/licenses/current') return json(200, CURRENT_VERSIONS);
    if (method === 'GET' && path.startsWith('/api/licenses/')) return json(200, accepted);
    return json(404, {
      type: 'about:blank',
      title: 'Not Found',
      status: 404,
      detail: `No stub for ${method} ${input}`,
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { session, fetchMock };
}
