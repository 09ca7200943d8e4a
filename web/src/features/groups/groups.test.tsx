/**
 * Groups screen (spec §2 "Groups"): while units have their own active plan, no new group plan —
 * the screen names those units, the group plans still running the others and why; the
 * server's 409 reason shown; units to add are searched on the server (one beyond the first page
 * found by typing, the group's own members not offered).
 */
import type { Group } from '@heizplan/contracts/heating';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testCompany, testProfile } from '../../test/signed-in.ts';
import { testUnit, unitSearchApi, unitSearches } from '../../test/units-fixtures.ts';

const member = testUnit({ name: 'Raum 3', groupName: 'Nordflügel' });
const group = (over: Partial<Group> = {}): Group => ({
  id: '00000000-0000-4000-9000-000000000001',
  name: 'Nordflügel',
  unitCount: 1,
  groupPlansAvailable: true,
  blockingUnits: [],
  occupantMaxTemperature: null,
  occupantBand: null,
  createdAt: '2026-11-01T10:00:00.000Z',
  ...over,
});

const winter = {
  id: '00000000-0000-4000-a000-000000000001',
  unitId: null,
  groupId: '00000000-0000-4000-9000-000000000001',
  name: 'Winter',
  kind: 'seasonal',
  active: true,
  validFrom: '10-01',
  validTo: '04-30',
  dates: null,
  switchPoints: [{ day: 1, hour: 6, minute: 0, temperature: 21, ignoreWallControl: false }],
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
};

function open(g: Group, more?: FetchHandler, plans: unknown[] = []) {
  const api: FetchHandler = (method, url, init) => {
    const answer = more?.(method, url, init);
    if (answer) return answer;
    const path = url.split('?')[0];
    if (method === 'GET' && path === '/api/companies/c1/') return json(200, testCompany());
    if (method === 'GET' && path === '/api/companies/c1/groups')
      return json(200, { results: [g], count: 1, page: 1, size: 10 });
    if (method === 'GET' && path === `/api/companies/c1/groups/${g.id}`) return json(200, g);
    if (method === 'GET' && path === `/api/companies/c1/groups/${g.id}/plans`)
      return json(200, { results: plans });
    if (method === 'GET' && path === '/api/companies/c1/units') {
      return json(200, { results: [{ ...member, groupId: g.id }], count: 1, page: 1, size: 10 });
    }
    return undefined;
  };
  const { session, fetchMock } = signIn({ profile: testProfile({ lang: 'en' }), extra: api });
  return { ...renderRoutes(routes, `/groups?group=${g.id}`, { session }), fetchMock };
}

