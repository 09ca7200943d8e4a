/**
 * Every screen names itself in the document title, "<screen> – Heizplan", the room's name first
 * where there is one, and a navigation is announced in a polite live region (WCAG 2.1 SC 2.4.2 and
 * 4.1.3): before, every signed-in screen was "Heizplan".
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { testBuilding } from '../test/buildings-fixtures.ts';
import { listsApi } from '../test/lists-api.ts';
import { renderRoutes } from '../test/render.tsx';
import { json, signIn, testProfile } from '../test/signed-in.ts';
import { heatingApi, testUnit } from '../test/units-fixtures.ts';
import { setLanguage } from './i18n.ts';
import { routes } from './router.tsx';

const unit = testUnit({ name: 'Büro 1.01' });

function open(path: string, lang: 'de' | 'en') {
  const { session } = signIn({
    profile: testProfile({ lang }),
    extra: heatingApi([unit], (method, url, init) =>
      method === 'GET' && url === `/api/companies/c1/units/${unit.id}`
        ? json(200, unit)
        : listsApi([testBuilding()], { units: [unit] })(method, url, init),
    ),
  });
  return renderRoutes(routes, path, { session });
}

const titleIs = (title: string) => waitFor(() => expect(document.title).toBe(title));

describe('page titles', { timeout: 20_000 }, () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.unstubAllGlobals());

  it.each([
    ['/units', 'Räume – Heizplan'],
    ['/groups', 'Gruppen – Heizplan'],
    ['/buildings', 'Gebäude – Heizplan'],
    ['/devices', 'Geräte – Heizplan'],
    ['/alerts', 'Meldungen – Heizplan'],
    ['/settings/team', 'Team – Einstellungen – Heizplan'],
    ['/settings/company', 'Unternehmen – Einstellungen – Heizplan'],
    ['/does-not-exist', 'Seite nicht gefunden – Heizplan'],
  ])('%s is titled "%s" in German', async (path, title) => {
    await setLanguage('de');
    open(path, 'de');
    await titleIs(title);
  });

  it('puts the room first on its page, in English', async () => {
    await setLanguage('en');
    open(`/units/${unit.id}`, 'en');
    await titleIs('Büro 1.01 – Units – Heizplan');
  });

  it('announces the next screen after a navigation, not the first one', async () => {
    await setLanguage('de');
    open('/units', 'de');
    await titleIs('Räume – Heizplan');
    // The first screen is read with the page; the region stays empty until a navigation.
    const announcer = screen.getByTestId('route-announcer');
    expect(announcer).toHaveAttribute('role', 'status');
    expect(announcer).toHaveAttribute('aria-live', 'polite');
    expect(announcer).toBeEmptyDOMElement();

    const navigation = screen.getAllByRole('navigation', { name: 'Hauptnavigation' })[0] as HTMLElement;
    await userEvent.click(within(navigation).getByRole('link', { name: /Gruppen/ }));
    await titleIs('Gruppen – Heizplan');
    await waitFor(() => expect(announcer).toHaveTextContent('Gruppen – Heizplan'));
  });
});
