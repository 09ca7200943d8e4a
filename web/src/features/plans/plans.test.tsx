/**
 * Plan editor on the unit detail (spec §2, §5): add and remove switch points, the draft goes
 * to the preview call, the engine's messages show next to the fields they concern, and the
 * preview labels each step with its source.
 */
import type { Preview } from '@heizplan/contracts/heating';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testProfile } from '../../test/signed-in.ts';
import { heatingApi, problem, testUnit } from '../../test/units-fixtures.ts';

const unit = testUnit({ name: 'Aula' });
const base = `/api/companies/c1/units/${unit.id}`;

const preview: Preview = {
  from: '2026-11-23T00:00:00.000Z',
  to: '2026-11-30T00:00:00.000Z',
  timeZone: 'Europe/Berlin',
  initial: {
    at: '2026-11-23T00:00:00.000Z',
    setpoint: 17,
    source: 'group_plan',
    ignoreWallControl: false,
    planId: null,
    eventId: null,
  },
  changes: [
    {
      at: '2026-11-23T05:00:00.000Z',
      setpoint: 21,
      source: 'regular_plan',
      ignoreWallControl: false,
      planId: 'draft',
      eventId: null,
    },
  ],
};

const INVALID_TIME = [
  { field: 'switchPoints.1.hour', message: 'Invalid time!', code: 'plan_invalid_time' },
  { field: 'validFrom', message: 'Invalid time!', code: 'plan_invalid_time' },
];

/** Stubs the unit, its (empty) plan list, the preview and plan creation. */
function open(answers: { preview?: FetchHandler; create?: FetchHandler } = {}) {
  const api: FetchHandler = (method, url, init) => {
    if (method === 'GET' && url === base) return json(200, unit);
    if (method === 'GET' && url === `${base}/plans`) return json(200, { results: [] });
    if (method === 'POST' && url === `${base}/preview`)
      return answers.preview?.(method, url, init) ?? json(200, preview);
    if (method === 'POST' && url === `${base}/plans`) return answers.create?.(method, url, init);
    return undefined;
  };
  const { session, fetchMock } = signIn({
    profile: testProfile({ lang: 'en' }),
    extra: heatingApi([unit], api),
  });
  return { ...renderRoutes(routes, `/units/${unit.id}`, { session }), fetchMock };
}

const lastBody = (fetchMock: ReturnType<typeof signIn>['fetchMock'], url: string) => {
  const calls = fetchMock.mock.calls.filter(([u, init]) => u === url && init?.method === 'POST');
  return JSON.parse(String(calls.at(-1)?.[1]?.body));
};

