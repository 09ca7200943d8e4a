/** Settings general and language (spec §2, §4, §5, §8) against stubbed account calls. */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n, { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testProfile } from '../../test/signed-in.ts';

function open(path: string, extra?: FetchHandler, profile = testProfile({ lang: 'en' })) {
  const { session, fetchMock } = signIn({ profile, extra });
  return { ...renderRoutes(routes, path, { session }), fetchMock };
}

const sent = (fetchMock: ReturnType<typeof signIn>['fetchMock'], method: string, url: string) =>
  fetchMock.mock.calls.filter(([u, init]) => init?.method === method && u === url);

describe('settings general', () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('en');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('saves name and email trimmed and says so', async () => {
    const extra: FetchHandler = (method, url, init) =>
      method === 'PUT' && url === '/api/me/'
        ? json(200, testProfile({ lang: 'en', ...JSON.parse(String(init.body)) }))
        : undefined;
    const { fetchMock } = open('/settings/general', extra);
    const name = await screen.findByTestId('profile-name');
    await userEvent.clear(name);
    // Empty: saving waits, and the line under the button says why.
    expect(screen.getByTestId('profile-save')).toBeDisabled();
    expect(screen.getByTestId('profile-save')).toHaveAccessibleDescription(
      'To save, enter a name and an email address.',
    );
    await userEvent.type(name, '  Grace Hopper  ');
    const email = screen.getByTestId('profile-email');
    await userEvent.clear(email);
    await userEvent.type(email, ' grace@example.com ');
    await userEvent.click(screen.getByTestId('profile-save'));
    expect(await screen.findByText('Profile updated')).toBeVisible();
    const [[, init]] = sent(fetchMock, 'PUT', '/api/me/') as [[string, RequestInit]];
    expect(JSON.parse(String(init.body))).toEqual({ name: 'Grace Hopper', email: 'grace@example.com' });
    expect(name).toHaveValue('Grace Hopper');
  });

  it('shows an error toast and the field message when saving the profile fails', async () => {
    const extra: FetchHandler = (method, url) =>
      method === 'PUT' && url === '/api/me/'
        ? json(400, {
            type: 'about:blank',
            title: 'Bad Request',
            status: 400,
            errors: [
              { field: 'email', message: 'Email must be a valid email address.', code: 'invalid_email' },
            ],
          })
        : undefined;
    open('/settings/general', extra);
    await userEvent.click(await screen.findByTestId('profile-save'));
    expect(await screen.findByText('Error updating')).toBeVisible();
    expect(screen.getByText('An error occurred while updating the profile')).toBeVisible();
    expect(await screen.findByTestId('profile-email-field-error')).toHaveTextContent(
      'Email must be a valid email address.',
    );
  });

  it("asks for the current password, refuses different new ones with 'The passwords do not match' and sends both in the body", async () => {
    const extra: FetchHandler = (method, url) =>
      method === 'PUT' && url === '/api/me/password' ? json(204) : undefined;
    const { fetchMock, router } = open('/settings/general', extra);
    expect(await screen.findByLabelText('Current password')).toHaveAttribute('type', 'password');
    await userEvent.type(screen.getByTestId('password-current'), 'old secret phrase');
    await userEvent.type(screen.getByTestId('password-new'), 'correct horse');
    await userEvent.type(screen.getByTestId('password-repeat'), 'correct horsx');
    expect(await screen.findByTestId('password-repeat-field-error')).toHaveTextContent(
      'The passwords do not match',
    );
    await userEvent.click(screen.getByTestId('password-save'));
    expect(sent(fetchMock, 'PUT', '/api/me/password')).toHaveLength(0);

    await userEvent.clear(screen.getByTestId('password-repeat'));
    await userEvent.type(screen.getByTestId('password-repeat'), 'correct horse');
    expect(screen.queryByTestId('password-repeat-field-error')).toBeNull();
    await userEvent.click(screen.getByTestId('password-save'));
    // The server ended every session: the card says so and the sign-in starts again.
    expect(await screen.findByTestId('password-changed')).toHaveTextContent(
      'Your password has been changed. Please sign in with the new password.',
    );
    const [[url, init]] = sent(fetchMock, 'PUT', '/api/me/password') as [[string, RequestInit]];
    expect(url).not.toContain('horse');
    expect(JSON.parse(String(init.body))).toEqual({
      currentPassword: 'old secret phrase',
      password: 'correct horse',
    });
    await userEvent.click(screen.getByTestId('password-sign-in'));
    await waitFor(() => expect(router.location().pathname).toBe('/logout'));
  });

  it('names the limit of a short new password in German, and a wrong current password under its field', async () => {
    await setLanguage('de');
    const extra: FetchHandler = (method, url) =>
      method === 'PUT' && url === '/api/me/password'
        ? json(400, {
            type: 'about:blank',
            title: 'Bad Request',
            status: 400,
            detail: 'The current password is not correct.',
            code: 'current_password_wrong',
            errors: [
              {
                field: 'currentPassword',
                message: 'The current password is not correct.',
                code: 'current_password_wrong',
              },
            ],
          })
        : undefined;
    const { fetchMock } = open('/settings/general', extra, testProfile({ lang: 'de' }));
    expect(await screen.findByLabelText('Aktuelles Passwort')).toBeInTheDocument();
    await userEvent.type(screen.getByTestId('password-current'), 'falsch');
    await userEvent.type(screen.getByTestId('password-new'), 'kurz');
    await userEvent.tab();
    expect(await screen.findByTestId('password-new-field-error')).toHaveTextContent(
      'Das Passwort muss mindestens 10 Zeichen haben.',
    );
    expect(screen.getByTestId('password-new')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByTestId('password-new')).toHaveAttribute('maxlength', '1024');
    await userEvent.clear(screen.getByTestId('password-new'));
    await userEvent.type(screen.getByTestId('password-new'), 'lang genug und mehr');
    await userEvent.type(screen.getByTestId('password-repeat'), 'lang genug und mehr');
    await userEvent.click(screen.getByTestId('password-save'));
    expect(await screen.findByTestId('password-current-field-error')).toHaveTextContent(
      'Das aktuelle Passwort stimmt nicht.',
    );
    expect(sent(fetchMock, 'PUT', '/api/me/password')).toHaveLength(1);
    expect(screen.queryByTestId('password-changed')).toBeNull();
  });

  it("requests verification for an unverified email and shows 'verification requested'", async () => {
    const extra: FetchHandler = (method, url) =>
      method === 'POST' && url === '/api/me/request-verification' ? json(202) : undefined;
    open('/settings/general', extra, testProfile({ lang: 'en', email_verified: false }));
    await userEvent.click(await screen.findByTestId('request-verification'));
    expect(await screen.findByTestId('verification-requested')).toHaveTextContent('Verification requested');
    expect(screen.getByText('Verification mail sent')).toBeVisible();
  });

  it('offers no verification for a verified email', async () => {
    open('/settings/general');
    await screen.findByTestId('profile-name');
    expect(screen.queryByTestId('email-unverified')).toBeNull();
  });

  it('requests account deletion only after confirming, then signs out', async () => {
    const extra: FetchHandler = (method, url) =>
      method === 'DELETE' && url === '/api/me/request_deletion' ? json(202) : undefined;
    const { router, fetchMock } = open('/settings/general', extra);
    await userEvent.click(await screen.findByTestId('deletion-open'));
    const dialog = await screen.findByTestId('deletion-dialog');
    await userEvent.click(within(dialog).getByTestId('deletion-cancel'));
    await waitFor(() => expect(screen.queryByTestId('deletion-dialog')).toBeNull());
    expect(sent(fetchMock, 'DELETE', '/api/me/request_deletion')).toHaveLength(0);

    await userEvent.click(screen.getByTestId('deletion-open'));
    await userEvent.click(
      within(await screen.findByTestId('deletion-dialog')).getByTestId('deletion-confirm'),
    );
    await waitFor(() => expect(router.location().pathname).toBe('/logout'));
    expect(sent(fetchMock, 'DELETE', '/api/me/request_deletion')).toHaveLength(1);
  });
});

