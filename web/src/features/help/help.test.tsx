/** Settings → help and the changelog (spec §2): the engine's precedence, devices, the public page, roles, support, changelog. */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testProfile } from '../../test/signed-in.ts';

const support =
  (email: string | null, url: string | null): FetchHandler =>
  (method, path) =>
    method === 'GET' && path === '/api/public/app-config'
      ? json(200, { version: '0.2.0', support: { email, url } })
      : undefined;

function open(path: string, api: FetchHandler, lang: 'de' | 'en' = 'de') {
  const { session, fetchMock } = signIn({ profile: testProfile({ lang }), extra: api });
  return { ...renderRoutes(routes, path, { session }), fetchMock };
}

describe('settings → help', () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('de');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('explains in German how the setpoint comes about, devices, the public page and the roles', async () => {
    open('/settings/help', support(null, null));
    const rules = await screen.findByTestId('help-setpoint-rules');
    expect(within(rules).getAllByRole('listitem')[0]).toHaveTextContent(/Pausiert.*Frostschutztemperatur/);
    expect(await screen.findByTestId('help-version')).toHaveTextContent('Sie nutzen Heizplan 0.2.0.');
    const setpoint = screen.getByTestId('help-setpoint');
    expect(setpoint).toHaveTextContent('Regelbetrieb aussetzen');
    expect(setpoint).toHaveTextContent('bis zum nächsten Schaltpunkt');
    expect(setpoint).toHaveTextContent('Ein eigener aktiver Plan des Raums geht einem Gruppenplan vor');
    expect(setpoint).toHaveTextContent(
      'Ein Plan für bestimmte Tage geht an diesen Tagen einem Saisonplan vor',
    );
    expect(setpoint).toHaveTextContent(
      'Gilt an einem Tag kein Plan, hält der Raum die Frostschutztemperatur',
    );
    expect(setpoint).toHaveTextContent('Temperaturbereich des Unternehmens');
    expect(setpoint).toHaveTextContent('Wandthermostat ignorieren');
    const devices = screen.getByTestId('help-devices');
    for (const term of ['DevEUI', 'AppKey', 'JoinEUI', 'LW:D0:', 'Lizenz'])
      expect(devices).toHaveTextContent(term);
    expect(screen.getByTestId('help-public-page')).toHaveTextContent(
      'mehr als 1,5 °C über der Raumtemperatur',
    );
    const roles = within(screen.getByTestId('help-roles')).getByRole('table', {
      name: 'Was jede Rolle darf',
    });
    expect(
      within(roles)
        .getAllByRole('rowheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Admin', 'Heizung', 'EMS (nur lesen)']);
  });

  it('links the configured support e-mail and page', async () => {
    open('/settings/help', support('hilfe@stadtwerke.example', 'https://hilfe.example/heizung'));
    const email = await screen.findByTestId('help-support-email');
    expect(email).toHaveAttribute('href', 'mailto:hilfe@stadtwerke.example');
    expect(email).toHaveTextContent('E-Mail: hilfe@stadtwerke.example');
    expect(screen.getByTestId('help-support-url')).toHaveAttribute('href', 'https://hilfe.example/heizung');
  });

  it('says so when no support contact is configured', async () => {
    open('/settings/help', support(null, null));
    expect(await screen.findByTestId('help-support-none')).toHaveTextContent(
      'Ihr Betreiber hat keinen Support-Kontakt hinterlegt.',
    );
    expect(screen.queryByTestId('help-support-email')).toBeNull();
  });

  it('links the accessibility statement and the legal pages in the UI language', async () => {
    open('/settings/help', support(null, null));
    const legal = await screen.findByRole('navigation', { name: 'Rechtliches' });
    expect(within(legal).getByRole('link', { name: 'Erklärung zur Barrierefreiheit' })).toHaveAttribute(
      'href',
      '/legal/barrierefreiheit.html',
    );
    expect(within(legal).getByRole('link', { name: 'Impressum' })).toHaveAttribute(
      'href',
      '/legal/impressum.html',
    );
  });

  it('reads in English', async () => {
    await setLanguage('en');
    open('/settings/help', support('help@example.com', null), 'en');
    expect(await screen.findByTestId('help-public-page')).toHaveTextContent(
      'more than 1.5 °C above the room temperature',
    );
    expect(await screen.findByTestId('help-support-email')).toHaveTextContent('E-mail: help@example.com');
    const legal = screen.getByRole('navigation', { name: 'Legal' });
    expect(within(legal).getByRole('link', { name: 'Accessibility statement' })).toHaveAttribute(
      'href',
      '/legal/accessibility.html',
    );
  });

  it('opens the changelog from the navigation entry "Änderungen" and from the help page', async () => {
    const user = userEvent.setup();
    const { router } = open('/units', support(null, null));
    const [entry] = await screen.findAllByRole('link', { name: 'Änderungen' });
    expect(entry).toHaveAttribute('href', '/settings/help/changelog');
    await user.click(entry as HTMLElement);
    const content = await screen.findByTestId('changelog-content');
    expect(router.location().pathname).toBe('/settings/help/changelog');
    // German readers get the German version of the file, not the English one.
    expect(within(content).getByRole('heading', { name: 'Version 0.1.0 – 25.11.2026' })).toBeVisible();
    expect(within(content).getAllByRole('heading', { name: 'Neu' })[0]).toBeVisible();
    expect(content).toHaveTextContent('Abonnements und Gerätelizenzen');
    expect(content).not.toHaveTextContent('Subscriptions and device licences');
    // Written for users: no settings of the server, no developer words.
    expect(content).not.toHaveTextContent(/SENTRY_DSN|SUPPORT_EMAIL|Promise|PATCH|`/);
    expect(screen.getByTestId('settings-tab-help')).toHaveAttribute('aria-current', 'page');

    await user.click(screen.getByTestId('changelog-back'));
    await user.click(await screen.findByTestId('help-changelog-link'));
    expect(await screen.findByTestId('changelog-content')).toBeVisible();
  });

  it('shows English readers the English changelog', async () => {
    open('/settings/help/changelog', support(null, null), 'en');
    const content = await screen.findByTestId('changelog-content');
    expect(within(content).getByRole('heading', { name: 'Version 0.2.0 – 26 Nov 2026' })).toBeVisible();
    expect(content).toHaveTextContent('Subscriptions and device licences');
    expect(content).not.toHaveTextContent('Abonnements');
  });
});