// Rendering the whole week editor is slow on the shared 2-core machine; nothing here waits on time.
describe('plan editor', { timeout: 20_000 }, () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('en');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('adds and removes switch points per weekday and previews the draft with each step labelled by its source', async () => {
    const { fetchMock } = open();
    await userEvent.click(await screen.findByTestId('plan-new-seasonal'));
    const monday = within(screen.getByTestId('plan-day-1'));
    expect(monday.getAllByRole('listitem')).toHaveLength(2);
    await userEvent.click(monday.getByTestId('plan-add-1'));
    expect(monday.getAllByRole('listitem')).toHaveLength(3);
    await userEvent.click(monday.getByTestId('switch-point-0-remove'));
    expect(monday.getAllByRole('listitem')).toHaveLength(2);

    await vi.waitFor(() => {
      const draft = lastBody(fetchMock, `${base}/preview`);
      expect(draft.plan.switchPoints.filter((p: { day: number }) => p.day === 1)).toEqual([
        { day: 1, hour: 22, minute: 0, temperature: 17, ignoreWallControl: false },
        { day: 1, hour: 23, minute: 0, temperature: 21, ignoreWallControl: false },
      ]);
    });
    expect(await screen.findByTestId('preview-legend-group_plan')).toHaveTextContent('Group plan');
    expect(screen.getByTestId('preview-legend-regular_plan')).toHaveTextContent('Regular plan');
    expect(screen.getByTestId('preview-step-1')).toHaveAttribute('data-source', 'regular_plan');
  });

  it("shows the server's 'Invalid time!' next to the switch point and the date when saving fails", async () => {
    const refuse: FetchHandler = () =>
      problem(400, 'Invalid time!', 'The time is not valid.', INVALID_TIME, 'plan_invalid_time');
    const { fetchMock } = open({ create: refuse });
    await userEvent.click(await screen.findByTestId('plan-new-seasonal'));
    const hour = screen.getByTestId('switch-point-1-hour');
    await userEvent.clear(hour);
    await userEvent.type(hour, '25');
    await userEvent.click(screen.getByTestId('plan-save'));

    // Spec §5: the field says 'Invalid time!', the form's alert adds 'The time is not valid.'.
    expect((await screen.findByTestId('switch-point-1-error')).textContent).toBe('Invalid time!');
    expect(hour).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByTestId('plan-valid-from-field-error')).toHaveTextContent('Invalid time!');
    expect(screen.getByTestId('plan-error')).toHaveTextContent('The time is not valid.');
    expect(screen.queryByTestId('switch-point-0-error')).toBeNull();
    expect(lastBody(fetchMock, `${base}/plans`).switchPoints[1].hour).toBe(25);
  });

  it('shows the range message in German when the preview refuses a temperature', async () => {
    await setLanguage('de');
    const refuse: FetchHandler = () =>
      problem(
        400,
        'Value exceeds temperature range set by your company.',
        undefined,
        [
          {
            field: 'switchPoints.0.temperature',
            message: 'Value exceeds temperature range set by your company.',
            code: 'out_of_range',
          },
        ],
        'out_of_range',
      );
    const { session } = signIn({
      profile: testProfile({ lang: 'de' }),
      extra: heatingApi([unit], (method, url) => {
        if (method === 'GET' && url === base) return json(200, unit);
        if (method === 'GET' && url === `${base}/plans`) return json(200, { results: [] });
        if (method === 'POST' && url === `${base}/preview`) return refuse(method, url, {});
        return undefined;
      }),
    });
    renderRoutes(routes, `/units/${unit.id}`, { session });
    await userEvent.click(await screen.findByTestId('plan-new-seasonal'));
    expect(await screen.findByTestId('switch-point-0-error')).toHaveTextContent(
      'Der Wert überschreitet den von Ihrer Firma festgelegten Temperaturbereich.',
    );
  });

  it('saves a specific-days plan with its dates and one day of switch points', async () => {
    const created: FetchHandler = (_m, _u, init) =>
      json(201, { ...JSON.parse(String(init.body)), id: '00000000-0000-4000-a000-000000000001' });
    const { fetchMock } = open({ create: created });
    await userEvent.click(await screen.findByTestId('plan-new-specific-days'));
    expect(screen.queryByTestId('plan-day-1')).toBeNull();
    await userEvent.type(screen.getByTestId('plan-date-input'), '2026-12-24');
    await userEvent.click(screen.getByTestId('plan-date-add'));
    await userEvent.type(screen.getByTestId('plan-date-input'), '2026-12-25');
    await userEvent.keyboard('{Enter}');
    await userEvent.click(screen.getByTestId('plan-date-remove-2026-12-24'));
    await userEvent.click(screen.getByTestId('switch-point-1-ignore'));
    await userEvent.click(screen.getByTestId('plan-save'));
    expect(await screen.findByText('Plan saved')).toBeVisible();
    const plan = lastBody(fetchMock, `${base}/plans`);
    expect(plan).toMatchObject({
      kind: 'specific_days',
      dates: ['2026-12-25'],
      validFrom: null,
      validTo: null,
    });
    expect(plan.switchPoints).toEqual([
      { day: 1, hour: 6, minute: 0, temperature: 21, ignoreWallControl: false },
      { day: 1, hour: 22, minute: 0, temperature: 17, ignoreWallControl: true },
    ]);
  });

  // A refused overlap names the other plan, in the page's language.
  it('says in German which active plan a new plan overlaps', async () => {
    await setLanguage('de');
    const detail = 'This plan overlaps the active seasonal plan "Winter" (10-01 to 04-30).';
    const overlap = {
      type: 'about:blank',
      title: 'Conflict',
      status: 409,
      detail,
      code: 'plan_overlap_seasonal',
      params: { plan: 'Winter', planId: '00000000-0000-4000-a000-000000000009', from: '10-01', to: '04-30' },
    };
    const { session } = signIn({
      profile: testProfile({ lang: 'de' }),
      extra: heatingApi([unit], (method, url) => {
        if (method === 'GET' && url === base) return json(200, unit);
        if (method === 'GET' && url === `${base}/plans`) return json(200, { results: [] });
        if (method === 'POST' && url === `${base}/preview`) return json(409, overlap);
        return undefined;
      }),
    });
    renderRoutes(routes, `/units/${unit.id}`, { session });
    await userEvent.click(await screen.findByTestId('plan-new-seasonal'));
    const alert = await screen.findByTestId('plan-error');
    expect(alert).toHaveTextContent(
      'Dieser Plan überschneidet sich mit dem aktiven Saisonplan „Winter“ (10-01 bis 04-30).',
    );
    expect(alert.textContent).not.toContain('Conflict');
    expect(alert.textContent).not.toContain(detail);
  });
});
