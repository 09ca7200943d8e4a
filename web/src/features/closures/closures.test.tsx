/**
 * Closures screen (decision 0051): the list with period in the company's zone, heating mode with
 * the company's temperature and what a closure covers; the empty state explaining closures;
 * creating one sends the contract's body; the dialog refuses an end before the start before any
 * request; the server's field error shows under its field; deleting asks first; a member who
 * only reads (ems) gets no controls to change anything. Rooms are searched on the server: one
 * beyond the first page is found by typing, a closure's own rooms are named before any search.
 */
import type { Closure } from '@heizplan/contracts/closures';
import type { Group } from '@heizplan/contracts/heating';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { fixedClock } from '../../test/clock.ts';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testCompany, testProfile } from '../../test/signed-in.ts';
import { problem, testUnit, unitSearchApi, unitSearches } from '../../test/units-fixtures.ts';

/** The screens' clock: a new closure starts the day after it; the dates typed lie after it. */
const NOW = new Date('2026-11-24T09:00:00Z');

const serverRoom = testUnit({ name: 'Serverraum' });
const hall = testUnit({ name: 'Aula' });
const group: Group = {
  id: '00000000-0000-4000-9000-000000000001',
  name: 'Schule',
  unitCount: 3,
  groupPlansAvailable: true,
  blockingUnits: [],
  occupantMaxTemperature: null,
  occupantBand: null,
  createdAt: '2026-11-01T10:00:00.000Z',
};
const testClosure = (over: Partial<Closure> = {}): Closure => ({
  id: '00000000-0000-4000-b000-000000000001',
  name: 'Weihnachtsferien',
  note: '',
  // 00:00 in Berlin on 24 Dec to 00:00 on 7 Jan.
  start: '2026-12-23T23:00:00.000Z',
  end: '2027-01-06T23:00:00.000Z',
  recurrence: null,
  nextOccurrence: { start: '2026-12-23T23:00:00.000Z', end: '2027-01-06T23:00:00.000Z' },
  mode: 'economy',
  scope: 'groups',
  buildings: [],
  groups: [{ id: group.id, name: 'Schule' }],
  units: [],
  exceptions: [
    { id: serverRoom.id, name: 'Serverraum' },
    { id: hall.id, name: 'Aula' },
  ],
  status: 'upcoming',
  createdAt: '2026-11-20T10:00:00.000Z',
  createdBy: { id: 'u1', name: 'Ada Lovelace' },
  ...over,
});

function open(
  closures: Closure[] = [],
  more?: FetchHandler,
  lang: 'en' | 'de' = 'en',
  role: 'admin' | 'heating' | 'ems' = 'admin',
) {
  const api: FetchHandler = (method, url, init) => {
    const answer = more?.(method, url, init);
    if (answer) return answer;
    const path = url.split('?')[0];
    if (method === 'GET' && path === '/api/companies/c1/')
      return json(200, testCompany({ role, economy_temperature: 16.5 }));
    if (method === 'GET' && path === '/api/companies/c1/units')
      return json(200, { results: [hall, serverRoom], count: 2, page: 1, size: 200 });
    if (method === 'GET' && path === '/api/companies/c1/groups')
      return json(200, { results: [group], count: 1, page: 1, size: 200 });
    if (method === 'GET' && path === '/api/companies/c1/closures')
      return json(200, { results: closures, count: closures.length, page: 1, size: 10 });
    return undefined;
  };
  const { session, fetchMock } = signIn({ profile: testProfile({ lang }), extra: api });
  return { ...renderRoutes(routes, '/closures', { session, clock: fixedClock(NOW) }), fetchMock };
}

const calls = (fetchMock: ReturnType<typeof vi.fn>, method: string, prefix: string) =>
  fetchMock.mock.calls.filter(
    ([u, init]) =>
      String(u).startsWith(prefix) && ((init as RequestInit | undefined)?.method ?? 'GET') === method,
  );

const bodyOf = (call: unknown[] | undefined) =>
  JSON.parse(String((call?.[1] as RequestInit | undefined)?.body));

async function newClosureDialog() {
  await userEvent.click(await screen.findByTestId('closure-new'));
  return screen.findByTestId('closure-dialog');
}

async function typeTime(input: HTMLElement, value: string) {
  await userEvent.clear(input);
  await userEvent.type(input, value);
}

