/**
 * Closures screen with recurrence and buildings (decision 0051): the list words a recurrence
 * ("jedes Wochenende bis 31.03.2027" / "weekly on Sat, Sun until 03/31/2027"), names buildings
 * and floors and shows the next occurrence, in German and English; the dialog builds the RRULE
 * from the repeat choice and sends a building's floor; the buildings scope is offered only when
 * the company has buildings; a rule of one's own is checked before sending and shown again when
 * editing.
 */
import type { Closure } from '@heizplan/contracts/closures';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { buildingsApi, testBuilding } from '../../test/buildings-fixtures.ts';
import { fixedClock } from '../../test/clock.ts';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testCompany, testProfile } from '../../test/signed-in.ts';

/** The screens' clock: a new closure starts the day after it; the dates typed lie after it. */
const NOW = new Date('2026-11-24T09:00:00Z');

const main = testBuilding();
const annex = testBuilding({
  id: '00000000-0000-4000-a000-000000000002',
  name: 'Neubau',
  floors: ['EG', '1. OG'],
});

const weekends = (over: Partial<Closure> = {}): Closure => ({
  id: '00000000-0000-4000-b000-000000000011',
  name: 'Wochenende',
  note: '',
  // Saturday 28 November 2026, 00:00 to Monday 00:00 in Berlin.
  start: '2026-11-27T23:00:00.000Z',
  end: '2026-11-29T23:00:00.000Z',
  recurrence: 'FREQ=WEEKLY;UNTIL=20270331T235959Z;BYDAY=SA,SU',
  nextOccurrence: { start: '2026-12-04T23:00:00.000Z', end: '2026-12-06T23:00:00.000Z' },
  mode: 'frost',
  scope: 'buildings',
  buildings: [
    { id: main.id, name: 'Hauptgebäude', floor: null },
    { id: annex.id, name: 'Neubau', floor: '1. OG' },
  ],
  groups: [],
  units: [],
  exceptions: [],
  status: 'upcoming',
  createdAt: '2026-11-20T10:00:00.000Z',
  createdBy: { id: 'u1', name: 'Ada Lovelace' },
  ...over,
});
const fortnightly = weekends({
  id: '00000000-0000-4000-b000-000000000012',
  name: 'Reinigung',
  recurrence: 'FREQ=WEEKLY;INTERVAL=2;COUNT=10;BYDAY=MO',
  scope: 'company',
  buildings: [],
});
const firstMondays = weekends({
  id: '00000000-0000-4000-b000-000000000013',
  name: 'Inventur',
  recurrence: 'FREQ=MONTHLY;BYDAY=1MO',
  scope: 'company',
  buildings: [],
});

function open(
  closures: Closure[],
  {
    lang = 'en',
    buildings = [main, annex],
    more,
  }: {
    lang?: 'en' | 'de';
    buildings?: (typeof main)[];
    more?: FetchHandler;
  } = {},
) {
  const api: FetchHandler = (method, url, init) => {
    const answer =
      more?.(method, url, init) ??
      (buildings.length > 0 ? buildingsApi(buildings)(method, url, init) : undefined);
    if (answer) return answer;
    const path = url.split('?')[0];
    if (method === 'GET' && path === '/api/companies/c1/') return json(200, testCompany({ role: 'admin' }));
    if (method === 'GET' && (path === '/api/companies/c1/units' || path === '/api/companies/c1/groups'))
      return json(200, { results: [], count: 0, page: 1, size: 200 });
    if (method === 'GET' && path === '/api/companies/c1/closures')
      return json(200, { results: closures, count: closures.length, page: 1, size: 10 });
    return undefined;
  };
  const { session, fetchMock } = signIn({ profile: testProfile({ lang }), extra: api });
  return { ...renderRoutes(routes, '/closures', { session, clock: fixedClock(NOW) }), fetchMock };
}

const posts = (fetchMock: ReturnType<typeof vi.fn>, method = 'POST') =>
  fetchMock.mock.calls.filter(
    ([u, init]) =>
      String(u).startsWith('/api/companies/c1/closures') &&
      (init as RequestInit | undefined)?.method === method,
  );
