/**
 * The rooms list's multi-select and bulk edit: a checkbox per row named after the room, one for
 * the page, the selection kept across pages of the current search, a bar of actions, and a dialog
 * per action — limits (German decimals, the company range, min ≤ max), group, QR access (the
 * allowance's refusal names the free codes) and delete (names how many and what goes with them).
 * After a success a toast says how many rooms changed, the list is fetched again and the
 * selection is gone. Members who only read see none of it.
 */
import type { Unit } from '@heizplan/contracts/heating';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { fixedClock } from '../../test/clock.ts';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testCompany, testProfile } from '../../test/signed-in.ts';
import { heatingApi, testUnit } from '../../test/units-fixtures.ts';

const NOW = new Date('2026-11-24T09:00:00Z');

/** Twelve rooms "Raum 101" … "Raum 112", answered page by page (10 a page) as the server pages them. */
const ROOMS: Unit[] = Array.from({ length: 12 }, (_, i) => testUnit({ name: `Raum ${101 + i}` }));

const pagedUnits =
  (units: Unit[]): FetchHandler =>
  (method, url) => {
    const [path, search] = url.split('?') as [string, string | undefined];
    if (method !== 'GET' || path !== '/api/companies/c1/units') return undefined;
    const params = new URLSearchParams(search);
    const q = params.get('q')?.toLowerCase();
    const found = q ? units.filter((u) => u.name.toLowerCase().includes(q)) : units;
    const page = Number(params.get('page') ?? 1);
    const size = Number(params.get('size') ?? 10);
    return json(200, {
      results: found.slice((page - 1) * size, page * size),
      count: found.length,
      page,
      size,
    });
  };

function open(api: FetchHandler, role: 'admin' | 'heating' | 'ems' = 'admin') {
  const { session, fetchMock } = signIn({ profile: testProfile({ lang: 'de' }), extra: api });
  return { ...renderRoutes(routes, '/units', { session, clock: fixedClock(NOW) }), fetchMock, role };
}

type FetchMock = ReturnType<typeof signIn>['fetchMock'];
const bodiesOf = (fetchMock: FetchMock, url: string) =>
  fetchMock.mock.calls
    .filter(([u, init]) => init?.method === 'POST' && u === url)
    .map(([, init]) => JSON.parse(String(init?.body)));
const listCalls = (fetchMock: FetchMock) =>
  fetchMock.mock.calls.filter(([u]) => String(u).startsWith('/api/companies/c1/units?')).length;

/** The rooms list with `more` answered first, as a member of `role`. */
const api = (more: FetchHandler = () => undefined, role: 'admin' | 'heating' | 'ems' = 'admin') =>
  heatingApi(
    [],
    (method, url, init) => more(method, url, init) ?? pagedUnits(ROOMS)(method, url, init),
    testCompany({ role }),
  );

async function select(...names: string[]) {
  for (const name of names)
    await userEvent.click(await screen.findByRole('checkbox', { name: `${name} auswählen` }));
}