describe('groups screen', { timeout: 20_000 }, () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('en');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('names the units with their own plan, says the active group plan still runs the others, and why nothing can be added', async () => {
    const blocked = group({
      groupPlansAvailable: false,
      unitCount: 4,
      blockingUnits: [
        { id: member.id, name: 'Raum 3' },
        { id: '00000000-0000-4000-8000-0000000000f1', name: 'Raum 4' },
      ],
    });
    open(blocked, undefined, [winter]);
    await waitFor(() =>
      expect(screen.getByTestId('plans-disabled-reason')).toHaveTextContent(
        'These units have their own active plan, which applies to them instead of the group plans: Raum 3, Raum 4. ' +
          'The active group plan “Winter” still applies to the other units of the group. ' +
          'No new group plan can be added while a unit of the group has its own active plan',
      ),
    );
    expect(screen.getByTestId('plans-disabled-reason').textContent).not.toContain('unavailable');
    // The table does not call the running group plans unavailable either.
    expect(screen.getByTestId('groups-table')).toHaveTextContent('no new ones: 2 units have their own plans');
    expect(screen.getByTestId('plan-new-seasonal')).toBeDisabled();
    expect(screen.getByTestId('plan-new-specific-days')).toBeDisabled();
    expect(await screen.findByTestId(`group-member-${member.id}`)).toHaveTextContent('Raum 3');
  });

  it('finds a unit to add beyond the first page by typing, naming its other group and not offering members', async () => {
    const g = group();
    // 70 rooms: one search page (50) does not hold them all.
    const rooms = Array.from({ length: 70 }, (_, i) =>
      testUnit({ name: `Zimmer ${String(i + 1).padStart(2, '0')}` }),
    );
    rooms[0] = { ...rooms[0]!, groupId: g.id, groupName: g.name };
    rooms[68] = { ...rooms[68]!, groupId: '00000000-0000-4000-9000-000000000002', groupName: 'Süd' };
    const far = rooms[68]!;
    const search = unitSearchApi(rooms);
    const { fetchMock } = open(g, (method, url, init) => {
      if (method === 'POST' && url === `/api/companies/c1/groups/${g.id}/units`) return json(200, g);
      return url.includes('groupId=') ? undefined : search(method, url, init);
    });
    const picker = await screen.findByRole('combobox', { name: 'Add units' });
    await userEvent.click(picker);
    const list = await screen.findByRole('listbox', { name: 'Add units' });
    await within(list).findByRole('option', { name: 'Zimmer 02' });
    expect(within(list).queryByRole('option', { name: /Zimmer 01/ })).toBeNull();
    await userEvent.type(picker, 'Zimmer 69');
    await userEvent.click(await screen.findByRole('option', { name: 'Zimmer 69 (Süd)' }));
    expect(unitSearches(fetchMock)).toContain('Zimmer 69');
    await userEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByText('1 unit added')).toBeInTheDocument();
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ unitIds: [far.id] });
  });

  it("shows the server's reason when it refuses a group plan with 409", async () => {
    const reason =
      "While a unit of the group has its own active plan (Raum 3), no group plan can be added or saved as active; the active group plans keep applying to the other units. Deactivate or delete those units' own plans first.";
    const g = group();
    const { fetchMock } = open(g, (method, url) =>
      method === 'POST' && url === `/api/companies/c1/groups/${g.id}/plans`
        ? json(409, {
            type: 'about:blank',
            title: 'Conflict',
            status: 409,
            detail: reason,
            code: 'group_plans_unavailable',
            params: { units: 'Raum 3' },
          })
        : undefined,
    );
    await userEvent.click(await screen.findByTestId('plan-new-seasonal'));
    await userEvent.click(screen.getByTestId('plan-save'));
    expect(await screen.findByTestId('plan-error')).toHaveTextContent(reason);
    // The draft was previewed on the group's first unit as a group plan.
    const previews = fetchMock.mock.calls.filter(
      ([u]) => u === `/api/companies/c1/units/${member.id}/preview`,
    );
    expect(JSON.parse(String(previews.at(-1)?.[1]?.body)).scope).toBe('group');
  });

  it('says that a group needs a name instead of a button that stays grey without a reason', async () => {
    const g = group();
    const { fetchMock } = open(g);
    const rename = await screen.findByRole('textbox', { name: 'Name' });
    await userEvent.clear(rename);
    await userEvent.click(screen.getByRole('button', { name: 'Rename' }));
    expect(await screen.findByText('Please fill in this field.')).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Create group' }));
    expect(await screen.findAllByText('Please fill in this field.')).toHaveLength(2);
    expect(
      fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST' || init?.method === 'PATCH'),
    ).toHaveLength(0);
  });

  it('deletes a group only after confirming in a dialog', async () => {
    const g = group();
    const { fetchMock } = open(g, (method, url) =>
      method === 'DELETE' && url === `/api/companies/c1/groups/${g.id}` ? json(204) : undefined,
    );
    await userEvent.click(await screen.findByTestId('group-delete'));
    expect(screen.getByTestId('group-delete-dialog')).toHaveTextContent('Delete group Nordflügel?');
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'DELETE')).toHaveLength(0);
    await userEvent.click(screen.getByTestId('group-delete-confirm'));
    expect(await screen.findByText('Group deleted')).toBeVisible();
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'DELETE')).toHaveLength(1);
  });
  it("sets the occupants' limits of the group's rooms, and sends empty as the building's", async () => {
    const g = group();
    const { fetchMock } = open(g, (method, url) =>
      method === 'PATCH' && url === `/api/companies/c1/groups/${g.id}`
        ? json(200, { ...g, occupantMaxTemperature: 23 })
        : undefined,
    );
    const card = await screen.findByTestId('group-occupants-card');
    expect(card).toHaveTextContent("Leave empty for the values of a room's building, else the company's");
    await userEvent.type(within(card).getByRole('textbox', { name: 'Highest temperature (°C)' }), '23');
    await userEvent.click(within(card).getByRole('button', { name: 'Save limits' }));
    expect(await screen.findByText('Occupant limits saved')).toBeInTheDocument();
    const patches = fetchMock.mock.calls.filter(
      ([u, init]) => u === `/api/companies/c1/groups/${g.id}` && (init as RequestInit)?.method === 'PATCH',
    );
    expect(patches).toHaveLength(1);
    expect(JSON.parse(String((patches[0]?.[1] as RequestInit | undefined)?.body))).toEqual({
      occupantMaxTemperature: 23,
      occupantBand: null,
    });
  });
});
