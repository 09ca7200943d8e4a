/**
 * A signed-in browser for component tests of screens behind the auth gate and main guard:
 * a fresh API token, a session with a fake UserManager, and `fetch` answering the account
 * calls the guard and the shell make (profile, agreement versions, the company with the member's
 * role, the list of companies). Extra routes answer through `extra`, which is asked first.
 */
import type { Company, LicenseCurrent, LicenseRecord, Role, User } from '@heizplan/contracts/account';
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
  notices: [],
  second_factor_required: false,
  ...over,
});

/** The company `c1` the test profile belongs to, as `GET /api/companies/c1/` answers it. */
export const testCompany = (over: Partial<Company> = {}): Company => ({
  id: 'c1',
  name: 'Stadtwerke',
  conf: { avv_accepted: true, license_accepted: true, privacy_accepted: true },
  min_temperature: 5,
  max_temperature: 28,
  time_zone: 'Europe/Berlin',
  occupant_change_max_hours: null,
  occupant_max_temperature: 24,
  occupant_band: 2,
  invite_role_choice: true,
  default_invite_role: 'heating',
  energy_media: null,
  frost_protection: 8,
  economy_temperature: 16,
  standby_temperature: 18,
  optimum_start: 'shadow',
  optimum_max_lead_minutes: 180,
  second_factor_required: 'none',
  remember_device_days: 0,
  role: 'admin',
  ...over,
});

export const CURRENT_VERSIONS: LicenseCurrent = { avv_version: 1, license_version: 1, privacy_version: 1 };
export const ACCEPTED_VERSIONS: LicenseRecord = {
  avv_accepted_version: 1,
  license_accepted_version: 1,
  privacy_accepted_version: 1,
};

/** Answers a stubbed call, or undefined to leave it to the next handler; a promise answers later. */
export type FetchHandler = (
  method: string,
  path: string,
  init: RequestInit,
) => Response | Promise<Response> | undefined;

export const json = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json' },
  });

export interface SignedInOptions {
  profile?: User;
  accepted?: LicenseRecord;
  /** The member's role in company `c1` (default admin), unless `extra` answers for the company. */
  role?: Role;
  extra?: FetchHandler;
}

/** Signs a fake user in and stubs `fetch`; returns the session and the fetch mock. */
export function signIn({
  profile = testProfile(),
  accepted = ACCEPTED_VERSIONS,
  role = 'admin',
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
    if (method === 'GET' && path === '/api/companies/c1/') return json(200, testCompany({ role }));
    if (method === 'GET' && path === '/api/companies/') {
      return json(200, { results: [{ id: 'c1', name: 'Stadtwerke' }], count: 1, page: 1, size: 1 });
    }
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
