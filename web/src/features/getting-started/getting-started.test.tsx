/**
 * The getting-started checklist on the start screen (`/units`) and on request in Settings → Help:
 * the steps as an ordered list of links with their state in words, the progress, the newest
 * uplink in the company's time zone (German dates on German screens), no link where the role
 * may not go, nothing for members who only read or once every step is done, and an error that
 * says so. Found by role and accessible name, as a screen reader finds them.
 */
import type { Role } from '@heizplan/contracts/account';
import type { GettingStarted, GettingStartedStepId } from '@heizplan/contracts/getting-started';
import { GETTING_STARTED_STEPS } from '@heizplan/contracts/getting-started';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testCompany, testProfile } from '../../test/signed-in.ts';
import { heatingApi, problem } from '../../test/units-fixtures.ts';

const CHECKLIST = '/api/companies/c1/getting-started';

/** A checklist with `done` ticked and the newest uplink at `lastUplinkAt`. */
const checklist = (done: GettingStartedStepId[], lastUplinkAt: string | null = null): GettingStarted => ({
  steps: GETTING_STARTED_STEPS.map((id) => ({ id, done: done.includes(id) })),
  lastUplinkAt,
});

function open(
  path: string,
  answer: () => Response,
  { lang = 'de', role = 'admin' }: { lang?: 'de' | 'en'; role?: Role } = {},
) {
  const api: FetchHandler = (method, url) =>
    method === 'GET' && url === CHECKLIST
      ? answer()
      : heatingApi([], undefined, testCompany({ role }))(method, url, {});
  const { session, fetchMock } = signIn({ profile: testProfile({ lang }), role, extra: api });
  const rendered = renderRoutes(routes, path, { session });
  const asked = () => fetchMock.mock.calls.filter(([url]) => url === CHECKLIST).length;
  return { ...rendered, asked };
}

/**
 * Waits until the member's role has loaded, on the team screen, which tells a member who is not
 * an admin so once it knows the role: a screen visited next knows it from its first render, so
 * "nothing shown" cannot pass merely because the role was still loading.
 */
const roleKnown = () => screen.findByText('Nur Admins der Firma verwalten das Team.');

/** The list item of the step named `title`. */
const step = (list: HTMLElement, title: string) =>
  within(list)
    .getAllByRole('listitem')
    .find((item) => item.textContent?.includes(title)) as HTMLElement;

