/**
 * Creating units into a group that does not exist yet: the group field offers to create the
 * typed name, the group is created first and the units go into it — never silently into none.
 */
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testProfile } from '../../test/signed-in.ts';
import { heatingApi, testUnit } from '../../test/units-fixtures.ts';

const GROUP_ID = '00000000-0000-4000-9000-000000000003';

function open(lang: 'de' | 'en', more: FetchHandler) {
  const { session, fetchMock } = signIn({ profile: testProfile({ lang }), extra: heatingApi([], more) });
  renderRoutes(routes, '/units', { session });
  return fetchMock;
}

const posts = (fetchMock: ReturnType<typeof signIn>['fetchMock']) =>
  fetchMock.mock.calls
    .filter(([, init]) => init?.method === 'POST')
    .map(([u, init]) => [u, JSON.parse(String(init?.body))]);

describe('create units into a new group', { timeout: 20_000 }, () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.unstubAllGlobals());

  it('offers "Gruppe „Etage 3“ anlegen", creates the group first and then the units in it', async () => {
    await setLanguage('de');
    const fetchMock = open('de', (method, url, init) => {
      if (method === 'POST' && url === '/api/companies/c1/groups')
        return json(201, {
          id: GROUP_ID,
          name: JSON.parse(String(init.body)).name,
          unitCount: 0,
          groupPlansAvailable: true,
          blockingUnits: [],
          createdAt: '2026-11-01T10:00:00.000Z',
        });
      if (method === 'POST' && url === '/api/companies/c1/units/bulk')
        return json(201, { results: Array.from({ length: 10 }, () => testUnit({ groupId: GROUP_ID })) });
      return undefined;
    });
    await userEvent.click(await screen.findByTestId('create-units'));
    const group = await screen.findByTestId('create-units-group');
    await userEvent.type(group, 'Etage 3');
    const offer = screen.getByTestId('create-units-group-new');
    expect(offer).toHaveTextContent('Gruppe „Etage 3“ anlegen');
    await userEvent.click(offer);
    expect(group).toHaveValue('Etage 3 (neue Gruppe)');
    await userEvent.click(screen.getByTestId('create-units-submit'));
    expect(await screen.findByText('10 Räume angelegt')).toBeVisible();
    expect(posts(fetchMock)).toEqual([
      ['/api/companies/c1/groups', { name: 'Etage 3' }],
      ['/api/companies/c1/units/bulk', { pattern: 'Raum {n}', count: 10, start: 1, groupId: GROUP_ID }],
    ]);
  });

  it('creates no units when the group cannot be created, and says why under the group', async () => {
    await setLanguage('en');
    const fetchMock = open('en', (method, url) =>
      method === 'POST' && url === '/api/companies/c1/groups'
        ? json(409, {
            type: 'about:blank',
            title: 'Conflict',
            status: 409,
            detail: 'A group with this name already exists.',
            code: 'group_name_taken',
          })
        : undefined,
    );
    await userEvent.click(await screen.findByTestId('create-units'));
    await userEvent.type(await screen.findByTestId('create-units-group'), 'Etage 3');
    expect(screen.getByTestId('create-units-group-new')).toHaveTextContent('Create group “Etage 3”');
    await userEvent.keyboard('{Enter}');
    await userEvent.click(screen.getByTestId('create-units-submit'));
    expect(await screen.findByTestId('create-units-group-field-error')).toHaveTextContent(
      'A group with this name already exists.',
    );
    expect(posts(fetchMock).map(([u]) => u)).toEqual(['/api/companies/c1/groups']);
  });
});
