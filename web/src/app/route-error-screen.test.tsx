/** Route-level error boundaries: a screen that fails to render shows an error screen, never a blank page. */
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderRoutes } from '../test/render.tsx';
import { signIn, testProfile } from '../test/signed-in.ts';
import { setLanguage } from './i18n.ts';
import { routes } from './router.tsx';

vi.mock('./routes/units-page.tsx', () => ({
  UnitsPage: () => {
    throw new Error('units screen broke');
  },
}));

describe('route error screen', () => {
  beforeEach(() => {
    localStorage.clear();
    // React and React Router log the caught render error; the screen is what matters here.
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });

  it('shows the German error screen with a retry inside the shell, whose navigation stays', async () => {
    await setLanguage('de');
    const { session } = signIn();
    renderRoutes(routes, '/units', { session });
    const alert = await screen.findByTestId('route-error');
    expect(within(alert).getByRole('heading', { name: 'Etwas ist schiefgelaufen' })).toBeVisible();
    expect(within(alert).getByRole('button', { name: 'Erneut versuchen' })).toBeVisible();
    expect(screen.getAllByRole('link', { name: 'Geräte' }).length).toBeGreaterThan(0);
  });

  it('words it in English', async () => {
    await setLanguage('en');
    const { session } = signIn({ profile: testProfile({ lang: 'en' }) });
    renderRoutes(routes, '/units', { session });
    const alert = await screen.findByTestId('route-error');
    expect(within(alert).getByRole('heading', { name: 'Something went wrong' })).toBeVisible();
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeVisible();
  });
});