describe('rooms list bulk edit', { timeout: 30_000 }, () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('de');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('selects rooms by their names and a whole page, keeps the selection across pages, and clears it', async () => {
    open(api());
    await select('Raum 101', 'Raum 102');
    const bar = screen.getByRole('region', { name: 'Aktionen für die ausgewählten Räume' });
    expect(within(bar).getByText('2 ausgewählt')).toBeVisible();
    for (const action of ['Grenzen setzen', 'Gruppe ändern', 'QR-Zugang', 'Löschen', 'Auswahl aufheben']) {
      expect(within(bar).getByRole('button', { name: action })).toBeVisible();
    }
    // Half of the page: the header's box is half-checked; pressing it selects the rest of the page.
    const page = screen.getByRole('checkbox', { name: 'Alle auf dieser Seite auswählen' });
    expect(page).toHaveProperty('indeterminate', true);
    await userEvent.click(page);
    expect(within(bar).getByText('10 ausgewählt')).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Nächste Seite' }));
    await select('Raum 112');
    expect(within(bar).getByText('11 ausgewählt')).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Vorherige Seite' }));
    expect(await screen.findByRole('checkbox', { name: 'Raum 105 auswählen' })).toBeChecked();
    await userEvent.click(within(bar).getByRole('button', { name: 'Auswahl aufheben' }));
    expect(screen.queryByRole('region', { name: 'Aktionen für die ausgewählten Räume' })).toBeNull();
    expect(screen.getByRole('checkbox', { name: 'Raum 105 auswählen' })).not.toBeChecked();
  });

  it('starts a new selection when the search changes', async () => {
    open(api());
    await select('Raum 101');
    await userEvent.type(screen.getByTestId('units-search'), '11');
    await screen.findByRole('checkbox', { name: 'Raum 111 auswählen' });
    await waitFor(() => expect(screen.queryByText('1 ausgewählt')).toBeNull());
  });

  it('names the boxes in English too, and lists each room’s limits in the language’s numbers', async () => {
    await setLanguage('en');
    const limited = testUnit({ name: 'Raum 201', wallControlMin: 19.5, wallControlMax: 22 });
    const { session } = signIn({
      profile: testProfile({ lang: 'en' }),
      extra: heatingApi([limited, testUnit({ name: 'Raum 202' })]),
    });
    renderRoutes(routes, '/units', { session, clock: fixedClock(NOW) });
    expect(await screen.findByRole('checkbox', { name: 'Select Raum 201' })).toBeVisible();
    expect(screen.getByRole('checkbox', { name: 'Select all on this page' })).toBeVisible();
    expect(screen.getByTestId(`unit-limits-${limited.id}`)).toHaveTextContent('Limits 19.5–22 °C');
    // Without limits of its own a room shows none (the company's default applies).
    expect(screen.getAllByText(/^Limits/)).toHaveLength(1);
  });

  it('shows the limits in German numbers', async () => {
    const limited = testUnit({ name: 'Raum 301', wallControlMin: 19.5, wallControlMax: 22 });
    open(heatingApi([limited]));
    expect(await screen.findByTestId(`unit-limits-${limited.id}`)).toHaveTextContent('Grenzen 19,5–22 °C');
  });

  it('offers no selection to a member who only reads', async () => {
    open(api(undefined, 'ems'), 'ems');
    await screen.findByRole('link', { name: 'Raum 101' });
    expect(screen.queryByRole('checkbox')).toBeNull();
  });

  it('sets the limits of the selected rooms in German decimals, checked like a single room’s', async () => {
    const { fetchMock } = open(
      api((method, url) =>
        method === 'POST' && url === '/api/companies/c1/units/bulk-update'
          ? json(200, { count: 2 })
          : undefined,
      ),
    );
    await select('Raum 101', 'Raum 103');
    await userEvent.click(screen.getByRole('button', { name: 'Grenzen setzen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Grenzen für 2 Räume' });
    const min = within(dialog).getByRole('textbox', { name: 'Minimum (°C)' });
    const max = within(dialog).getByRole('textbox', { name: 'Maximum (°C)' });
    // Above the company's 28 °C, then min above max: refused before anything is sent.
    await userEvent.type(min, '19,5');
    // Leaving the minimum does not call the maximum, not yet typed, missing.
    await userEvent.tab();
    expect(within(dialog).queryByText('Bitte geben Sie eine Zahl ein.')).toBeNull();
    await userEvent.type(max, '30');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Grenzen übernehmen' }));
    expect(await within(dialog).findByText(/Höchstens 28 °C/)).toBeVisible();
    await userEvent.clear(max);
    await userEvent.type(max, '18');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Grenzen übernehmen' }));
    expect(
      (await within(dialog).findAllByText('Das Minimum darf nicht über dem Maximum liegen.')).length,
    ).toBeGreaterThan(0);
    expect(bodiesOf(fetchMock, '/api/companies/c1/units/bulk-update')).toEqual([]);
    await userEvent.clear(max);
    await userEvent.type(max, '22');
    expect(within(dialog).getByText('Gelesen als 19,5')).toBeVisible();
    const before = listCalls(fetchMock);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Grenzen übernehmen' }));
    expect(await screen.findByText('Grenzen von 2 Räumen geändert')).toBeVisible();
    expect(bodiesOf(fetchMock, '/api/companies/c1/units/bulk-update')).toEqual([
      { unitIds: [ROOMS[0]?.id, ROOMS[2]?.id], changes: { wallControlMin: 19.5, wallControlMax: 22 } },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByText('2 ausgewählt')).toBeNull();
    await waitFor(() => expect(listCalls(fetchMock)).toBeGreaterThan(before));
  });

  it('clears the limits so the company’s default applies, and shows a refusal of the server under the field', async () => {
    let answer = json(400, {
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      code: 'out_of_range',
      params: { min: 5, max: 26 },
      errors: [
        { field: 'changes.wallControlMax', message: 'x', code: 'out_of_range', params: { min: 5, max: 26 } },
      ],
    });
    const { fetchMock } = open(
      api((method, url) =>
        method === 'POST' && url === '/api/companies/c1/units/bulk-update' ? answer : undefined,
      ),
    );
    await select('Raum 102');
    await userEvent.click(screen.getByRole('button', { name: 'Grenzen setzen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Grenzen für 1 Raum' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Minimum (°C)' }), '20');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Maximum (°C)' }), '27');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Grenzen übernehmen' }));
    expect(await within(dialog).findByText(/Höchstens 26 °C/)).toBeVisible();
    answer = json(200, { count: 1 });
    await userEvent.click(within(dialog).getByRole('radio', { name: /Standard der Firma/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Grenzen übernehmen' }));
    expect(await screen.findByText('Grenzen von 1 Raum geändert')).toBeVisible();
    expect(bodiesOf(fetchMock, '/api/companies/c1/units/bulk-update').at(-1)).toEqual({
      unitIds: [ROOMS[1]?.id],
      changes: { wallControlMin: null, wallControlMax: null },
    });
  });

  it('puts the selected rooms into a group, or out of any', async () => {
    const group = { id: '00000000-0000-4000-8000-0000000000aa', name: 'Nordflügel' };
    const { fetchMock } = open(
      api((method, url) => {
        if (method === 'GET' && url.startsWith('/api/companies/c1/groups'))
          return json(200, { results: [{ ...group, unitCount: 0 }], count: 1, page: 1, size: 200 });
        return method === 'POST' && url === '/api/companies/c1/units/bulk-update'
          ? json(200, { count: 3 })
          : undefined;
      }),
    );
    await select('Raum 101', 'Raum 102', 'Raum 104');
    await userEvent.click(screen.getByRole('button', { name: 'Gruppe ändern' }));
    const dialog = await screen.findByRole('dialog', { name: 'Gruppe für 3 Räume' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Übernehmen' }));
    expect(await within(dialog).findByText('Bitte wählen Sie eine Option.')).toBeVisible();
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Gruppe' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Nordflügel' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Übernehmen' }));
    expect(await screen.findByText('3 Räume in „Nordflügel“ verschoben')).toBeVisible();
    expect(bodiesOf(fetchMock, '/api/companies/c1/units/bulk-update')).toEqual([
      { unitIds: [ROOMS[0]?.id, ROOMS[1]?.id, ROOMS[3]?.id], changes: { groupId: group.id } },
    ]);

    await select('Raum 105');
    await userEvent.click(screen.getByRole('button', { name: 'Gruppe ändern' }));
    const again = await screen.findByRole('dialog', { name: 'Gruppe für 1 Raum' });
    await userEvent.click(within(again).getByRole('combobox', { name: 'Gruppe' }));
    await userEvent.click(
      await screen.findByRole('option', { name: 'Keine Gruppe (aus der Gruppe nehmen)' }),
    );
    await userEvent.click(within(again).getByRole('button', { name: 'Übernehmen' }));
    await waitFor(() =>
      expect(bodiesOf(fetchMock, '/api/companies/c1/units/bulk-update').at(-1)).toEqual({
        unitIds: [ROOMS[4]?.id],
        changes: { groupId: null },
      }),
    );
  });

  it('says once that rooms are unknown when some were deleted meanwhile, changing nothing', async () => {
    open(
      api((method, url) =>
        method === 'POST' && url === '/api/companies/c1/units/bulk-qr-code'
          ? json(404, {
              type: 'about:blank',
              title: 'Not Found',
              status: 404,
              code: 'unknown_unit',
              errors: [0, 1].map((i) => ({ field: `unitIds.${i}`, message: 'x', code: 'unknown_unit' })),
            })
          : undefined,
      ),
    );
    await select('Raum 101', 'Raum 102');
    await userEvent.click(screen.getByRole('button', { name: 'QR-Zugang' }));
    const dialog = await screen.findByRole('dialog', { name: 'QR-Zugang für 2 Räume' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Übernehmen' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      /^Unbekannter Raum. Vielleicht wurde er inzwischen gelöscht.$/,
    );
    expect(screen.getByTestId('units-bulk-count')).toHaveTextContent('2 ausgewählt');
  });

  it('enables QR codes within the allowance and says how many are free when it cannot', async () => {
    let answer = json(409, {
      type: 'about:blank',
      title: 'Conflict',
      status: 409,
      code: 'qr_allowance_short',
      params: { free: 1, needed: 3 },
    });
    const { fetchMock } = open(
      api((method, url) => {
        if (method === 'GET' && url === '/api/companies/c1/qr-codes')
          return json(200, { unlimited: false, allowance: 5, used: 4, remaining: 1, results: [] });
        return method === 'POST' && url === '/api/companies/c1/units/bulk-qr-code' ? answer : undefined;
      }),
    );
    await select('Raum 101', 'Raum 102', 'Raum 103');
    await userEvent.click(screen.getByRole('button', { name: 'QR-Zugang' }));
    const dialog = await screen.findByRole('dialog', { name: 'QR-Zugang für 3 Räume' });
    expect(await within(dialog).findByText('Noch 1 von 5 QR-Codes frei (einer je Lizenz).')).toBeVisible();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Übernehmen' }));
    expect(
      await within(dialog).findByText(
        'Dafür sind nicht genug QR-Codes frei: 1 frei, 3 benötigt. Es wurde nichts geändert.',
      ),
    ).toBeVisible();
    // Disabling needs no free code.
    answer = json(200, { unlimited: false, allowance: 5, used: 2, remaining: 3, count: 3, changed: 2 });
    await userEvent.click(within(dialog).getByRole('radio', { name: /Deaktivieren/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Übernehmen' }));
    expect(await screen.findByText('QR-Codes von 3 Räumen deaktiviert')).toBeVisible();
    expect(bodiesOf(fetchMock, '/api/companies/c1/units/bulk-qr-code').map((b) => b.enabled)).toEqual([
      true,
      false,
    ]);
  });

  it('deletes the selected rooms after a confirmation that names how many and what goes with them', async () => {
    const { fetchMock } = open(
      api((method, url) =>
        method === 'POST' && url === '/api/companies/c1/units/bulk-delete'
          ? json(200, { count: 2 })
          : undefined,
      ),
      'heating',
    );
    await select('Raum 106', 'Raum 107');
    await userEvent.click(screen.getByRole('button', { name: 'Löschen' }));
    const dialog = await screen.findByRole('dialog', { name: '2 Räume löschen?' });
    expect(dialog).toHaveTextContent(
      'Die Pläne, der Heizverlauf und die QR-Codes der 2 Räume werden mit gelöscht.',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: '2 Räume löschen' }));
    expect(await screen.findByText('2 Räume gelöscht')).toBeVisible();
    expect(bodiesOf(fetchMock, '/api/companies/c1/units/bulk-delete')).toEqual([
      { unitIds: [ROOMS[5]?.id, ROOMS[6]?.id] },
    ]);
    expect(screen.queryByText('2 ausgewählt')).toBeNull();
  });

  it('works with the keyboard alone', async () => {
    const { fetchMock } = open(
      api((method, url) =>
        method === 'POST' && url === '/api/companies/c1/units/bulk-delete'
          ? json(200, { count: 1 })
          : undefined,
      ),
    );
    const box = await screen.findByRole('checkbox', { name: 'Raum 101 auswählen' });
    box.focus();
    await userEvent.keyboard(' ');
    expect(box).toBeChecked();
    const remove = screen.getByRole('button', { name: 'Löschen' });
    remove.focus();
    await userEvent.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: '1 Raum löschen?' });
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
    expect(screen.getByTestId('units-bulk-count')).toHaveTextContent('1 ausgewählt');
    remove.focus();
    await userEvent.keyboard('{Enter}');
    const confirm = within(await screen.findByRole('dialog')).getByRole('button', { name: '1 Raum löschen' });
    confirm.focus();
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByText('1 Raum gelöscht')).toBeVisible();
    expect(bodiesOf(fetchMock, '/api/companies/c1/units/bulk-delete')).toHaveLength(1);
  });
});
