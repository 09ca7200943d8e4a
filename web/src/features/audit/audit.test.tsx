/**
 * Settings → audit log (decision 0059): admins read who changed what, in German, filter by area
 * through the server and download the CSV; other roles get no tab and no log.
 */
import type { AuditEntry } from '@heizplan/contracts/audit';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testCompany, testProfile } from '../../test/signed-in.ts';

const byToken: AuditEntry = {
  id: 2,
  at: '2026-11-26T09:30:00.000Z',
  actor: { id: 'apitoken:00000000-0000-4000-a000-0000000000e1', name: 'Leitsystem', kind: 'token' },
  method: 'POST',
  route: '/api/companies/{companyId}/devices',
  resource: 'devices',
  resourceId: null,
  fields: { id: '70b3d52dd3000042', appKey: '•••' },
  previous: null,
  status: 201,
};
const byMember: AuditEntry = {
  id: 1,
  at: '2026-11-26T08:00:00.000Z',
  actor: { id: 'u2', name: 'Grace Hopper', kind: 'member' },
  method: 'PATCH',
  route: '/api/companies/{companyId}/units/{unitId}',
  resource: 'units',
  resourceId: '00000000-0000-4000-a000-000000000077',
  fields: { name: 'Klasse 5b', wallControlMax: 23 },
  previous: { name: 'Klasse 5a', wallControlMax: 23 },
  status: 200,
};

const setpoint: AuditEntry = {
  ...byMember,
  id: 3,
  at: '2026-11-26T10:00:00.000Z',
  method: 'POST',
  route: '/api/companies/{companyId}/units/{unitId}/setpoint',
  fields: { setpoint: 22 },
  previous: null,
};

function open(role: 'admin' | 'ems' = 'admin', lang: 'de' | 'en' = 'de') {
  const api: FetchHandler = (method, url) => {
    const [path, search = ''] = url.split('?');
    if (method === 'GET' && path === '/api/companies/c1/') return json(200, testCompany({ role }));
    if (method === 'GET' && path === '/api/companies/c1/audit-log/export')
      return new Response('at,actor\n', { status: 200, headers: { 'content-type': 'text/csv' } });
    if (method === 'GET' && path === '/api/companies/c1/audit-log') {
      const resource = new URLSearchParams(search).get('resource');
      const results = [setpoint, byToken, byMember].filter((e) => !resource || e.resource === resource);
      return json(200, { results, count: results.length, page: 1, size: 20 });
    }
    return undefined;
  };
  const { session, fetchMock } = signIn({ profile: testProfile({ lang }), extra: api });
  return { ...renderRoutes(routes, '/settings/audit', { session }), fetchMock };
}

describe('settings audit log', { timeout: 20_000 }, () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('de');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('shows who changed what and when in German words, a token marked as such, secrets masked', async () => {
    open();
    const table = await screen.findByTestId('audit-log');
    expect(await within(table).findByText('Leitsystem')).toBeInTheDocument();
    expect(within(table).getByText('API-Zugang')).toBeInTheDocument();
    expect(within(table).getByText('26.11.2026, 10:30')).toBeInTheDocument();
    expect(screen.getByTestId('audit-what-2')).toHaveTextContent(/^Geräte · angelegt$/);
    expect(screen.getByTestId('audit-what-1')).toHaveTextContent(/^Räume · geändert$/);
    expect(screen.getByTestId('audit-what-3')).toHaveTextContent(/^Räume · Solltemperatur gesetzt$/);
    expect(screen.getByTestId('audit-fields-2')).toHaveTextContent(
      'Kennung: „70b3d52dd3000042“ · AppKey: „•••“',
    );
    // The value it replaced where the log knows it, and only where it changed.
    expect(screen.getByTestId('audit-fields-1')).toHaveTextContent(
      /^Name: von „Klasse 5a“ auf „Klasse 5b“ · .+: 23,0 °C$/,
    );
    expect(screen.getByTestId('audit-fields-3')).toHaveTextContent('Solltemperatur: 22,0 °C');
    expect(screen.getByTestId('settings-tab-audit')).toHaveTextContent('Protokoll');
  });

  it('filters by area through the server and downloads the CSV of that filter', async () => {
    const { fetchMock } = open();
    await screen.findByText('Leitsystem');
    await userEvent.selectOptions(screen.getByTestId('audit-filter'), 'units');
    await waitFor(() => expect(screen.queryByText('Leitsystem')).toBeNull());
    expect(screen.getAllByText('Grace Hopper')).toHaveLength(2);
    expect(
      fetchMock.mock.calls.some(([url]) => String(url).includes('/audit-log?page=1&size=20&resource=units')),
    ).toBe(true);
    const createObjectURL = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:audit');
    vi.spyOn(URL, 'revokeObjectURL').mockReturnValue(undefined);
    await userEvent.click(screen.getByTestId('audit-export'));
    await waitFor(() => expect(createObjectURL).toHaveBeenCalled());
    expect(
      fetchMock.mock.calls.some(([url]) => String(url).includes('/audit-log/export?resource=units')),
    ).toBe(true);
  });

  it('says it in English: the action, the field and its value', async () => {
    await setLanguage('en');
    open('admin', 'en');
    await screen.findByText('Leitsystem');
    expect(screen.getByTestId('audit-what-3')).toHaveTextContent(/^Rooms · setpoint set$/);
    expect(screen.getByTestId('audit-fields-3')).toHaveTextContent('Setpoint: 22.0 °C');
    expect(screen.getByTestId('audit-fields-1')).toHaveTextContent(
      /^Name: from “Klasse 5a” to “Klasse 5b” · /,
    );
  });

  it('shows a member who may not manage no tab and no log (English)', async () => {
    await setLanguage('en');
    const { fetchMock } = open('ems', 'en');
    expect(await screen.findByTestId('audit-forbidden')).toHaveTextContent(
      'Only administrators see the audit log.',
    );
    expect(screen.queryByTestId('settings-tab-audit')).toBeNull();
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/audit-log'))).toBe(false);
  });
});
