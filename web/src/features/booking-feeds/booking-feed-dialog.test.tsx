/**
 * The booking calendar dialog (decision 0053): creating sends the contract's body with the room
 * and linked rooms picked by a server search (thousands of rooms); bad input is refused under the
 * fields with messages that name the field and its limit, in English and German, before any
 * request; a CalDAV feed's password is write-only (placeholder "unverändert", not sent when left
 * empty) and the masked address the server shows is not sent back; a server field error lands
 * under its field.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { bookingFeedsApi, FEEDS_NOW, testFeed } from '../../test/booking-feeds-fixtures.ts';
import { fixedClock } from '../../test/clock.ts';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testProfile } from '../../test/signed-in.ts';
import { problem, testUnit } from '../../test/units-fixtures.ts';

const hall = testUnit({ name: 'Aula' });
const corridor = testUnit({ name: 'Flur EG' });
/** Enough rooms that one search page does not hold them all. */
const rooms = [hall, corridor, ...Array.from({ length: 60 }, (_, i) => testUnit({ name: `Büro ${i + 1}` }))];

function open(feeds = [testFeed()], more?: FetchHandler, lang: 'en' | 'de' = 'en') {
  const base = bookingFeedsApi(feeds, rooms);
  const api: FetchHandler = (method, url, init) => more?.(method, url, init) ?? base(method, url, init);
  const { session, fetchMock } = signIn({ profile: testProfile({ lang }), extra: api });
  return { ...renderRoutes(routes, '/booking-feeds', { session, clock: fixedClock(FEEDS_NOW) }), fetchMock };
}

const requests = (fetchMock: ReturnType<typeof vi.fn>, method: string) =>
  fetchMock.mock.calls.filter(
    ([u, init]) =>
      String(u).startsWith('/api/companies/c1/booking-feeds') &&
      ((init as RequestInit | undefined)?.method ?? 'GET') === method,
  );
const bodyOf = (call: unknown[] | undefined) =>
  JSON.parse(String((call?.[1] as RequestInit | undefined)?.body));

async function pickRoom(dialog: HTMLElement, testid: string, typed: string, unitId: string) {
  await userEvent.type(within(dialog).getByTestId(testid), typed);
  await userEvent.click(await screen.findByTestId(`${testid}-${unitId}`));
}