describe('closures screen', { timeout: 20_000 }, () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('en');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('lists closures in German: period in the company zone, mode with its temperature, scope and status', async () => {
    const company = testClosure({
      id: '00000000-0000-4000-b000-000000000002',
      name: 'Betriebsurlaub',
      note: 'Nur Notdienst',
      mode: 'frost',
      scope: 'company',
      groups: [],
      exceptions: [{ id: serverRoom.id, name: 'Serverraum' }],
      status: 'running',
    });
    const { fetchMock } = open([testClosure(), company], undefined, 'de');
    await setLanguage('de');
    const table = await screen.findByTestId('closures-table');
    const closure = testClosure();
    expect(within(table).getByTestId(`closure-name-${closure.id}`)).toHaveTextContent('Weihnachtsferien');
    expect(within(table).getByTestId(`closure-period-${closure.id}`)).toHaveTextContent(
      '24.12.2026, 00:00 – 07.01.2027, 00:00',
    );
    expect(within(table).getByTestId(`closure-mode-${closure.id}`)).toHaveTextContent(
      'Absenkbetrieb (16,5 °C)',
    );
    expect(within(table).getByTestId(`closure-scope-${closure.id}`)).toHaveTextContent(
      'Gruppen: Schule2 Ausnahmen',
    );
    expect(within(table).getByTestId(`closure-status-${closure.id}`)).toHaveTextContent('geplant');
    expect(within(table).getByText('Nur Notdienst')).toBeInTheDocument();
    expect(within(table).getByTestId(`closure-mode-${company.id}`)).toHaveTextContent('Frostschutz');
    expect(within(table).getByTestId(`closure-scope-${company.id}`)).toHaveTextContent(
      'Ganze Firma1 Ausnahme',
    );
    expect(within(table).getByTestId(`closure-status-${company.id}`)).toHaveTextContent('läuft');
    expect(screen.getAllByRole('link', { name: 'Schließzeiten' })[0]).toHaveAttribute('aria-current', 'page');

    expect(String(calls(fetchMock, 'GET', '/api/companies/c1/closures')[0]?.[0])).toContain(
      'includePast=false',
    );
    await userEvent.click(screen.getByTestId('closures-filter-past'));
    await waitFor(() =>
      expect(String(calls(fetchMock, 'GET', '/api/companies/c1/closures').at(-1)?.[0])).toContain(
        'includePast=true',
      ),
    );
  });

  it('explains what a closure is when there is none', async () => {
    open([]);
    const empty = await screen.findByTestId('closures-empty');
    expect(empty).toHaveTextContent('No upcoming or running closures');
    expect(empty).toHaveTextContent('A closure is a period in which rooms are not used');
    expect(empty).toHaveTextContent('only a pause outranks it');
    expect(within(empty).getByTestId('closures-empty-new')).toBeEnabled();
    expect(screen.queryByTestId('closures-table')).toBeNull();
  });

  it('creates a closure of groups with an exception, in the company time zone', async () => {
    const { fetchMock } = open([], (method, url) =>
      method === 'POST' && url === '/api/companies/c1/closures' ? json(201, testClosure()) : undefined,
    );
    const dialog = await newClosureDialog();
    expect(within(dialog).getByTestId('closure-zone')).toHaveTextContent('Europe/Berlin');
    const mode = within(dialog).getByTestId('closure-mode');
    expect([...(mode as HTMLSelectElement).options].map((o) => o.text)).toEqual([
      'Frost protection (8 °C)',
      'Economy (16.5 °C)',
      'Standby (18 °C)',
    ]);
    await userEvent.type(within(dialog).getByTestId('closure-name'), '  Christmas break ');
    await typeTime(within(dialog).getByTestId('closure-start'), '2026-12-24T00:00');
    await typeTime(within(dialog).getByTestId('closure-end'), '2027-01-07T06:00');
    await userEvent.selectOptions(mode, 'economy');
    await userEvent.click(within(dialog).getByTestId('closure-scope-groups'));
    await userEvent.click(within(dialog).getByTestId('closure-groups'));
    await userEvent.click(screen.getByTestId(`closure-group-${group.id}`));
    const exceptions = within(dialog).getByRole('combobox', { name: 'Exceptions (optional)' });
    expect(exceptions).toHaveAccessibleDescription(
      "These units keep their normal heating, e.g. a server room or the caretaker's flat.",
    );
    await userEvent.click(exceptions);
    await userEvent.click(await screen.findByTestId(`closure-exceptions-${serverRoom.id}`));
    await userEvent.type(within(dialog).getByTestId('closure-note'), 'Caretaker on call');
    await userEvent.click(within(dialog).getByTestId('closure-save'));

    expect(await screen.findByTestId('toast-closure-saved')).toHaveTextContent('Closure created');
    const posts = calls(fetchMock, 'POST', '/api/companies/c1/closures');
    expect(posts).toHaveLength(1);
    expect(bodyOf(posts[0])).toEqual({
      name: 'Christmas break',
      note: 'Caretaker on call',
      start: '2026-12-23T23:00:00.000Z',
      end: '2027-01-07T05:00:00.000Z',
      recurrence: null,
      mode: 'economy',
      scope: 'groups',
      buildings: [],
      groups: [group.id],
      units: [],
      exceptions: [serverRoom.id],
    });
    await waitFor(() => expect(screen.queryByTestId('closure-dialog')).toBeNull());
  });

  it('refuses an end before the start, and units scope without units, under the fields before any request', async () => {
    const { fetchMock } = open();
    const dialog = await newClosureDialog();
    await userEvent.type(within(dialog).getByTestId('closure-name'), 'Works holiday');
    await typeTime(within(dialog).getByTestId('closure-start'), '2026-08-10T00:00');
    await typeTime(within(dialog).getByTestId('closure-end'), '2026-08-03T00:00');
    await userEvent.click(within(dialog).getByTestId('closure-scope-units'));
    expect(within(dialog).queryByTestId('closure-exceptions')).toBeNull();
    await userEvent.click(within(dialog).getByTestId('closure-save'));
    expect(await screen.findByTestId('closure-end-field-error')).toHaveTextContent(
      'The end must be after the start.',
    );
    expect(await screen.findByTestId('closure-units-field-error')).toHaveTextContent(
      'Choose at least one building, group or unit for the closure.',
    );
    expect(within(dialog).getByTestId('closure-end')).toHaveAttribute('aria-invalid', 'true');
    expect(calls(fetchMock, 'POST', '/api/companies/c1/closures')).toHaveLength(0);
  });

  it("shows the server's field error under its field, in German, with an error toast", async () => {
    const message = 'A closure lasts at most 366 days.';
    open(
      [],
      (method, url) =>
        method === 'POST' && url === '/api/companies/c1/closures'
          ? problem(
              400,
              'Bad Request',
              message,
              [{ field: 'body.end', message, code: 'closure_too_long', params: { days: 366 } }],
              'closure_too_long',
            )
          : undefined,
      'de',
    );
    await setLanguage('de');
    const dialog = await newClosureDialog();
    await userEvent.type(within(dialog).getByTestId('closure-name'), 'Sanierung');
    await userEvent.click(within(dialog).getByTestId('closure-save'));
    expect(await screen.findByTestId('closure-end-field-error')).toHaveTextContent(
      'Eine Schließzeit dauert höchstens 366 Tage.',
    );
    expect(await screen.findByTestId('toast-closure-error')).toHaveTextContent(
      'Fehler beim Anlegen der Schließzeit',
    );
    expect(screen.getByTestId('closure-dialog')).toBeInTheDocument();
    expect(document.body.textContent).not.toContain(message);
  });

  it('edits a closure and deletes one after confirming', async () => {
    const closure = testClosure();
    const { fetchMock } = open([closure], (method, url) =>
      url === `/api/companies/c1/closures/${closure.id}`
        ? method === 'PATCH'
          ? json(200, { ...closure, name: 'Winterferien' })
          : method === 'DELETE'
            ? json(204)
            : undefined
        : undefined,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Edit closure Weihnachtsferien' }));
    const dialog = await screen.findByTestId('closure-dialog');
    expect(within(dialog).getByTestId('closure-created')).toHaveTextContent('Created by Ada Lovelace');
    expect(within(dialog).getByTestId('closure-start')).toHaveValue('2026-12-24T00:00');
    expect(within(dialog).getByTestId('closure-mode')).toHaveValue('economy');
    const name = within(dialog).getByTestId('closure-name');
    await userEvent.clear(name);
    await userEvent.type(name, 'Winterferien');
    await userEvent.click(within(dialog).getByTestId('closure-save'));
    expect(await screen.findByTestId('toast-closure-saved')).toHaveTextContent('Closure saved');
    expect(bodyOf(calls(fetchMock, 'PATCH', `/api/companies/c1/closures/${closure.id}`)[0])).toMatchObject({
      name: 'Winterferien',
      scope: 'groups',
      groups: [group.id],
      exceptions: [serverRoom.id, hall.id],
    });
    await waitFor(() => expect(screen.queryByTestId('closure-dialog')).toBeNull());

    await userEvent.click(screen.getByTestId(`closure-delete-${closure.id}`));
    const confirm = await screen.findByTestId('closure-delete-dialog');
    expect(confirm).toHaveTextContent('The closure “Weihnachtsferien” will be deleted.');
    expect(calls(fetchMock, 'DELETE', '/api/companies/c1/closures')).toHaveLength(0);
    await userEvent.click(within(confirm).getByTestId('closure-delete-dialog-confirm'));
    expect(await screen.findByTestId('toast-closure-deleted')).toHaveTextContent('Closure deleted');
    expect(calls(fetchMock, 'DELETE', `/api/companies/c1/closures/${closure.id}`)).toHaveLength(1);
  });

  it("names a closure's rooms before searching and adds one beyond the first page by typing", async () => {
    // 70 rooms: one search page (50) does not hold them all.
    const rooms = Array.from({ length: 70 }, (_, i) =>
      testUnit({ name: `Zimmer ${String(i + 1).padStart(2, '0')}` }),
    );
    const own = rooms[62]!;
    const far = rooms[68]!;
    const closure = testClosure({
      scope: 'units',
      groups: [],
      units: [{ id: own.id, name: own.name }],
      exceptions: [],
    });
    const { fetchMock } = open([closure], (method, url, init) =>
      method === 'PATCH' && url === `/api/companies/c1/closures/${closure.id}`
        ? json(200, closure)
        : unitSearchApi(rooms)(method, url, init),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Edit closure Weihnachtsferien' }));
    const dialog = await screen.findByTestId('closure-dialog');
    expect(within(dialog).getByTestId(`closure-units-chip-${own.id}`)).toHaveTextContent('Zimmer 63');
    expect(unitSearches(fetchMock)).toEqual([]);
    const units = within(dialog).getByRole('combobox', { name: 'Units' });
    await userEvent.type(units, 'Zimmer 69');
    await userEvent.click(await screen.findByRole('option', { name: 'Zimmer 69' }));
    expect(unitSearches(fetchMock)).toContain('Zimmer 69');
    expect(within(dialog).getByTestId(`closure-units-chip-${far.id}`)).toHaveTextContent('Zimmer 69');
    await userEvent.click(within(dialog).getByTestId('closure-save'));
    expect(await screen.findByTestId('toast-closure-saved')).toHaveTextContent('Closure saved');
    expect(bodyOf(calls(fetchMock, 'PATCH', `/api/companies/c1/closures/${closure.id}`)[0])).toMatchObject({
      scope: 'units',
      units: [own.id, far.id],
    });
  });

  it('shows a member who only reads (ems) the closures without any control to change them', async () => {
    open([testClosure()], undefined, 'en', 'ems');
    const table = await screen.findByTestId('closures-table');
    expect(within(table).getByText('Weihnachtsferien')).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Closures' }).length).toBeGreaterThan(0);
    expect(screen.queryByTestId('closure-new')).toBeNull();
    expect(screen.queryByTestId('closures-table-header-actions')).toBeNull();
    expect(within(table).queryAllByRole('button', { name: /closure/ })).toEqual([]);
  });

  it('shows a member who only reads (ems) an empty list without a create button', async () => {
    open([], undefined, 'en', 'ems');
    const empty = await screen.findByTestId('closures-empty');
    expect(within(empty).queryByTestId('closures-empty-new')).toBeNull();
    expect(within(empty).getByTestId('closures-read-only')).toHaveTextContent(
      'Your role may only view closures.',
    );
    expect(screen.queryByTestId('closure-new')).toBeNull();
  });
});
