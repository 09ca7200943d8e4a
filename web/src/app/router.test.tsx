import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderRoutes } from '../test/render.tsx';
import { signIn } from '../test/signed-in.ts';
import i18n, { setLanguage } from './i18n.ts';
import { routes } from './router.tsx';

describe('route map', () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('de');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows the German 404 page with a back link for an unknown path', async () => {
    renderRoutes(routes, '/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Seite nicht gefunden' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Zur Startseite' })).toHaveAttribute('href', '/');
  });

  it('shows the English 404 text after switching language, and remembers the choice', async () => {
    await setLanguage('en');
    renderRoutes(routes, '/nowhere');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeVisible();
    expect(localStorage.getItem('heizplan.lang')).toBe('en');
    expect(i18n.language).toBe('en');
  });

  it('shows the maintenance message of spec §8', async () => {
    await setLanguage('en');
    renderRoutes(routes, '/maintenance');
    expect(await screen.findByTestId('maintenance-text')).toHaveTextContent(
      "We're currently undergoing maintenance! Please check back later.",
    );
  });

  it('redirects / to units and /settings to general inside the shell with every nav label', async () => {
    const { session } = signIn();
    const { router } = renderRoutes(routes, '/', { session });
    expect(await screen.findByRole('heading', { name: 'Räume' })).toBeVisible();
    expect(router.location().pathname).toBe('/units');
    for (const label of [
      'Shop',
      'Räume',
      'Geräte',
      'Einstellungen',
      'Abmelden',
      'Geräte zuweisen',
      'Gateways',
      'Änderungen',
    ]) {
      expect((await screen.findAllByRole('link', { name: label })).length).toBeGreaterThan(0);
    }
    await router.navigate('/settings');
    await waitFor(() => expect(router.location().pathname).toBe('/settings/general'));
  });

  it('shows a member who only reads (ems) neither the shop, device assignment nor team and billing', async () => {
    const { session } = signIn({ role: 'ems' });
    const { router } = renderRoutes(routes, '/settings/general', { session });
    expect(await screen.findByTestId('settings-tab-company')).toBeVisible();
    expect(screen.getAllByRole('link', { name: 'Räume' }).length).toBeGreaterThan(0);
    for (const label of ['Shop', 'Geräte zuweisen']) {
      expect(screen.queryByRole('link', { name: label })).toBeNull();
    }
    expect(screen.queryByTestId('settings-tab-team')).toBeNull();
    expect(screen.queryByTestId('settings-tab-billing')).toBeNull();
    await router.navigate('/settings/team');
    expect(await screen.findByTestId('team-admins-only')).toBeVisible();
  });
});
