/** Units screen (spec §2, §9): deviation warning, ±0.5 °C clamped to the company range, pause, create many. */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { fixedClock } from '../../test/clock.ts';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testProfile } from '../../test/signed-in.ts';
import { heatingApi, testUnit } from '../../test/units-fixtures.ts';
import { steppedSetpoint } from './setpoint.ts';

/** The screens' clock: the deviation warning counts the minutes since the switch point up to it. */
const NOW = new Date('2026-11-24T09:00:00Z');

function open(path: string, api: FetchHandler) {
  const { session, fetchMock } = signIn({ profile: testProfile({ lang: 'en' }), extra: api });
  return { ...renderRoutes(routes, path, { session, clock: fixedClock(NOW) }), fetchMock };
}

const bodiesOf = (fetchMock: ReturnType<typeof signIn>['fetchMock'], method: string, url: string) =>
  fetchMock.mock.calls
    .filter(([u, init]) => init?.method === method && u === url)
    .map(([, init]) => (init?.body ? JSON.parse(String(init.body)) : undefined));

describe('steppedSetpoint', () => {
  const range = { min: 5, max: 28 };
  it('steps by 0.5 °C and stops at the company range', () => {
    expect(steppedSetpoint(21, 1, range)).toBe(21.5);
    expect(steppedSetpoint(21, -1, range)).toBe(20.5);
    expect(steppedSetpoint(27.8, 1, range)).toBe(28);
    expect(steppedSetpoint(28, 1, range)).toBeNull();
    expect(steppedSetpoint(5, -1, range)).toBeNull();
    expect(steppedSetpoint(null, 1, range)).toBeNull();
  });
});

