/** Login return handling (spec §2 "Login return", §8 login errors) with a fake UserManager. */
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ErrorResponse } from 'oidc-client-ts';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import i18n, { setLanguage } from '../../../app/i18n.ts';
import { freshToken, storeToken } from '../../../lib/client-storage.ts';
import { AuthSessionProvider } from '../auth-context.tsx';
import type { AuthSession } from '../auth-session.ts';
import { fakeManager, sessionWith, testUser } from '../test-manager.ts';
import { AuthGate } from './auth-gate.tsx';

function renderGate(session: AuthSession, path: string) {
  const router = createMemoryRouter(
    [
      { path: '/oops', element: <p>error page</p> },
      {
        element: <AuthGate />,
        children: [
          { path: '/', element: <p>home</p> },
          { path: '/units', element: <p>units</p> },
          { path: '/units/:id/log', element: <p>unit log</p> },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  render(
    <I18nextProvider i18n={i18n}>
      <AuthSessionProvider session={session}>
        <RouterProvider router={router} />
      </AuthSessionProvider>
    </I18nextProvider>,
  );
  return router;
}

describe('auth gate', () => {
  beforeEach(async () => {
    localStorage.clear();
    sessionStorage.clear();
    window.history.replaceState(null, '', '/?code=abc&state=s1');
    vi.spyOn(console, 'info').mockImplementation(() => {});
    await setLanguage('en');
  });

  it('completes a code+state return, resets the address to / and goes to the saved target', async () => {
    const manager = fakeManager();
    manager.signinCallback.mockResolvedValue(testUser({ returnTo: '/units/7/log?range=48h' }));
    const router = renderGate(sessionWith(manager), '/?code=abc&state=s1');
    expect(await screen.findByText('unit log')).toBeVisible();
    expect(manager.signinCallback).toHaveBeenCalledOnce();
    expect(manager.signinCallback).toHaveBeenCalledWith(`${window.location.origin}/?code=abc&state=s1`);
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/units/7/log?range=48h');
    expect(window.location.pathname).toBe('/');
    expect(window.location.search).toBe('');
    expect(freshToken()).toBe('access-1');
  });

  it('goes to / when no target was saved', async () => {
    const manager = fakeManager();
    const router = renderGate(sessionWith(manager), '/?code=abc&state=s1');
    expect(await screen.findByText('home')).toBeVisible();
    expect(router.state.location.search).toBe('');
  });

  it("shows 'Invalid State' when the state does not match, and does not log in again by itself", async () => {
    const manager = fakeManager();
    manager.signinCallback.mockRejectedValue(new Error('No matching state found in storage'));
    const router = renderGate(sessionWith(manager), '/?code=abc&state=forged');
    expect(await screen.findByTestId('login-error-message')).toHaveTextContent('Invalid State');
    expect(router.state.location.pathname).toBe('/');
    expect(manager.signinRedirect).not.toHaveBeenCalled();
    await userEvent.click(screen.getByTestId('login-again'));
    await waitFor(() => expect(manager.signinRedirect).toHaveBeenCalledOnce());
  });

  it('says to open the configured address instead of starting a sign-in that cannot complete here', async () => {
    window.history.replaceState(null, '', '/units');
    const manager = fakeManager();
    const publicUrl = 'http://heizplan.example:3000';
    const session = sessionWith(manager, {
      loadConfig: async () => ({
        issuer: `${publicUrl}/oidc`,
        client_id: 'web',
        audience: 'api',
        scope: 'openid',
        public_url: publicUrl,
      }),
    });
    renderGate(session, '/units');
    expect(await screen.findByTestId('login-elsewhere')).toHaveTextContent(
      `Heizplan is set up for ${publicUrl}. At ${window.location.origin} signing in cannot complete`,
    );
    expect(screen.getByTestId('login-elsewhere-link')).toHaveAttribute('href', `${publicUrl}/units`);
    expect(manager.signinRedirect).not.toHaveBeenCalled();
  });

  it('signs in as usual when the page is opened at the configured address', async () => {
    window.history.replaceState(null, '', '/units');
    const manager = fakeManager();
    const session = sessionWith(manager, {
      loadConfig: async () => ({
        issuer: 'https://issuer.test',
        client_id: 'web',
        audience: 'api',
        scope: 'openid',
        public_url: window.location.origin,
      }),
    });
    renderGate(session, '/units');
    await waitFor(() => expect(manager.signinRedirect).toHaveBeenCalledOnce());
  });

  it('goes to the configured error path when an error+state return fails', async () => {
    const manager = fakeManager();
    manager.signinCallback.mockRejectedValue(new ErrorResponse({ error: 'access_denied' }));
    const router = renderGate(
      sessionWith(manager, { loginErrorPath: '/oops' }),
      '/?error=access_denied&state=s1',
    );
    expect(await screen.findByText('error page')).toBeVisible();
    expect(router.state.location.pathname).toBe('/oops');
  });

  it('clears the local session on login_required without redirecting to the provider', async () => {
    const manager = fakeManager(testUser());
    storeToken('old', Date.now() / 1000 + 3600);
    manager.signinCallback.mockRejectedValue(new ErrorResponse({ error: 'login_required' }));
    renderGate(sessionWith(manager), '/?error=login_required&state=s1');
    expect(await screen.findByTestId('login-error')).toBeVisible();
    expect(manager.removeUser).toHaveBeenCalled();
    expect(freshToken()).toBeNull();
    expect(manager.signinRedirect).not.toHaveBeenCalled();
  });

  it('sends a user who is not signed in to login with the full current path as target', async () => {
    const manager = fakeManager(null);
    renderGate(sessionWith(manager), '/units?page=2#top');
    await waitFor(() => expect(manager.signinRedirect).toHaveBeenCalledOnce());
    expect(manager.signinRedirect).toHaveBeenCalledWith({
      state: { returnTo: '/units?page=2#top' },
      ui_locales: 'en',
    });
    expect(screen.getByTestId('signing-in')).toBeVisible();
    expect(screen.queryByText('units')).toBeNull();
  });

  it("lets the provider follow the browser's language while none was chosen here", async () => {
    localStorage.removeItem('heizplan.lang');
    const manager = fakeManager(null);
    renderGate(sessionWith(manager), '/units');
    await waitFor(() =>
      expect(manager.signinRedirect).toHaveBeenCalledWith({ state: { returnTo: '/units' } }),
    );
  });

  it('shows the screen to a signed-in user', async () => {
    storeToken('valid', Date.now() / 1000 + 3600);
    const manager = fakeManager(testUser());
    renderGate(sessionWith(manager), '/units');
    expect(await screen.findByText('units')).toBeVisible();
    expect(manager.signinRedirect).not.toHaveBeenCalled();
  });

  it('logs in again when the API answers 401 for an old session', async () => {
    storeToken('valid', Date.now() / 1000 + 3600);
    const manager = fakeManager(testUser());
    const session = sessionWith(manager);
    renderGate(session, '/units');
    expect(await screen.findByText('units')).toBeVisible();
    session.handleUnauthorized();
    await waitFor(() => expect(manager.signinRedirect).toHaveBeenCalledOnce());
    expect(freshToken()).toBeNull();
  });
});
