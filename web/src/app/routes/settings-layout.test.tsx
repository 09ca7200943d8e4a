/**
 * At 375 px the settings tabs ran past the screen's edge in a sideways scrolling bar ("Team" and
 * "Unternehmen" out of sight); they wrap onto a second line instead.
 */
import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderRoutes } from '../../test/render.tsx';
import { signIn } from '../../test/signed-in.ts';
import { setLanguage } from '../i18n.ts';
import { routes } from '../router.tsx';

describe('settings tabs', () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('de');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('wrap on a phone instead of scrolling sideways, every tab in the page', async () => {
    const { session } = signIn();
    renderRoutes(routes, '/settings/team', { session });
    const tabs = await screen.findByTestId('settings-tabs');
    const list = tabs.querySelector('ul')!;
    for (const element of [tabs, list]) {
      expect([...element.classList].filter((c) => /overflow-x|min-w-max|^-mx-/.test(c))).toEqual([]);
    }
    expect(list).toHaveClass('flex-wrap');
    for (const tab of ['general', 'language', 'help', 'team', 'company']) {
      expect(screen.getByTestId(`settings-tab-${tab}`)).toBeVisible();
    }
    expect(screen.getByTestId('settings-tab-team')).toHaveAttribute('aria-current', 'page');
  });
});
