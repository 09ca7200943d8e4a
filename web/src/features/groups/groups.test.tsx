/** Groups screen (spec §2 "Groups"): group plans disabled with the reason, and the server's 409 reason shown. */
import type { Group } from '@heizplan/contracts/heating';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testCompany, testProfile } from '../../test/signed-in.ts';
import { testUnit } from '../../test/units-fixtures.ts';

const member = testUnit({ name: 'Raum 3', groupName: 'Nordflügel' });
const group = (over: Partial<Group> = {}): Group => ({
  id: '00000000-0000-4000-9000-000000000001',
  name: 'Nordflügel',
  unitCount: 1,
  groupPlansAvailable: true,
  blockingUnits: [],
  createdAt: '2026-11-01T10:00:00.000Z',
  ...over,
});

function open(g: Group, more?: FetchHandler) {
  const api: FetchHandler = (method, url, init) => {
    const answer = more?.(method, url, init);
    if (answer) return answer;
    const path = url.split('?')[0];
    if (method === 'GET' && path === '/api/companies/c1/') return json(200, testCompany());
    if (method === 'GET' && path === '/api/companies/c1/groups')
      return json(200, { results: [g], count: 1, page: 1, size: 10 });
    if (method === 'GET' && path === `/api/companies/c1/groups/${g.id}`) return json(200, g);
    if (method === 'GET' && path === `/api/companies/c1/groups/${g.id}/plans`)
      return json(200, { results: [] });
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

  it('disables group plans and names the units with their own active plan', async () => {
    open(group({ groupPlansAvailable: false, blockingUnits: [{ id: member.id, name: 'Raum 3' }] }));
    expect(await screen.findByTestId('plans-disabled-reason')).toHaveTextContent(
      'Group plans are unavailable while a unit of the group has its own active plan: Raum 3.',
    );
    expect(screen.getByTestId('plan-new-seasonal')).toBeDisabled();
    expect(screen.getByTestId('plan-new-specific-days')).toBeDisabled();
    expect(await screen.findByTestId(`group-member-${member.id}`)).toHaveTextContent('Raum 3');
  });

  it("shows the server's reason when it refuses a group plan with 409", async () => {
    const reason =
      'Group plans are unavailable while a unit of the group has its own active plan (Raum 3). Deactivate or delete those plans first.';
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
});
