/**
 * Plan editor on the unit detail (spec §2, §5): add and remove switch points, the draft goes
 * to the preview call, the engine's messages show next to the fields they concern, and the
 * preview labels each step with its source.
 */
import type { Preview } from '@heizplan/contracts/heating';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { fixedClock } from '../../test/clock.ts';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testProfile } from '../../test/signed-in.ts';
import { heatingApi, problem, testUnit } from '../../test/units-fixtures.ts';

/** The screens' clock: the preview week picker's bounds count from its day. */
const NOW = new Date('2026-11-24T09:00:00Z');

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
    closureId: null,
    bookingId: null,
  },
  changes: [
    {
      at: '2026-11-23T05:00:00.000Z',
      setpoint: 21,
      source: 'regular_plan',
      ignoreWallControl: false,
      planId: 'draft',
      eventId: null,
      closureId: null,
      bookingId: null,
    },
  ],
  closures: [],
  bookings: [],
  optimum: [],
};

const INVALID_TIME = [
  { field: 'switchPoints.1.hour', message: 'Invalid time!', code: 'plan_invalid_time' },
  { field: 'validFrom', message: 'Invalid time!', code: 'plan_invalid_time' },
];

/** Stubs the unit, its (empty) plan list, the preview and plan creation. */
function open(answers: { preview?: FetchHandler; create?: FetchHandler } = {}, lang: 'en' | 'de' = 'en') {
  const api: FetchHandler = (method, url, init) => {
    if (method === 'GET' && url === base) return json(200, unit);
    if (method === 'GET' && url === `${base}/plans`) return json(200, { results: [] });
    if (method === 'POST' && url === `${base}/preview`)
      return answers.preview?.(method, url, init) ?? json(200, preview);
    if (method === 'POST' && url === `${base}/plans`) return answers.create?.(method, url, init);
    return undefined;
  };
  const { session, fetchMock } = signIn({
    profile: testProfile({ lang }),
    extra: heatingApi([unit], api),
  });
  return { ...renderRoutes(routes, `/units/${unit.id}`, { session, clock: fixedClock(NOW) }), fetchMock };
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

    await waitFor(() => {
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

    // Spec §5: the field says 'Invalid time!' after the input's name, the form's alert adds 'The time is not valid.'.
    expect((await screen.findByTestId('switch-point-1-error')).textContent).toBe('Hour: Invalid time!');
    expect(hour).toHaveAttribute('aria-invalid', 'true');
    expect(await screen.findByTestId('plan-valid-from-field-error')).toHaveTextContent('Invalid time!');
    expect(screen.getByTestId('plan-error')).toHaveTextContent('The time is not valid.');
    expect(screen.queryByTestId('switch-point-0-error')).toBeNull();
    expect(lastBody(fetchMock, `${base}/plans`).switchPoints[1].hour).toBe(25);
  });

  /** Opens the German unit page whose preview answers `refuse` with a range problem for switch point 0. */
  async function openRefusing(code: 'out_of_range' | 'below_range') {
    await setLanguage('de');
    const message =
      code === 'out_of_range'
        ? 'Value exceeds temperature range set by your company.'
        : 'Value is below the temperature range set by your company.';
    const params = { min: 12.5, max: 26 };
    const refuse: FetchHandler = () =>
      json(400, {
        type: 'about:blank',
        title: message,
        status: 400,
        code,
        params,
        errors: [{ field: 'switchPoints.0.temperature', message, code, params }],
      });
    const { session } = signIn({
      profile: testProfile({ lang: 'de' }),
      extra: heatingApi([unit], (method, url) => {
        if (method === 'GET' && url === base) return json(200, unit);
        if (method === 'GET' && url === `${base}/plans`) return json(200, { results: [] });
        if (method === 'POST' && url === `${base}/preview`) return refuse(method, url, {});
        return undefined;
      }),
    });
    renderRoutes(routes, `/units/${unit.id}`, { session, clock: fixedClock(NOW) });
    await userEvent.click(await screen.findByTestId('plan-new-seasonal'));
    const temperature = screen.getByTestId('switch-point-0-temperature');
    await userEvent.clear(temperature);
    await userEvent.type(temperature, code === 'out_of_range' ? '30' : '10');
  }

  it("keeps the spec's message for a temperature above the range and names the field and the limit", async () => {
    await openRefusing('out_of_range');
    expect(await screen.findByTestId('switch-point-0-error')).toHaveTextContent(
      'Temperatur: Der Wert überschreitet den von Ihrer Firma festgelegten Temperaturbereich. Höchstens 26 °C.',
    );
  });

  it('says that a temperature is below the range, with the field and the limit in German numbers', async () => {
    await openRefusing('below_range');
    const error = await screen.findByTestId('switch-point-0-error');
    expect(error).toHaveTextContent(
      'Temperatur: Der Wert unterschreitet den von Ihrer Firma festgelegten Temperaturbereich. Mindestens 12,5 °C.',
    );
    expect(error.textContent).not.toContain('überschreitet');
  });

  it('opens a new specific-days plan without an error, and checks it once something was typed', async () => {
    const noDates: FetchHandler = () =>
      problem(
        400,
        'Invalid schedule!',
        'There is an error in the schedule.',
        [{ field: 'dates', message: 'Invalid schedule!', code: 'plan_invalid_schedule' }],
        'plan_invalid_schedule',
      );
    const { fetchMock } = open({ preview: noDates });
    await userEvent.click(await screen.findByTestId('plan-new-specific-days'));
    // The preview checked the empty draft, but nothing was typed yet: no error.
    await waitFor(() => expect(lastBody(fetchMock, `${base}/preview`).plan.dates).toEqual([]));
    // Its refusal has arrived (the preview waits for a valid plan), and still no error.
    expect(await screen.findByText('The preview appears once the plan is valid.')).toBeInTheDocument();
    expect(screen.queryByTestId('plan-error')).toBeNull();
    expect(screen.queryByText('Invalid schedule!')).toBeNull();
    await userEvent.type(screen.getByTestId('plan-name'), ' 2026');
    expect(await screen.findByTestId('plan-error')).toHaveTextContent('Invalid schedule!');
  });

  it('takes focus into the editor, closes it on Escape or "Cancel", and gives focus back to its button', async () => {
    open({});
    await userEvent.click(await screen.findByRole('button', { name: 'Add seasonal plan' }));
    const title = screen.getByRole('heading', { name: 'New plan' });
    expect(title).toHaveFocus();
    await userEvent.click(
      within(title.parentElement as HTMLElement).getByRole('textbox', { name: 'Plan name' }),
    );
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('heading', { name: 'New plan' })).toBeNull();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Add seasonal plan' })).toHaveFocus());

    await userEvent.click(screen.getByRole('button', { name: 'Add seasonal plan' }));
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Add seasonal plan' })).toHaveFocus());
  });

  it('does not save a plan without a name', async () => {
    const { fetchMock } = open({ create: () => json(201, {}) });
    await userEvent.click(await screen.findByTestId('plan-new-seasonal'));
    await userEvent.clear(screen.getByTestId('plan-name'));
    await userEvent.click(screen.getByTestId('plan-save'));
    expect(await screen.findByTestId('plan-name-field-error')).toHaveTextContent(
      'Give the plan a name, e.g. “Heating season”.',
    );
    expect(
      fetchMock.mock.calls.filter(([u, init]) => u === `${base}/plans` && init?.method === 'POST'),
    ).toEqual([]);
  });

  it('copies Monday to all weekdays, leaving the weekend', async () => {
    const { fetchMock } = open({ create: () => json(201, {}) });
    await userEvent.click(await screen.findByTestId('plan-new-seasonal'));
    const monday = within(screen.getByTestId('plan-day-1'));
    await userEvent.click(monday.getByTestId('plan-add-1'));
    await userEvent.click(screen.getByTestId('plan-copy-monday'));
    expect(screen.getByTestId('plan-copy-monday')).toHaveTextContent('Copy Monday to all weekdays');
    for (const day of [2, 3, 4, 5]) {
      expect(within(screen.getByTestId(`plan-day-${day}`)).getAllByRole('listitem')).toHaveLength(3);
    }
    for (const day of [6, 7]) {
      expect(within(screen.getByTestId(`plan-day-${day}`)).getAllByRole('listitem')).toHaveLength(2);
    }
    await userEvent.click(screen.getByTestId('plan-save'));
    await waitFor(() =>
      expect(lastBody(fetchMock, `${base}/plans`).switchPoints).toHaveLength(3 * 5 + 2 * 2),
    );
    const tuesday = lastBody(fetchMock, `${base}/plans`).switchPoints.filter(
      (p: { day: number }) => p.day === 2,
    );
    expect(tuesday.map((p: { hour: number }) => p.hour)).toEqual([6, 22, 23]);
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

  it('writes the season as a German reads it and sends the months and days the API keeps', async () => {
    await setLanguage('de');
    const created: FetchHandler = (_m, _u, init) =>
      json(201, { ...JSON.parse(String(init.body)), id: '00000000-0000-4000-a000-000000000002' });
    const { fetchMock } = open({ create: created }, 'de');
    await userEvent.click(await screen.findByRole('button', { name: 'Saisonplan hinzufügen' }));
    const from = screen.getByRole('textbox', { name: /Gültig ab \(TT\.MM\.\)/ });
    const to = screen.getByRole('textbox', { name: /Gültig bis \(TT\.MM\.\)/ });
    expect(from).toHaveValue('01.10.');
    expect(to).toHaveValue('30.04.');
    await userEvent.clear(from);
    await userEvent.type(from, '1.11.');
    await userEvent.click(screen.getByRole('button', { name: 'Plan speichern' }));
    expect(await screen.findByText('Plan gespeichert')).toBeVisible();
    expect(lastBody(fetchMock, `${base}/plans`)).toMatchObject({ validFrom: '11-01', validTo: '04-30' });
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
    renderRoutes(routes, `/units/${unit.id}`, { session, clock: fixedClock(NOW) });
    await userEvent.click(await screen.findByTestId('plan-new-seasonal'));
    await userEvent.type(screen.getByTestId('plan-name'), ' 2027');
    const alert = await screen.findByTestId('plan-error');
    expect(alert).toHaveTextContent(
      'Dieser Plan überschneidet sich mit dem aktiven Saisonplan „Winter“ (01.10. bis 30.04.).',
    );
    expect(alert.textContent).not.toContain('Conflict');
    expect(alert.textContent).not.toContain(detail);
  });
});