describe('settings language', () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('de');
  });
  afterEach(() => vi.unstubAllGlobals());

  it("stores the language, switches the interface and says 'Language updated'", async () => {
    const extra: FetchHandler = (method, url) =>
      method === 'POST' && url === '/api/me/language?lang=en'
        ? json(200, testProfile({ lang: 'en' }))
        : undefined;
    const { fetchMock } = open('/settings/language', extra, testProfile({ lang: 'de' }));
    expect(await screen.findByTestId('language-de')).toBeChecked();
    await userEvent.click(screen.getByTestId('language-en'));
    await userEvent.click(screen.getByTestId('language-save'));
    expect(await screen.findByText('Language updated')).toBeVisible();
    expect(i18n.language).toBe('en');
    expect(sent(fetchMock, 'POST', '/api/me/language?lang=en')).toHaveLength(1);
  });

  it("says 'Error updating' when the language cannot be stored", async () => {
    const extra: FetchHandler = (method) =>
      method === 'POST'
        ? json(500, { type: 'about:blank', title: 'Internal Server Error', status: 500 })
        : undefined;
    open('/settings/language', extra, testProfile({ lang: 'de' }));
    await userEvent.click(await screen.findByTestId('language-save'));
    expect(await screen.findByText('Fehler beim Aktualisieren')).toBeVisible();
    expect(i18n.language).toBe('de');
  });
});
