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
    expect(router.state.location.pathname).toBe('/units');
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
      expect(screen.getAllByRole('link', { name: label }).length).toBeGreaterThan(0);
    }
    await router.navigate('/settings');
    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/general'));
  });
});