describe("a unit's own plan in a group", { timeout: 20_000 }, () => {
  const grouped = testUnit({
    name: 'Raum 7',
    groupId: '00000000-0000-4000-9000-000000000007',
    groupName: 'Etage 3',
  });
  const url = `/api/companies/c1/units/${grouped.id}`;
  const ownPlan = {
    id: '00000000-0000-4000-a000-000000000007',
    unitId: grouped.id,
    groupId: null,
    name: 'Prüfungswoche',
    kind: 'specific_days',
    active: true,
    validFrom: null,
    validTo: null,
    dates: ['2026-12-01', '2026-12-02'],
    switchPoints: [{ day: 1, hour: 6, minute: 0, temperature: 21, ignoreWallControl: false }],
    createdAt: '2026-11-01T10:00:00.000Z',
    updatedAt: '2026-11-01T10:00:00.000Z',
  };

  function openGrouped(plans: unknown[]) {
    const { session, fetchMock } = signIn({
      profile: testProfile({ lang: 'en' }),
      extra: heatingApi([grouped], (method, u) => {
        if (method === 'GET' && u === url) return json(200, grouped);
        if (method === 'GET' && u === `${url}/plans`) return json(200, { results: plans });
        if (method === 'POST' && u === `${url}/preview`) return json(200, preview);
        if (method === 'POST' && u === `${url}/plans`) return json(201, { ...ownPlan, active: true });
        return undefined;
      }),
    });
    renderRoutes(routes, `/units/${grouped.id}`, { session, clock: fixedClock(NOW) });
    return fetchMock;
  }
  const posts = (fetchMock: ReturnType<typeof signIn>['fetchMock']) =>
    fetchMock.mock.calls.filter(([u, init]) => u === `${url}/plans` && init?.method === 'POST');

  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('en');
  });
  afterEach(() => vi.unstubAllGlobals());

  it("says that its active plan overrides the group's plans instead of claiming none apply", async () => {
    openGrouped([ownPlan]);
    expect(await screen.findByTestId('plans-override')).toHaveTextContent(
      'The own active plan of Raum 7 applies here instead of the group plans of “Etage 3”.',
    );
    expect(screen.getByTestId('unit-plans')).toHaveTextContent(
      "An active one applies to this unit instead of its group's plans.",
    );
    expect(screen.getByTestId('unit-plans').textContent).not.toMatch(/group plans are unavailable/i);
  });

  it('asks, naming the group, before saving the plan that blocks new group plans', async () => {
    const fetchMock = openGrouped([]);
    await userEvent.click(await screen.findByTestId('plan-new-seasonal'));
    await userEvent.click(screen.getByTestId('plan-save'));
    const dialog = await screen.findByTestId('plan-activation-confirm');
    expect(dialog).toHaveTextContent(
      'While this plan is active, it applies to Raum 7 instead of the group plans of “Etage 3”, and no new group plan can be added to “Etage 3”.',
    );
    expect(posts(fetchMock)).toHaveLength(0);
    await userEvent.click(screen.getByTestId('plan-activation-confirm-confirm'));
    expect(await screen.findByText('Plan saved')).toBeVisible();
    expect(posts(fetchMock)).toHaveLength(1);
  });

  it('saves an inactive plan without asking', async () => {
    const fetchMock = openGrouped([]);
    await userEvent.click(await screen.findByTestId('plan-new-seasonal'));
    await userEvent.click(screen.getByTestId('plan-active'));
    await userEvent.click(screen.getByTestId('plan-save'));
    expect(await screen.findByText('Plan saved')).toBeVisible();
    expect(screen.queryByTestId('plan-activation-confirm')).toBeNull();
    expect(posts(fetchMock)).toHaveLength(1);
  });
});