describe('booking calendar dialog', { timeout: 20_000 }, () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('en');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('creates an ICS feed with a room and a linked room found by searching the server', async () => {
    const { fetchMock } = open([], (method, url) =>
      method === 'POST' && url === '/api/companies/c1/booking-feeds' ? json(201, testFeed()) : undefined,
    );
    await userEvent.click(await screen.findByTestId('booking-feeds-empty-new'));
    const dialog = await screen.findByTestId('booking-feed-dialog');
    // One page of 50 rooms of 62: the picker says to type.
    await userEvent.click(within(dialog).getByTestId('booking-feed-unit'));
    expect(await within(dialog).findByTestId('booking-feed-unit-more')).toHaveTextContent(
      'Showing 50 of 62 rooms',
    );
    expect(within(dialog).queryByTestId('booking-feed-username')).toBeNull();
    await userEvent.type(within(dialog).getByTestId('booking-feed-name'), 'Hall – Outlook');
    await userEvent.type(within(dialog).getByTestId('booking-feed-url'), 'webcal://example.com/hall.ics');
    await pickRoom(dialog, 'booking-feed-unit', 'Aul', hall.id);
    // A room beyond the first page is found by the server's search.
    const far = rooms.at(-1)!;
    await pickRoom(dialog, 'booking-feed-linked', far.name, far.id);
    expect(within(dialog).getByTestId(`booking-feed-linked-chip-${far.id}`)).toHaveTextContent('Büro 60');
    expect(fetchMock.mock.calls.some(([u]) => String(u).includes('q=B%C3%BCro+60'))).toBe(true);
    expect(within(dialog).getByTestId('booking-feed-keyword')).toHaveValue('nicht heizen');
    await userEvent.click(within(dialog).getByTestId('booking-feed-save'));

    expect(await screen.findByTestId('toast-booking-feed-saved')).toHaveTextContent('Booking calendar added');
    expect(bodyOf(requests(fetchMock, 'POST')[0])).toEqual({
      name: 'Hall – Outlook',
      kind: 'ics',
      unitId: hall.id,
      linkedUnitIds: [rooms.at(-1)!.id],
      url: 'webcal://example.com/hall.ics',
      username: '',
      minDurationMinutes: 0,
      ignoreKeyword: 'nicht heizen',
      preheatMinutes: 30,
      temperature: null,
    });
    await waitFor(() => expect(screen.queryByTestId('booking-feed-dialog')).toBeNull());
  });

  it.each([
    {
      lang: 'en' as const,
      texts: {
        url: 'The calendar address must start with https://, http:// or webcal://.',
        unit: 'Please choose the room whose calendar this is.',
        preheat: 'Pre-heat time: enter a whole number from 0 to 240 minutes.',
        minDuration: 'Minimum length: enter a whole number from 0 to 1,440 minutes.',
        temperature: 'Temperature: enter 0 to 40 °C',
      },
    },
    {
      lang: 'de' as const,
      texts: {
        url: 'Die Adresse des Kalenders muss mit https://, http:// oder webcal:// beginnen.',
        unit: 'Bitte wählen Sie den Raum, dessen Kalender das ist.',
        preheat: 'Vorheizzeit: Bitte geben Sie eine ganze Zahl von 0 bis 240 Minuten ein.',
        minDuration: 'Mindestdauer: Bitte geben Sie eine ganze Zahl von 0 bis 1.440 Minuten ein.',
        temperature: 'Temperatur: Bitte geben Sie 0 bis 40 °C ein',
      },
    },
  ])('refuses bad input under the fields, naming field and limit ($lang)', async ({ lang, texts }) => {
    await setLanguage(lang);
    const { fetchMock } = open([testFeed()], undefined, lang);
    await userEvent.click(await screen.findByTestId('booking-feed-new'));
    const dialog = await screen.findByTestId('booking-feed-dialog');
    await userEvent.type(within(dialog).getByTestId('booking-feed-name'), 'Aula');
    await userEvent.type(within(dialog).getByTestId('booking-feed-url'), 'ftp://example.com/a.ics');
    const preheat = within(dialog).getByTestId('booking-feed-preheat');
    await userEvent.clear(preheat);
    await userEvent.type(preheat, '300');
    await userEvent.type(within(dialog).getByTestId('booking-feed-min-duration'), '5000');
    await userEvent.type(within(dialog).getByTestId('booking-feed-temperature'), '45');
    await userEvent.click(within(dialog).getByTestId('booking-feed-save'));

    expect(await within(dialog).findByTestId('booking-feed-url-field-error')).toHaveTextContent(texts.url);
    expect(await within(dialog).findByTestId('booking-feed-unit-field-error')).toHaveTextContent(texts.unit);
    expect(await within(dialog).findByTestId('booking-feed-preheat-field-error')).toHaveTextContent(
      texts.preheat,
    );
    expect(await within(dialog).findByTestId('booking-feed-min-duration-field-error')).toHaveTextContent(
      texts.minDuration,
    );
    expect(await within(dialog).findByTestId('booking-feed-temperature-field-error')).toHaveTextContent(
      texts.temperature,
    );
    expect(preheat).toHaveAttribute('max', '240');
    expect(requests(fetchMock, 'POST')).toHaveLength(0);
  });

  it('edits a CalDAV feed: the password is write-only and the masked address is not sent back', async () => {
    const caldav = testFeed({
      kind: 'caldav',
      url: 'https://cloud.example.com/remote.php/dav/calendars/aula/',
      username: 'aula',
      hasPassword: true,
    });
    const { fetchMock } = open(
      [caldav],
      (method, url) =>
        method === 'PATCH' && url === `/api/companies/c1/booking-feeds/${caldav.id}`
          ? json(200, caldav)
          : undefined,
      'de',
    );
    await setLanguage('de');
    await userEvent.click(await screen.findByTestId(`booking-feed-edit-${caldav.id}`));
    const dialog = await screen.findByTestId('booking-feed-dialog');
    const password = within(dialog).getByTestId('booking-feed-password');
    expect(password).toHaveAttribute('type', 'password');
    expect(password).toHaveValue('');
    expect(password).toHaveAttribute('placeholder', 'unverändert');
    expect(within(dialog).getByTestId('booking-feed-unit')).toHaveValue('Aula');
    const preheat = within(dialog).getByTestId('booking-feed-preheat');
    await userEvent.clear(preheat);
    await userEvent.type(preheat, '45');
    await userEvent.click(within(dialog).getByTestId('booking-feed-save'));
    expect(await screen.findByTestId('toast-booking-feed-saved')).toHaveTextContent(
      'Buchungskalender gespeichert',
    );
    const first = bodyOf(requests(fetchMock, 'PATCH')[0]);
    expect(first).toMatchObject({ kind: 'caldav', username: 'aula', preheatMinutes: 45 });
    expect(first).not.toHaveProperty('password');
    expect(first).not.toHaveProperty('url');

    await userEvent.click(await screen.findByTestId(`booking-feed-edit-${caldav.id}`));
    const again = await screen.findByTestId('booking-feed-dialog');
    await userEvent.type(within(again).getByTestId('booking-feed-password'), 'geheim');
    await userEvent.click(within(again).getByTestId('booking-feed-save'));
    await waitFor(() => expect(requests(fetchMock, 'PATCH')).toHaveLength(2));
    expect(bodyOf(requests(fetchMock, 'PATCH')[1])).toMatchObject({ password: 'geheim' });
  });

  it("shows the server's field error under its field in German, with an error toast", async () => {
    const message = 'Unknown unit';
    open(
      [testFeed()],
      (method, url) =>
        method === 'POST' && url === '/api/companies/c1/booking-feeds'
          ? problem(
              404,
              'Not Found',
              message,
              [{ field: 'body.unitId', message, code: 'unknown_unit' }],
              'unknown_unit',
            )
          : undefined,
      'de',
    );
    await setLanguage('de');
    await userEvent.click(await screen.findByTestId('booking-feed-new'));
    const dialog = await screen.findByTestId('booking-feed-dialog');
    await userEvent.type(within(dialog).getByTestId('booking-feed-name'), 'Aula');
    await userEvent.type(within(dialog).getByTestId('booking-feed-url'), 'https://example.com/a.ics');
    await pickRoom(dialog, 'booking-feed-unit', 'Aul', hall.id);
    await userEvent.click(within(dialog).getByTestId('booking-feed-save'));
    expect(await screen.findByTestId('toast-booking-feed-error')).toHaveTextContent(
      'Fehler beim Anlegen des Buchungskalenders',
    );
    expect(await within(dialog).findByTestId('booking-feed-unit-field-error')).toHaveTextContent(
      'Unbekannter Raum. Vielleicht wurde er inzwischen gelöscht.',
    );
    expect(document.body.textContent).not.toContain(message);
  });
});
