/** Unit detail (spec §2): name and wall control limits saved (min above max refused on both fields), server field messages inline, delete after confirming. */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { fixedClock } from '../../test/clock.ts';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testProfile } from '../../test/signed-in.ts';
import { heatingApi, problem, testUnit } from '../../test/units-fixtures.ts';

/** The screens' clock: room temperature, last signals and the preview's bounds count from it. */
const NOW = new Date('2026-11-24T09:00:00Z');

const unit = testUnit({ name: 'Aula', wallControlMin: 18 });
const url = `/api/companies/c1/units/${unit.id}`;

function open(more: FetchHandler) {
  const api: FetchHandler = (method, u, init) => {
    const answer = more(method, u, init);
    if (answer !== undefined) return answer;
    if (method === 'GET' && u === url) return json(200, unit);
    if (method === 'GET' && u === `${url}/plans`) return json(200, { results: [] });
    return undefined;
  };
  const { session, fetchMock } = signIn({
    profile: testProfile({ lang: 'en' }),
    extra: heatingApi([unit], api),
  });
  return { ...renderRoutes(routes, `/units/${unit.id}`, { session, clock: fixedClock(NOW) }), fetchMock };
}

describe('unit detail', { timeout: 20_000 }, () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('en');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('says under the setpoint which value the valves get where their model rounds it', async () => {
    const rounded = {
      ...unit,
      setpoint: 21.3,
      downlinks: {
        pending: 0,
        failed: 0,
        delivered: [{ setpoint: 21.5, reason: 'step' as const, step: 0.5, devices: 2 }],
      },
    };
    open((method, u) => (method === 'GET' && u === url ? json(200, rounded) : undefined));
    expect(await screen.findByTestId('unit-delivered')).toHaveTextContent(
      '2 valves get 21.5 °C (devices set half degrees only)',
    );
  });

  it('refuses a wall control minimum above the maximum on both fields before sending', async () => {
    const { fetchMock } = open(() => undefined);
    await userEvent.type(await screen.findByTestId('unit-wall-max'), '16');
    await userEvent.click(screen.getByTestId('unit-save'));
    const message = 'The minimum must not be above the maximum.';
    expect(await screen.findByTestId('unit-wall-min-field-error')).toHaveTextContent(message);
    expect(await screen.findByTestId('unit-wall-max-field-error')).toHaveTextContent(message);
    expect(screen.getByTestId('unit-wall-max')).toHaveAttribute('aria-invalid', 'true');
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'PATCH')).toHaveLength(0);
    // Raising the maximum clears both.
    await userEvent.clear(screen.getByTestId('unit-wall-max'));
    await userEvent.type(screen.getByTestId('unit-wall-max'), '24');
    await waitFor(() => expect(screen.queryByTestId('unit-wall-min-field-error')).toBeNull());
    expect(screen.queryByTestId('unit-wall-max-field-error')).toBeNull();
  });

  it("saves name and wall control limits and shows the server's message under the limit it refuses", async () => {
    const message = 'Value exceeds temperature range set by your company.';
    const { fetchMock } = open((method, u) =>
      method === 'PATCH' && u === url
        ? problem(
            400,
            'Bad Request',
            message,
            [{ field: 'wallControlMax', message, code: 'out_of_range' }],
            'out_of_range',
          )
        : undefined,
    );
    const name = await screen.findByTestId('unit-name');
    await userEvent.clear(name);
    await userEvent.type(name, '  Aula Nord ');
    await userEvent.type(screen.getByTestId('unit-wall-max'), '35');
    await userEvent.click(screen.getByTestId('unit-save'));
    expect(await screen.findByTestId('unit-wall-max-field-error')).toHaveTextContent(message);
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH');
    expect(JSON.parse(String(patch?.[1]?.body))).toEqual({
      name: 'Aula Nord',
      groupId: null,
      wallControlMin: 18,
      wallControlMax: 35,
      optimumStart: true,
    });
  });

  it('deletes the unit after confirming and returns to the units list', async () => {
    const { router, fetchMock } = open((method, u) =>
      method === 'DELETE' && u === url ? json(204) : undefined,
    );
    await userEvent.click(await screen.findByTestId('unit-delete'));
    expect(screen.getByTestId('unit-delete-dialog')).toHaveTextContent('Delete Aula?');
    await userEvent.click(screen.getByTestId('unit-delete-confirm'));
    expect(await screen.findByText('Aula deleted')).toBeVisible();
    await waitFor(() => expect(router.location().pathname).toBe('/units'));
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'DELETE')).toHaveLength(1);
  });

  it('names the source of a setpoint without a plan truthfully', async () => {
    const bare = testUnit({ name: 'Kammer', setpoint: 8, setpointSource: 'no_plan' });
    const { session } = signIn({
      profile: testProfile({ lang: 'de' }),
      extra: heatingApi([bare], (method, u) => {
        if (method !== 'GET') return undefined;
        if (u === `/api/companies/c1/units/${bare.id}`) return json(200, bare);
        return u === `/api/companies/c1/units/${bare.id}/plans` ? json(200, { results: [] }) : undefined;
      }),
    });
    renderRoutes(routes, `/units/${bare.id}`, { session, clock: fixedClock(NOW) });
    expect(await screen.findByTestId('unit-source')).toHaveTextContent('Kein Plan – Frostschutz');
  });

  // A planner looks at the week of the next DST change, not only at the next 7 days.
  it('previews a chosen week from local midnight in the company zone, and steps week by week', async () => {
    const { fetchMock } = open(() => undefined);
    const previewCalls = () =>
      fetchMock.mock.calls
        .map(([u]) => String(u))
        .filter((u) => u.startsWith(`${url}/preview`))
        .map((u) => new URL(u, 'http://x').searchParams.get('from'));
    const start = await screen.findByTestId('preview-week-start');
    expect(previewCalls()).toEqual([null]);
    fireEvent.change(start, { target: { value: '2027-03-22' } });
    await waitFor(() => expect(previewCalls().at(-1)).toBe('2027-03-22T00:00:00.000+01:00'));
    await userEvent.click(screen.getByTestId('preview-week-next'));
    await waitFor(() => expect(previewCalls().at(-1)).toBe('2027-03-29T00:00:00.000+02:00'));
    expect(start).toHaveValue('2027-03-29');
    await userEvent.click(screen.getByTestId('preview-week-now'));
    await waitFor(() => expect(previewCalls().at(-1)).toBeNull());
    expect(start).toHaveAttribute('min');
    expect(start).toHaveAttribute('max');
  });
});
