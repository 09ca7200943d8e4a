/** Setup wizard (spec §2 "Setup screens", §3 setup data, §5 button rules) behind its guards. */
import type { LicenseRecord } from '@heizplan/contracts/account';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n, { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { getCurrentCompanyId, storeSignInLanguage } from '../../lib/client-storage.ts';
import { renderRoutes } from '../../test/render.tsx';
import { ACCEPTED_VERSIONS, type FetchHandler, json, signIn, testProfile } from '../../test/signed-in.ts';

const NONE_ACCEPTED: LicenseRecord = {
  avv_accepted_version: null,
  license_accepted_version: null,
  privacy_accepted_version: null,
};
const company = { id: 'c9', name: 'Stadtwerke', conf: {}, role: 'admin' };

function open(path: string, options: Parameters<typeof signIn>[0] = {}) {
  const { session, fetchMock } = signIn(options);
  return { ...renderRoutes(routes, path, { session }), fetchMock };
}

const calls = (fetchMock: ReturnType<typeof signIn>['fetchMock'], method: string) =>
  fetchMock.mock.calls.filter(([, init]) => (init?.method ?? 'GET') === method).map(([url]) => url);

describe('setup wizard', () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('en');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('redirects /setup to step 1', async () => {
    const { router } = open('/setup', { profile: testProfile({ lang: null, company_ids: [] }) });
    await waitFor(() => expect(router.location().pathname).toBe('/setup/1'));
  });

  it('step 1 offers one flag per locale, English with the US flag and chosen by default, and saves the choice', async () => {
    const extra: FetchHandler = (method, url) =>
      method === 'POST' && url === '/api/me/language?lang=de'
        ? json(200, testProfile({ lang: 'de', company_ids: [] }))
        : undefined;
    const { router, fetchMock } = open('/setup/1', {
      profile: testProfile({ lang: null, company_ids: [] }),
      extra,
    });
    expect(await screen.findByTestId('setup-lang-en')).toBeChecked();
    expect(screen.getByTestId('setup-lang-de')).not.toBeChecked();
    expect(screen.getByTestId('flag-us')).toBeInTheDocument();
    expect(screen.getByTestId('flag-de')).toBeInTheDocument();
    expect(screen.getAllByRole('radio')).toHaveLength(2);
    expect(screen.getByTestId('setup-step-1')).toHaveAttribute('data-state', 'current');

    await userEvent.click(screen.getByText('Deutsch'));
    expect(screen.getByTestId('setup-lang-de')).toBeChecked();
    await userEvent.click(screen.getByTestId('setup-next'));
    await waitFor(() => expect(router.location().pathname).toBe('/setup/2'));
    expect(calls(fetchMock, 'POST')).toEqual(['/api/me/language?lang=de']);
    // The screen switched to the chosen language.
    expect(await screen.findByRole('radio', { name: 'Neues Unternehmen' })).toBeVisible();
  });

  it('step 1 preselects the language the person signed up in', async () => {
    storeSignInLanguage('de');
    open('/setup/1', { profile: testProfile({ lang: null, company_ids: [] }) });
    expect(await screen.findByTestId('setup-lang-de')).toBeChecked();
    expect(screen.getByTestId('setup-lang-en')).not.toBeChecked();
  });

  it('step 2 disables next while the active field is empty, in both modes', async () => {
    open('/setup/2', { profile: testProfile({ company_ids: [] }) });
    const next = await screen.findByTestId('setup-next');
    expect(screen.getByTestId('setup-mode-create')).toHaveAttribute('aria-checked', 'true');
    expect(next).toBeDisabled();
    // Disabled, and said why (to screen readers too).
    expect(next).toHaveAccessibleDescription('Zum Fortfahren fehlt noch der Name des Unternehmens.');
    await userEvent.type(screen.getByTestId('setup-company-name'), '   ');
    expect(next).toBeDisabled();
    await userEvent.type(screen.getByTestId('setup-company-name'), 'Stadtwerke');
    expect(next).toBeEnabled();
    expect(screen.queryByTestId('setup-next-why')).toBeNull();

    await userEvent.click(screen.getByTestId('setup-mode-join'));
    expect(screen.queryByTestId('setup-company-name')).toBeNull();
    expect(next).toBeDisabled();
    expect(next).toHaveAccessibleDescription('Zum Fortfahren fehlt noch der Einladungscode.');
    await userEvent.type(screen.getByTestId('setup-invite-code'), 'abc');
    expect(next).toBeEnabled();
  });

  // A German user saw the server's 'Invalid invite code.'.
  it("step 2 shows the server's refusal under the invite-code field, in German", async () => {
    await setLanguage('de');
    const extra: FetchHandler = (method, url) =>
      method === 'POST' && url === '/api/invite/setup/wrong-code'
        ? json(404, {
            type: 'about:blank',
            title: 'Not Found',
            status: 404,
            detail: 'Invalid invite code.',
            code: 'invite_code_invalid',
          })
        : undefined;
    const { router } = open('/setup/2', { profile: testProfile({ lang: 'de', company_ids: [] }), extra });
    await userEvent.click(await screen.findByTestId('setup-mode-join'));
    await userEvent.type(screen.getByTestId('setup-invite-code'), 'wrong-code');
    await userEvent.click(screen.getByTestId('setup-next'));
    expect(await screen.findByTestId('setup-invite-code-field-error')).toHaveTextContent(
      'Ungültiger Einladungscode.',
    );
    expect(document.body).not.toHaveTextContent('Invalid invite code.');
    expect(screen.getByTestId('setup-invite-code')).toHaveAttribute('aria-invalid', 'true');
    expect(router.location().pathname).toBe('/setup/2');
  });

  it('step 2 creates a company, makes it the current one and goes to step 3', async () => {
    let profile = testProfile({ company_ids: [] });
    const extra: FetchHandler = (method, url) => {
      if (method === 'POST' && url === '/api/companies/setup?company_name=Stadtwerke') {
        profile = testProfile({ company_ids: ['c9'] });
        return json(201, company);
      }
      if (method === 'GET' && url === '/api/me/') return json(200, profile);
      if (method === 'GET' && url === '/api/licenses/c9/') return json(200, NONE_ACCEPTED);
      return undefined;
    };
    const { router } = open('/setup/2', { extra });
    await userEvent.type(await screen.findByTestId('setup-company-name'), '  Stadtwerke ');
    await userEvent.click(screen.getByTestId('setup-next'));
    await waitFor(() => expect(router.location().pathname).toBe('/setup/3'));
    expect(getCurrentCompanyId()).toBe('c9');
    expect(await screen.findByTestId('setup-privacy')).toBeVisible();
  });

  it('step 2 sends a user who has companies on to step 3, unless skipGuard=true', async () => {
    const first = open('/setup/2', { accepted: NONE_ACCEPTED });
    await waitFor(() => expect(first.router.location().pathname).toBe('/setup/3'));
    first.unmount();
    const second = open('/setup/2?skipGuard=true', { accepted: NONE_ACCEPTED });
    expect(await screen.findByTestId('setup-company-name')).toBeVisible();
    expect(second.router.location().pathname).toBe('/setup/2');
  });

  it('step 3 enables next only with all four boxes ticked, links the German documents, and ends on units', async () => {
    let accepted = NONE_ACCEPTED;
    const extra: FetchHandler = (method, url) => {
      if (method === 'POST' && url === '/api/licenses/c1/') {
        accepted = ACCEPTED_VERSIONS;
        return json(200, accepted);
      }
      if (method === 'GET' && url === '/api/licenses/c1/') return json(200, accepted);
      return undefined;
    };
    const { router, fetchMock } = open('/setup/3', { extra });
    const next = await screen.findByTestId('setup-next');
    const boxes = ['setup-privacy', 'setup-terms', 'setup-avv', 'setup-declaration'];
    for (const box of boxes) {
      expect(next).toBeDisabled();
      await userEvent.click(screen.getByTestId(box));
    }
    expect(next).toBeEnabled();
    await userEvent.click(screen.getByTestId('setup-declaration'));
    expect(next).toBeDisabled();
    await userEvent.click(screen.getByTestId('setup-declaration'));

    const links = screen
      .getAllByRole('link')
      .map((a) => [a.getAttribute('href'), a.getAttribute('hreflang')]);
    expect(links).toEqual([
      ['/legal/datenschutz.html', 'de'],
      ['/legal/lizenz.html', 'de'],
      ['/legal/avv.html', 'de'],
    ]);

    await userEvent.click(next);
    await waitFor(() => expect(router.location().pathname).toBe('/units'));
    expect(calls(fetchMock, 'POST')).toEqual(['/api/licenses/c1/']);
  });

  it('step 3 sends a user whose agreements are accepted to units', async () => {
    const { router } = open('/setup/3');
    await waitFor(() => expect(router.location().pathname).toBe('/units'));
  });

  it('step 3 tells a member who is not an admin that an admin must accept, with no checkboxes', async () => {
    const { fetchMock } = open('/setup/3', { accepted: NONE_ACCEPTED, role: 'heating' });
    expect(await screen.findByTestId('setup-admin-must-accept')).toHaveTextContent(
      'Eine Administratorin oder ein Administrator des Unternehmens muss sie annehmen',
    );
    expect(screen.queryByTestId('setup-privacy')).toBeNull();
    expect(screen.getByTestId('setup-logout')).toHaveAttribute('href', '/logout');
    expect(calls(fetchMock, 'POST')).toEqual([]);
  });

  it('step 2 opened from an invite link fills in the code for a new person, who joins with next', async () => {
    const extra: FetchHandler = (method, url) =>
      method === 'POST' && url === '/api/invite/setup/MAILEDCODE' ? json(200, company) : undefined;
    const { router, fetchMock } = open('/setup/2?skipGuard=true&invite_code=MAILEDCODE', {
      profile: testProfile({ company_ids: [] }),
      extra,
    });
    expect(await screen.findByTestId('setup-invite-code')).toHaveValue('MAILEDCODE');
    expect(screen.getByTestId('setup-mode-join')).toHaveAttribute('aria-checked', 'true');
    expect(calls(fetchMock, 'POST')).toEqual([]);
    await userEvent.click(screen.getByTestId('setup-next'));
    await waitFor(() => expect(router.location().pathname).toBe('/setup/3'));
    expect(getCurrentCompanyId()).toBe('c9');
  });

  it('step 2 opened from an invite link joins at once for a person who already has a company', async () => {
    const extra: FetchHandler = (method, url) =>
      method === 'POST' && url === '/api/invite/setup/MAILEDCODE' ? json(200, company) : undefined;
    const { router, fetchMock } = open('/setup/2?skipGuard=true&invite_code=MAILEDCODE', { extra });
    await waitFor(() => expect(getCurrentCompanyId()).toBe('c9'));
    await waitFor(() => expect(router.location().pathname).not.toBe('/setup/2'));
    expect(calls(fetchMock, 'POST')).toEqual(['/api/invite/setup/MAILEDCODE']);
  });
});

