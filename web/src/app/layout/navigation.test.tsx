/**
 * Navigation state: on /settings/billing only "Shop" is current (both it and "Einstellungen" were
 * highlighted), and a newly opened screen starts at the top (the changelog opened as far down as
 * the help page had been scrolled).
 */
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderRoutes } from '../../test/render.tsx';
import { signIn } from '../../test/signed-in.ts';
import { setLanguage } from '../i18n.ts';
import { routes } from '../router.tsx';
import { currentTarget } from './app-shell.tsx';

const current = () =>
  [...document.querySelectorAll('#nav-desktop [aria-current="page"]')].map((link) =>
    link.getAttribute('data-testid'),
  );

describe('navigation', () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('de');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('marks only the entry that matches most of the path', () => {
    const targets = ['/units', '/settings', '/settings/billing', '/settings/help/changelog'];
    expect(currentTarget(targets, '/settings/billing')).toBe('/settings/billing');
    expect(currentTarget(targets, '/settings/help/changelog')).toBe('/settings/help/changelog');
    expect(currentTarget(targets, '/settings/help')).toBe('/settings');
    expect(currentTarget(targets, '/units/42')).toBe('/units');
    expect(currentTarget(targets, '/unitsx')).toBeUndefined();
  });

  it('highlights the shop alone on /settings/billing and the settings alone on /settings/general', async () => {
    const { session } = signIn();
    const { router } = renderRoutes(routes, '/settings/billing', { session });
    await waitFor(() => expect(current()).toEqual(['nav-shop']));
    expect(screen.getAllByTestId('nav-settings')[0]).not.toHaveAttribute('aria-current');
    await router.navigate('/settings/general');
    await waitFor(() => expect(current()).toEqual(['nav-settings']));
    await router.navigate('/settings/help/changelog');
    await waitFor(() => expect(current()).toEqual(['nav-changelog']));
  });

  it('opens a new screen at its top', async () => {
    const scrolled: number[] = [];
    vi.spyOn(Element.prototype, 'scrollTop', 'set').mockImplementation(function (this: Element, top: number) {
      if (this === (document.scrollingElement ?? document.documentElement)) scrolled.push(top);
    });
    const { session } = signIn();
    const { router } = renderRoutes(routes, '/settings/help', { session });
    expect(await screen.findByTestId('settings-tab-help')).toHaveAttribute('aria-current', 'page');
    scrolled.length = 0;
    await router.navigate('/settings/help/changelog');
    await waitFor(() => expect(scrolled).toEqual([0]));
    expect(router.location().pathname).toBe('/settings/help/changelog');
  });

  it('closes the phone menu on Escape and leaves focus on its button', async () => {
    const { session } = signIn();
    renderRoutes(routes, '/units', { session });
    const toggle = await screen.findByRole('button', { name: 'Menü öffnen' });
    await userEvent.click(toggle);
    expect(document.getElementById('nav-mobile')).not.toBeNull();
    await userEvent.keyboard('{Escape}');
    expect(document.getElementById('nav-mobile')).toBeNull();
    expect(screen.getByRole('button', { name: 'Menü öffnen' })).toHaveFocus();
  });
});