// Whole-screen renders are slow on the shared 2-core machine; nothing here waits on time but the tooltip delay.
describe('units screen', { timeout: 20_000 }, () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('en');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('warns with a tooltip when the room is more than 2 °C away from the setpoint, not at exactly 2 °C', async () => {
    const cold = testUnit({ name: 'Cold', setpoint: 21, roomTemperature: 18.5 });
    const edge = testUnit({ name: 'Edge', setpoint: 21, roomTemperature: 19 });
    open('/units', heatingApi([cold, edge]));
    await screen.findByText('Cold');
    expect(screen.queryByTestId(`deviation-warning-${edge.id}`)).toBeNull();
    const warning = screen.getByTestId(`deviation-warning-${cold.id}`);
    expect(warning).toHaveAccessibleName('Warning: deviation from the target temperature');
    await userEvent.hover(warning);
    expect(await screen.findByRole('tooltip', {}, { timeout: 2000 })).toHaveTextContent(
      'The room temperature is more than 2 °C away from the target temperature.',
    );
  });

  it('changes the setpoint by 0.5 °C, clamped to the company maximum, and disables + at the limit', async () => {
    const warm = testUnit({ name: 'Warm', setpoint: 27.8 });
    const hot = testUnit({ name: 'Hot', setpoint: 28 });
    const setpoint: FetchHandler = (method, url, init) =>
      method === 'POST' && url.endsWith('/setpoint')
        ? json(200, { ...warm, setpoint: JSON.parse(String(init.body)).setpoint })
        : undefined;
    const { fetchMock } = open('/units', heatingApi([warm, hot], setpoint));
    await screen.findByText('Warm');
    expect(screen.getByTestId(`unit-raise-${hot.id}`)).toBeDisabled();
    await userEvent.click(screen.getByTestId(`unit-raise-${warm.id}`));
    // Sent once the presses pause.
    await waitFor(() =>
      expect(bodiesOf(fetchMock, 'POST', `/api/companies/c1/units/${warm.id}/setpoint`)).toEqual([
        { setpoint: 28 },
      ]),
    );
    await userEvent.click(screen.getByTestId(`unit-lower-${hot.id}`));
    await waitFor(() =>
      expect(bodiesOf(fetchMock, 'POST', `/api/companies/c1/units/${hot.id}/setpoint`)).toEqual([
        { setpoint: 27.5 },
      ]),
    );
  });

  // 12 quick presses raised the setpoint by 5.0 °C instead of 6.0.
  // How many requests go out is the pause's business, on fake timers (lib/use-pending-target.test.tsx):
  // on a loaded core one click can outlast the pause, and the screen must still end at the sum.
  it('ends at the value of twelve quick presses, shown at once, the last request the absolute target', async () => {
    const room = testUnit({ name: 'Quick', setpoint: 20 });
    // The list answers what was saved last, as the server does after a request went out mid-way.
    const units = [room];
    const setpoint: FetchHandler = (method, url, init) => {
      if (method !== 'POST' || !url.endsWith('/setpoint')) return undefined;
      units[0] = { ...room, setpoint: JSON.parse(String(init.body)).setpoint };
      return json(200, units[0]);
    };
    const { fetchMock } = open('/units', heatingApi(units, setpoint));
    const raise = await screen.findByTestId(`unit-raise-${room.id}`);
    for (let i = 0; i < 12; i++) await userEvent.click(raise);
    expect(screen.getByTestId(`unit-setpoint-${room.id}`)).toHaveTextContent('26.0 °C');
    // Said to a screen reader too, which does not see the row change (WCAG 4.1.3).
    await waitFor(() =>
      expect(screen.getByTestId('route-announcer')).toHaveTextContent(
        'Quick: 26.0 °C, being sent to the valves',
      ),
    );
    await waitFor(() =>
      expect(bodiesOf(fetchMock, 'POST', `/api/companies/c1/units/${room.id}/setpoint`).at(-1)).toEqual({
        setpoint: 26,
      }),
    );
    expect(screen.getByTestId(`unit-setpoint-${room.id}`)).toHaveTextContent('26.0 °C');
  });

  // 8 °C without a plan is frost protection, not a "regular plan".
  it('marks a unit without any plan as frost protection', async () => {
    const bare = testUnit({ name: 'Bare', setpoint: 8, setpointSource: 'no_plan' });
    const planned = testUnit({ name: 'Planned', setpoint: 21, setpointSource: 'regular_plan' });
    open('/units', heatingApi([bare, planned]));
    await screen.findByText('Bare');
    expect(screen.getByTestId(`unit-no-plan-${bare.id}`)).toHaveTextContent('No plan');
    expect(screen.getByTestId(`unit-no-plan-${bare.id}`)).toHaveAccessibleDescription(
      'No plan covers today: the room is kept at frost protection.',
    );
    expect(screen.queryByTestId(`unit-no-plan-${planned.id}`)).toBeNull();
  });

  it('pauses a unit, and a paused unit offers resume with − and + disabled', async () => {
    const running = testUnit({ name: 'Running' });
    const paused = testUnit({ name: 'Sleeping', paused: true, setpoint: 8 });
    const pause: FetchHandler = (method, url) =>
      method === 'POST' && url.endsWith('/pause') ? json(200, { ...running, paused: true }) : undefined;
    const { fetchMock } = open('/units', heatingApi([running, paused], pause));
    await screen.findByText('Running');
    const row = within(screen.getByTestId(`units-table-row-${paused.id}`));
    expect(row.getByTestId(`unit-raise-${paused.id}`)).toBeDisabled();
    expect(row.getByTestId(`unit-lower-${paused.id}`)).toBeDisabled();
    expect(row.getByRole('button', { name: 'Resume Sleeping' })).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Pause Running' }));
    expect(bodiesOf(fetchMock, 'POST', `/api/companies/c1/units/${running.id}/pause`)).toHaveLength(1);
    await waitFor(() =>
      expect(screen.getByTestId('route-announcer')).toHaveTextContent(
        'Running paused: holds frost protection',
      ),
    );
  });

  it('disables − and + while a closure holds a unit: a manual change could not take effect', async () => {
    const closed = testUnit({ name: 'Closed', setpoint: 8, setpointSource: 'closure' });
    const planned = testUnit({ name: 'Open', setpoint: 21, setpointSource: 'regular_plan' });
    open('/units', heatingApi([closed, planned]));
    await screen.findByText('Closed');
    expect(screen.getByTestId(`unit-raise-${closed.id}`)).toBeDisabled();
    expect(screen.getByTestId(`unit-lower-${closed.id}`)).toBeDisabled();
    expect(screen.getByTestId(`unit-raise-${planned.id}`)).toBeEnabled();
  });

  it('creates 20 units from a pattern and says so', async () => {
    const created: FetchHandler = (method, url) =>
      method === 'POST' && url === '/api/companies/c1/units/bulk'
        ? json(201, { results: Array.from({ length: 20 }, () => testUnit()) })
        : undefined;
    const { fetchMock } = open('/units', heatingApi([], created));
    expect(await screen.findByTestId('units-empty')).toHaveTextContent('No units yet');
    await userEvent.click(screen.getByTestId('create-units'));
    // The form is fetched as the dialog opens.
    const count = await screen.findByTestId('create-units-count');
    await userEvent.clear(count);
    await userEvent.type(count, '20');
    await userEvent.click(screen.getByTestId('create-units-submit'));
    expect(await screen.findByText('20 units created')).toBeVisible();
    expect(bodiesOf(fetchMock, 'POST', '/api/companies/c1/units/bulk')).toEqual([
      { pattern: 'Room {n}', count: 20, start: 1, groupId: null },
    ]);
  });

  // Above 500 the button was disabled without a word.
  it('says why more than 500 units cannot be created at once', async () => {
    open('/units', heatingApi([]));
    await userEvent.click(await screen.findByTestId('create-units'));
    const count = await screen.findByTestId('create-units-count');
    await userEvent.clear(count);
    await userEvent.type(count, '501');
    expect(screen.getByTestId('create-units-submit')).toBeDisabled();
    expect(await screen.findByTestId('create-units-count-field-error')).toHaveTextContent(
      'At most 500 units can be created at once.',
    );
    await userEvent.clear(count);
    await userEvent.type(count, '500');
    expect(screen.queryByTestId('create-units-count-field-error')).toBeNull();
    expect(screen.getByTestId('create-units-submit')).toBeEnabled();
  });

  it('shows under the name that the company already has a unit of that name', async () => {
    const refuse: FetchHandler = (method, url) =>
      method === 'POST' && url === '/api/companies/c1/units'
        ? json(409, {
            type: 'about:blank',
            title: 'Conflict',
            status: 409,
            detail: 'A unit named "Aula" already exists in this company.',
            code: 'unit_name_taken',
            params: { name: 'Aula' },
            errors: [{ field: 'name', message: 'x', code: 'unit_name_taken', params: { name: 'Aula' } }],
          })
        : undefined;
    open('/units', heatingApi([], refuse));
    await userEvent.click(await screen.findByTestId('create-units'));
    await userEvent.selectOptions(await screen.findByTestId('create-units-mode'), 'one');
    await userEvent.type(screen.getByTestId('create-unit-name'), 'aula');
    await userEvent.click(screen.getByTestId('create-units-submit'));
    expect(await screen.findByTestId('create-unit-name-field-error')).toHaveTextContent(
      'A unit named “Aula” already exists in your company. Choose another name.',
    );
  });

  it('sends search and sort to the server', async () => {
    const { fetchMock } = open('/units', heatingApi([testUnit({ name: 'Aula' })]));
    await screen.findByText('Aula');
    await userEvent.type(screen.getByTestId('units-search'), 'Au');
    await userEvent.click(screen.getByTestId('units-table-sort-roomTemperature'));
    await waitFor(() =>
      expect(fetchMock.mock.calls.map(([u]) => u)).toContain(
        '/api/companies/c1/units?page=1&size=10&q=Au&sort=roomTemperature&order=asc',
      ),
    );
  });
});