const bodyOf = (call: unknown[] | undefined) =>
  JSON.parse(String((call?.[1] as RequestInit | undefined)?.body));

async function typeIn(input: HTMLElement, value: string) {
  await userEvent.clear(input);
  await userEvent.type(input, value);
}

describe('closures screen: recurrence and buildings', { timeout: 20_000 }, () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('en');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('words recurrences, buildings and the next occurrence in German', async () => {
    open([weekends(), fortnightly, firstMondays], { lang: 'de' });
    await setLanguage('de');
    const table = await screen.findByTestId('closures-table');
    const id = weekends().id;
    expect(within(table).getByTestId(`closure-recurrence-${id}`)).toHaveTextContent(
      'jedes Wochenende bis 31.03.2027',
    );
    expect(within(table).getByTestId(`closure-recurrence-${id}`)).toHaveAttribute(
      'title',
      'FREQ=WEEKLY;UNTIL=20270331T235959Z;BYDAY=SA,SU',
    );
    expect(within(table).getByTestId(`closure-next-${id}`)).toHaveTextContent(
      'Nächster Termin: 05.12.2026, 00:00 – 07.12.2026, 00:00',
    );
    expect(within(table).getByTestId(`closure-scope-${id}`)).toHaveTextContent(
      'Gebäude: Hauptgebäude, Neubau – 1. OG',
    );
    expect(within(table).getByTestId(`closure-recurrence-${fortnightly.id}`)).toHaveTextContent(
      'alle 2 Wochen am Mo, 10-mal',
    );
    expect(within(table).getByTestId(`closure-recurrence-${firstMondays.id}`)).toHaveTextContent(
      'nach eigener Regel',
    );
  });

  it('words recurrences, buildings and the next occurrence in English', async () => {
    open([weekends({ status: 'running' }), fortnightly]);
    const table = await screen.findByTestId('closures-table');
    const id = weekends().id;
    expect(within(table).getByTestId(`closure-recurrence-${id}`)).toHaveTextContent(
      'weekly on Sat, Sun until 03/31/2027',
    );
    expect(within(table).getByTestId(`closure-next-${id}`)).toHaveTextContent(/^Now: Dec 5, 2026/);
    expect(within(table).getByTestId(`closure-scope-${id}`)).toHaveTextContent(
      'Buildings: Hauptgebäude, Neubau – 1. OG',
    );
    expect(within(table).getByTestId(`closure-recurrence-${fortnightly.id}`)).toHaveTextContent(
      'every 2 weeks on Mon, 10 times',
    );
  });

  it('creates a weekly closure of one floor: weekdays ticked, until a date', async () => {
    const { fetchMock } = open([], {
      more: (method, url) =>
        method === 'POST' && url === '/api/companies/c1/closures' ? json(201, weekends()) : undefined,
    });
    await userEvent.click(await screen.findByTestId('closure-new'));
    const dialog = await screen.findByTestId('closure-dialog');
    await userEvent.type(within(dialog).getByTestId('closure-name'), 'Weekends');
    await typeIn(within(dialog).getByTestId('closure-start'), '2026-12-05T00:00');
    await typeIn(within(dialog).getByTestId('closure-end'), '2026-12-06T00:00');
    expect(within(dialog).queryByTestId('closure-weekdays')).toBeNull();
    await userEvent.selectOptions(within(dialog).getByTestId('closure-repeat'), 'weekly');
    // The start's weekday is ticked and cannot be the last one unticked.
    expect(within(dialog).getByTestId('closure-weekday-SA')).toBeChecked();
    expect(within(dialog).getByTestId('closure-weekday-SA')).toBeDisabled();
    await userEvent.click(within(dialog).getByTestId('closure-weekday-SU'));
    await typeIn(within(dialog).getByTestId('closure-until'), '2027-03-31');

    await userEvent.click(await within(dialog).findByTestId('closure-scope-buildings'));
    expect(within(dialog).getByTestId('closure-building-0')).toHaveValue(main.id);
    await userEvent.selectOptions(within(dialog).getByTestId('closure-building-0'), annex.id);
    await userEvent.selectOptions(within(dialog).getByTestId('closure-floor-0'), '1. OG');
    await userEvent.click(within(dialog).getByTestId('closure-building-add'));
    expect(within(dialog).getByTestId('closure-building-1')).toHaveValue(main.id);
    await userEvent.click(within(dialog).getByTestId('closure-save'));

    expect(await screen.findByTestId('toast-closure-saved')).toBeInTheDocument();
    expect(bodyOf(posts(fetchMock)[0])).toMatchObject({
      name: 'Weekends',
      start: '2026-12-04T23:00:00.000Z',
      end: '2026-12-05T23:00:00.000Z',
      recurrence: 'FREQ=WEEKLY;UNTIL=20270331T235959Z;BYDAY=SA,SU',
      scope: 'buildings',
      buildings: [
        { buildingId: annex.id, floor: '1. OG' },
        { buildingId: main.id, floor: null },
      ],
      groups: [],
      units: [],
    });
  });

  it('offers buildings only when the company has some, and checks a rule of its own in German', async () => {
    const { fetchMock } = open([], { lang: 'de', buildings: [] });
    await setLanguage('de');
    await userEvent.click(await screen.findByTestId('closure-new'));
    const dialog = await screen.findByTestId('closure-dialog');
    expect(within(dialog).queryByTestId('closure-scope-buildings')).toBeNull();
    await userEvent.type(within(dialog).getByTestId('closure-name'), 'Stündlich');
    await userEvent.selectOptions(within(dialog).getByTestId('closure-repeat'), 'custom');
    // Prefilled with the rule of a weekly choice.
    expect((within(dialog).getByTestId('closure-rule') as HTMLInputElement).value).toMatch(
      /^FREQ=WEEKLY;BYDAY=/,
    );
    await typeIn(within(dialog).getByTestId('closure-rule'), 'FREQ=HOURLY');
    await userEvent.click(within(dialog).getByTestId('closure-save'));
    expect(await screen.findByTestId('closure-rule-field-error')).toHaveTextContent(
      'Diese Wiederholung kann Heizplan nicht lesen.',
    );
    expect(posts(fetchMock)).toHaveLength(0);
  });

  it('opens a custom rule as it is and a weekly one with its weekdays and last day', async () => {
    const { fetchMock } = open([weekends(), firstMondays], {
      more: (method, url) =>
        method === 'PATCH' && url === `/api/companies/c1/closures/${weekends().id}`
          ? json(200, weekends())
          : undefined,
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit closure Inventur' }));
    let dialog = await screen.findByTestId('closure-dialog');
    expect(within(dialog).getByTestId('closure-repeat')).toHaveValue('custom');
    expect(within(dialog).getByTestId('closure-rule')).toHaveValue('FREQ=MONTHLY;BYDAY=1MO');
    await userEvent.click(within(dialog).getByTestId('closure-cancel'));
    await waitFor(() => expect(screen.queryByTestId('closure-dialog')).toBeNull());

    await userEvent.click(screen.getByRole('button', { name: 'Edit closure Wochenende' }));
    dialog = await screen.findByTestId('closure-dialog');
    expect(within(dialog).getByTestId('closure-repeat')).toHaveValue('weekly');
    expect(within(dialog).getByTestId('closure-weekday-SA')).toBeChecked();
    expect(within(dialog).getByTestId('closure-weekday-SU')).toBeChecked();
    expect(within(dialog).getByTestId('closure-weekday-MO')).not.toBeChecked();
    expect(within(dialog).getByTestId('closure-until')).toHaveValue('2027-03-31');
    expect(within(dialog).getByTestId('closure-floor-1')).toHaveValue('1. OG');
    await userEvent.selectOptions(within(dialog).getByTestId('closure-repeat'), 'none');
    await userEvent.click(within(dialog).getByTestId('closure-save'));
    await waitFor(() => expect(posts(fetchMock, 'PATCH')).toHaveLength(1));
    expect(bodyOf(posts(fetchMock, 'PATCH')[0])).toMatchObject({
      recurrence: null,
      scope: 'buildings',
      buildings: [
        { buildingId: main.id, floor: null },
        { buildingId: annex.id, floor: '1. OG' },
      ],
    });
  });
});