describe('setup after an invite link or a removal', () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('en');
  });
  afterEach(() => vi.unstubAllGlobals());

  /** A person who registered from an invite link: no language, no company yet; joining adds `c9`. */
  function invited(agreements: LicenseRecord) {
    let profile = testProfile({ lang: null, company_ids: [] });
    const extra: FetchHandler = (method, url) => {
      if (method === 'POST' && url === '/api/me/language?lang=de') {
        profile = { ...profile, lang: 'de' };
        return json(200, profile);
      }
      if (method === 'POST' && url === '/api/invite/setup/MAILEDCODE') {
        profile = { ...profile, company_ids: ['c9'] };
        return json(200, company);
      }
      if (method === 'GET' && url === '/api/me/') return json(200, profile);
      if (method === 'GET' && url === '/api/licenses/c9/') return json(200, agreements);
      if (method === 'GET' && url === '/api/companies/c9/') return json(200, { ...company, role: 'heating' });
      return undefined;
    };
    storeSignInLanguage('de');
    return open('/setup/2?skipGuard=true&invite_code=MAILEDCODE', { extra });
  }

  it('goes on into the app after joining from an invite link, keeping the sign-up language', async () => {
    const { router, fetchMock } = invited(ACCEPTED_VERSIONS);
    await userEvent.click(await screen.findByTestId('setup-next'));
    await waitFor(() => expect(router.location().pathname).toBe('/units'));
    expect(calls(fetchMock, 'POST')).toEqual(['/api/invite/setup/MAILEDCODE', '/api/me/language?lang=de']);
  });

  it('goes on to step 3 after joining when the agreements still need accepting, with the language kept', async () => {
    const { router, fetchMock } = invited(NONE_ACCEPTED);
    await userEvent.click(await screen.findByTestId('setup-next'));
    await waitFor(() => expect(router.location().pathname).toBe('/setup/3'));
    // Accepting them later leads to the units, not back to step 1 for the language.
    expect(calls(fetchMock, 'POST')).toContain('/api/me/language?lang=de');
  });

  it('tells a removed member which company removed them, until they dismiss it', async () => {
    await setLanguage('de');
    const notice = {
      id: '00000000-0000-4000-b000-000000000001',
      kind: 'removed_from_company' as const,
      company_name: 'Gymnasium Nord',
      created_at: '2026-11-20T10:00:00.000Z',
    };
    let profile = testProfile({ lang: 'de', company_ids: [], notices: [notice] });
    const extra: FetchHandler = (method, url) => {
      if (method === 'DELETE' && url === `/api/me/notices/${notice.id}`) {
        profile = { ...profile, notices: [] };
        return json(204);
      }
      if (method === 'GET' && url === '/api/me/') return json(200, profile);
      return undefined;
    };
    const { fetchMock } = open('/units', { extra });
    // Without a company the guard sends them to step 2, where they learn why.
    expect(await screen.findByTestId('setup-removed-notice')).toHaveTextContent(
      'Sie wurden aus der Firma „Gymnasium Nord“ entfernt.',
    );
    expect(screen.getByTestId('setup-company-name')).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Hinweis ausblenden' }));
    await waitFor(() => expect(screen.queryByTestId('setup-removed-notice')).toBeNull());
    expect(calls(fetchMock, 'DELETE')).toEqual([`/api/me/notices/${notice.id}`]);
  });
});

describe('main guard on the shell routes', () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('en');
  });
  afterEach(() => vi.unstubAllGlobals());

  it.each([
    [
      'the profile call fails',
      { extra: () => json(503, { type: 'x', title: 'Down', status: 503 }) },
      '/maintenance',
    ],
    ['the profile has no language', { profile: testProfile({ lang: null }) }, '/setup/1'],
    ['the user has no company', { profile: testProfile({ company_ids: [] }) }, '/setup/2'],
    [
      'an agreement is not accepted',
      { accepted: { ...ACCEPTED_VERSIONS, avv_accepted_version: null } },
      '/setup/3',
    ],
    ['everything is in order', {}, '/devices'],
  ] as const)('when %s, /devices ends on %s', async (_, options, target) => {
    vi.spyOn(console, 'info').mockImplementation(() => {});
    const { router } = open('/devices', options);
    await waitFor(() => expect(router.location().pathname).toBe(target));
  });

  it("applies the profile's language to the interface", async () => {
    await setLanguage('de');
    open('/devices', { profile: testProfile({ lang: 'en' }) });
    expect(await screen.findByRole('heading', { name: 'Devices' })).toBeVisible();
    expect(i18n.language).toBe('en');
  });
});