describe('getting-started checklist', { timeout: 20_000 }, () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('de');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('leads a new company from the start screen, each step a link with its state in words', async () => {
    const { router } = open('/units', () =>
      json(200, checklist(['building', 'units', 'uplinks'], '2026-12-02T13:05:00.000Z')),
    );
    const region = await screen.findByRole('region', { name: 'Erste Schritte' });
    expect(within(region).getByText('3 von 7 erledigt')).toBeVisible();
    const list = within(region).getByRole('list');
    expect(list.tagName).toBe('OL');
    expect(within(list).getAllByRole('listitem')).toHaveLength(7);
    const links = {
      'Gebäude anlegen': '/buildings',
      'Räume anlegen': '/units',
      'Heizplan erstellen': '/groups',
      'Lizenzen kaufen': '/settings/billing',
      'LoRaWAN-Netzwerkserver verbinden': '/devices',
      'Geräte den Räumen zuordnen': '/devices',
      'QR-Codes an die Türen': '/units/qr-sheet',
    };
    for (const [name, href] of Object.entries(links)) {
      expect(within(list).getByRole('link', { name })).toHaveAttribute('href', href);
    }
    expect(step(list, 'Gebäude anlegen')).toHaveTextContent('Erledigt');
    expect(step(list, 'Heizplan erstellen')).toHaveTextContent('Offen');
    expect(step(list, 'Heizplan erstellen')).not.toHaveTextContent('Erledigt');
    // The company's zone is Europe/Berlin: 13:05 UTC is 14:05 there.
    expect(step(list, 'LoRaWAN-Netzwerkserver verbinden')).toHaveTextContent(
      'Letzte Meldung: 02.12.2026, 14:05',
    );
    // The empty rooms list stays below it.
    expect(screen.getByText('Noch keine Räume')).toBeVisible();

    within(list).getByRole('link', { name: 'Gebäude anlegen' }).focus();
    await userEvent.keyboard('{Enter}');
    expect(router.location().pathname).toBe('/buildings');
  });

  it('says in English that no uplink has arrived yet', async () => {
    await setLanguage('en');
    open('/units', () => json(200, checklist([])), { lang: 'en' });
    const region = await screen.findByRole('region', { name: 'Getting started' });
    expect(within(region).getByText('0 of 7 done')).toBeVisible();
    expect(step(within(region).getByRole('list'), 'Connect the LoRaWAN network server')).toHaveTextContent(
      'Last message: never',
    );
  });

  it('shows a heating member the licence step without a link: billing is for admins', async () => {
    open('/units', () => json(200, checklist(['building'])), { role: 'heating' });
    const list = within(await screen.findByRole('region', { name: 'Erste Schritte' })).getByRole('list');
    expect(within(list).queryByRole('link', { name: 'Lizenzen kaufen' })).toBeNull();
    expect(step(list, 'Lizenzen kaufen')).toHaveTextContent('Das erledigt ein Admin Ihres Unternehmens.');
    expect(within(list).getByRole('link', { name: 'Gebäude anlegen' })).toBeVisible();
  });

  it('counts the steps the server sends: without billing there is no licence step', async () => {
    const withoutLicences = checklist(['building']);
    withoutLicences.steps = withoutLicences.steps.filter((s) => s.id !== 'licences');
    open('/units', () => json(200, withoutLicences));
    const region = await screen.findByRole('region', { name: 'Erste Schritte' });
    expect(within(region).getByText('1 von 6 erledigt')).toBeVisible();
    expect(within(region).queryByText('Lizenzen kaufen')).toBeNull();
  });

  it('shows nothing to a member who only reads, and does not ask for it', async () => {
    const { router, asked } = open('/settings/team', () => json(200, checklist([])), { role: 'ems' });
    await roleKnown();
    await router.navigate('/units');
    expect(await screen.findByText('Noch keine Räume')).toBeVisible();
    expect(screen.queryByRole('region', { name: 'Erste Schritte' })).toBeNull();
    expect(asked()).toBe(0);
  });

  it('is gone from the start screen once every step is done, and the help screen shows it again', async () => {
    const { asked } = open('/units', () => json(200, checklist([...GETTING_STARTED_STEPS])));
    expect(await screen.findByText('Noch keine Räume')).toBeVisible();
    await vi.waitFor(() => expect(asked()).toBe(1));
    expect(screen.queryByRole('region', { name: 'Erste Schritte' })).toBeNull();

    vi.unstubAllGlobals();
    open('/settings/help', () => json(200, checklist([...GETTING_STARTED_STEPS])));
    await userEvent.click(await screen.findByRole('button', { name: 'Erste Schritte anzeigen' }));
    const region = await screen.findByRole('region', { name: 'Erste Schritte' });
    expect(within(region).getByText('7 von 7 erledigt')).toBeVisible();
    expect(within(region).getAllByText('Erledigt')).toHaveLength(7);
    await userEvent.click(screen.getByRole('button', { name: 'Erste Schritte ausblenden' }));
    expect(screen.queryByRole('region', { name: 'Erste Schritte' })).toBeNull();
  });

  it('offers no getting started on the help screen to a member who only reads', async () => {
    const { router } = open('/settings/team', () => json(200, checklist([])), { role: 'ems' });
    await roleKnown();
    await router.navigate('/settings/help');
    expect(await screen.findByRole('heading', { name: 'Rundgang' })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Erste Schritte anzeigen' })).toBeNull();
  });

  it('says when the checklist cannot be loaded', async () => {
    open('/units', () => problem(500, 'Internal Server Error'));
    const region = await screen.findByRole('region', { name: 'Erste Schritte' });
    expect(await within(region).findByRole('alert')).toHaveTextContent(
      'Die ersten Schritte konnten nicht geladen werden.',
    );
  });
});
