/**
 * Settings → API access (decision 0058): admins list tokens, create one (shown once, with the
 * form's rules checked before sending) and revoke one after a confirmation; other roles get no tab.
 */
import type { ApiToken } from '@heizplan/contracts/api-tokens';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { fixedClock } from '../../test/clock.ts';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testCompany, testProfile } from '../../test/signed-in.ts';

/** The screens' clock: a token is active until its expiry lies before it. */
const NOW = new Date('2026-11-26T12:00:00Z');

const ems: ApiToken = {
  id: '00000000-0000-4000-a000-0000000000e1',
  name: 'Energiemanagement',
  prefix: 'hp_x7Kq2m',
  role: 'ems',
  buildingIds: null,
  expiresAt: '2027-02-24T10:00:00.000Z',
  lastUsedAt: '2026-11-26T08:15:00.000Z',
  revokedAt: null,
  createdAt: '2026-11-26T10:00:00.000Z',
  createdBy: { id: 'u1', name: 'Ada Lovelace' },
};
const old: ApiToken = {
  ...ems,
  id: '00000000-0000-4000-a000-0000000000e2',
  name: 'Altsystem',
  prefix: 'hp_Ab12Cd',
  lastUsedAt: null,
  revokedAt: '2026-11-20T10:00:00.000Z',
};

function open(role: 'admin' | 'heating' | 'ems' = 'admin', lang: 'de' | 'en' = 'de') {
  let tokens = [ems, old];
  const api: FetchHandler = (method, url, init) => {
    const path = url.split('?')[0];
    if (method === 'GET' && path === '/api/companies/c1/') return json(200, testCompany({ role }));
    if (method === 'GET' && path === '/api/companies/c1/api-tokens') return json(200, { results: tokens });
    if (method === 'POST' && path === '/api/companies/c1/api-tokens') {
      const body = JSON.parse(String(init.body));
      const created = {
        ...ems,
        id: '00000000-0000-4000-a000-0000000000e3',
        name: body.name,
        role: body.role,
      };
      tokens = [...tokens, created];
      return json(201, { ...created, token: 'hp_x7Kq2mSECRETsecretSECRETsecretSECRETsecret12' });
    }
    if (method === 'POST' && path === `/api/companies/c1/api-tokens/${ems.id}/revoke`) {
      tokens = tokens.map((t) => (t.id === ems.id ? { ...t, revokedAt: '2026-11-26T11:00:00.000Z' } : t));
      return json(200, tokens[0]);
    }
    return undefined;
  };
  const { session, fetchMock } = signIn({ profile: testProfile({ lang }), extra: api });
  return { ...renderRoutes(routes, '/settings/api', { session, clock: fixedClock(NOW) }), fetchMock };
}

const posts = (fetchMock: ReturnType<typeof vi.fn>, path: string) =>
  fetchMock.mock.calls
    .filter(([url, init]) => String(url).split('?')[0] === path && (init as RequestInit)?.method === 'POST')
    .map(([, init]) => JSON.parse(String((init as RequestInit).body ?? 'null')));

describe('settings API access', { timeout: 20_000 }, () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('de');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('lists the tokens in German with role, expiry, last use and state', async () => {
    open();
    const table = await screen.findByTestId('api-tokens');
    expect(await within(table).findByText('Energiemanagement')).toBeInTheDocument();
    expect(within(table).getByText('hp_x7Kq2m…')).toBeInTheDocument();
    // In the role column, and under the name for phones.
    expect(within(table).getAllByText('Nur lesen')).toHaveLength(4);
    expect(within(table).getAllByText('24.02.2027')).toHaveLength(2);
    expect(within(table).getByText('26.11.2026, 09:15')).toBeInTheDocument();
    expect(within(table).getByText('noch nie')).toBeInTheDocument();
    expect(screen.getByTestId(`api-token-state-${ems.id}`)).toHaveTextContent('aktiv');
    expect(screen.getByTestId(`api-token-state-${old.id}`)).toHaveTextContent('widerrufen');
    // Only an active token can be revoked.
    expect(screen.getByTestId(`api-token-revoke-${ems.id}`)).toBeInTheDocument();
    expect(screen.queryByTestId(`api-token-revoke-${old.id}`)).toBeNull();
    expect(screen.getByTestId('settings-tab-api')).toHaveTextContent('API-Zugänge');
  });

  it('refuses an empty name and a lifetime over 366 days before sending, then shows the token once', async () => {
    const { fetchMock } = open();
    await userEvent.click(await screen.findByTestId('api-token-new'));
    const dialog = await screen.findByTestId('api-token-dialog');
    const days = within(dialog).getByTestId('api-token-days');
    await userEvent.clear(days);
    await userEvent.type(days, '400');
    await userEvent.click(within(dialog).getByTestId('api-token-submit'));
    expect(await screen.findByTestId('api-token-name-field-error')).toHaveTextContent(
      'Bitte geben Sie einen Namen an.',
    );
    expect(await screen.findByTestId('api-token-days-field-error')).toHaveTextContent(
      'Die Gültigkeit beträgt 1 bis 366 Tage.',
    );
    expect(posts(fetchMock, '/api/companies/c1/api-tokens')).toHaveLength(0);

    await userEvent.type(within(dialog).getByTestId('api-token-name'), 'Leitsystem');
    await userEvent.clear(days);
    await userEvent.type(days, '30');
    await userEvent.selectOptions(within(dialog).getByTestId('api-token-role'), 'heating');
    expect(within(dialog).getByTestId('api-token-role-field')).toHaveTextContent('darf die Heizung steuern');
    await userEvent.click(within(dialog).getByTestId('api-token-submit'));
    expect(await screen.findByTestId('api-token-secret-value')).toHaveTextContent(
      'hp_x7Kq2mSECRETsecretSECRETsecretSECRETsecret12',
    );
    expect(screen.getByTestId('api-token-created')).toHaveTextContent('nur dieses eine Mal angezeigt');
    expect(posts(fetchMock, '/api/companies/c1/api-tokens')).toEqual([
      { name: 'Leitsystem', role: 'heating', expiresInDays: 30, buildingIds: [] },
    ]);
    await userEvent.click(screen.getByTestId('api-token-done'));
    await waitFor(() => expect(screen.queryByTestId('api-token-secret-value')).toBeNull());
    // Opened again, the dialog starts empty: the token is gone from the screen.
    await userEvent.click(screen.getByTestId('api-token-new'));
    expect(await screen.findByTestId('api-token-name')).toHaveValue('');
  });

  it('revokes a token after a confirmation', async () => {
    const { fetchMock } = open();
    await userEvent.click(await screen.findByTestId(`api-token-revoke-${ems.id}`));
    const confirm = await screen.findByTestId('api-token-revoke-dialog');
    expect(confirm).toHaveTextContent('ab sofort abgewiesen');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Widerrufen' }));
    expect(await screen.findByTestId('toast-api-token-revoked')).toHaveTextContent('API-Zugang widerrufen');
    await waitFor(() =>
      expect(screen.getByTestId(`api-token-state-${ems.id}`)).toHaveTextContent('widerrufen'),
    );
    expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith(`/api-tokens/${ems.id}/revoke`))).toBe(
      true,
    );
  });

  it('shows members who may not manage no tab and, opened directly, no controls (English)', async () => {
    await setLanguage('en');
    open('heating', 'en');
    expect(await screen.findByTestId('api-tokens-forbidden')).toHaveTextContent(
      'Only administrators manage API tokens.',
    );
    expect(screen.queryByTestId('settings-tab-api')).toBeNull();
    expect(screen.queryByTestId('api-token-new')).toBeNull();
  });
});
