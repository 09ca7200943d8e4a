/** Two-factor sign-in in settings general (decision 0072) against stubbed account calls. */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testProfile } from '../../test/signed-in.ts';

const CODES = Array.from({ length: 10 }, (_, i) => `abcd${i}-efgh${i}`);
const ENROLMENT = {
  secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  otpauthUri: 'otpauth://totp/Heizplan:ada%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  qrSvg: '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
};

function open(extra: FetchHandler) {
  const { session, fetchMock } = signIn({ profile: testProfile({ lang: 'en' }), extra });
  return { ...renderRoutes(routes, '/settings/general', { session }), fetchMock };
}

const bodyOf = (fetchMock: ReturnType<typeof signIn>['fetchMock'], method: string, url: string) => {
  const call = fetchMock.mock.calls.find(([u, init]) => init?.method === method && u === url);
  return call ? JSON.parse(String(call[1]?.body)) : undefined;
};

describe('two-factor sign-in', () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('en');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('sets up: QR code and key, a wrong code under its field, then the recovery codes once', async () => {
    let enabled = false;
    const extra: FetchHandler = (method, url, init) => {
      if (method === 'GET' && url === '/api/me/second-factor')
        return json(200, { totp: enabled, recoveryCodesLeft: enabled ? 10 : 0 });
      if (method === 'POST' && url === '/api/me/second-factor/totp') return json(200, ENROLMENT);
      if (method === 'POST' && url === '/api/me/second-factor/totp/confirm') {
        if (JSON.parse(String(init.body)).code !== '123456') {
          return json(400, {
            type: 'about:blank',
            title: 'Bad Request',
            status: 400,
            code: 'totp_code_wrong',
            errors: [{ field: 'body.code', message: 'The code is not correct.', code: 'totp_code_wrong' }],
          });
        }
        enabled = true;
        return json(200, { recoveryCodes: CODES });
      }
      return undefined;
    };
    const { fetchMock } = open(extra);
    const card = within(await screen.findByRole('region', { name: 'Two-factor sign-in' }));
    expect(await card.findByText('Not set up.')).toBeVisible();
    // The step-up (decision 0078): the password before a factor is added.
    await userEvent.type(card.getByLabelText(/^Password/), 'geheim-genug');
    await userEvent.click(card.getByRole('button', { name: 'Set up' }));

    expect(await card.findByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
    expect(card.getByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP')).toBeVisible();
    const code = card.getByRole('textbox', { name: 'Verification code' });
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    await userEvent.type(code, '000000');
    await userEvent.click(card.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(code).toHaveAccessibleDescription('The code is not correct.'));

    await userEvent.clear(code);
    await userEvent.type(code, '123456');
    await userEvent.click(card.getByRole('button', { name: 'Confirm' }));
    const list = await card.findByRole('list', { name: 'Recovery codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(CODES);
    expect(card.getByText(/Keep these recovery codes safe/)).toBeVisible();
    expect(card.getByRole('link', { name: 'Download' })).toHaveAttribute('download');
    expect(bodyOf(fetchMock, 'POST', '/api/me/second-factor/totp/confirm')).toEqual({ code: '000000' });
    expect(bodyOf(fetchMock, 'POST', '/api/me/second-factor/totp')).toEqual({ password: 'geheim-genug' });

    await userEvent.click(card.getByRole('button', { name: 'Done' }));
    expect(await card.findByText('Set up. You have 10 recovery codes left.')).toBeVisible();
    expect(card.queryByRole('list', { name: 'Recovery codes' })).toBeNull();
  });

  it('asks for the password before setting up, and names a wrong one under its field', async () => {
    const extra: FetchHandler = (method, url) => {
      if (method === 'GET' && url === '/api/me/second-factor')
        return json(200, { totp: false, recoveryCodesLeft: 0 });
      if (method === 'POST' && url === '/api/me/second-factor/totp')
        return json(400, {
          type: 'about:blank',
          title: 'Bad Request',
          status: 400,
          code: 'current_password_wrong',
          errors: [
            {
              field: 'body.password',
              message: 'The password is not correct.',
              code: 'current_password_wrong',
            },
          ],
        });
      return undefined;
    };
    const { fetchMock } = open(extra);
    const card = within(await screen.findByRole('region', { name: 'Two-factor sign-in' }));
    await userEvent.click(await card.findByRole('button', { name: 'Set up' }));
    const password = card.getByLabelText(/^Password/);
    expect(password).toHaveAttribute('autocomplete', 'current-password');
    await waitFor(() => expect(password).toHaveAccessibleDescription(/Please enter your password/));
    expect(bodyOf(fetchMock, 'POST', '/api/me/second-factor/totp')).toBeUndefined();
    await userEvent.type(password, 'wrong');
    await userEvent.click(card.getByRole('button', { name: 'Set up' }));
    await waitFor(() => expect(password).toHaveAccessibleDescription(/The current password is not correct/));
    expect(card.queryByRole('img', { name: 'QR code for your authenticator app' })).toBeNull();
  });

  it('disables after password and code, naming the wrong field', async () => {
    let enabled = true;
    const extra: FetchHandler = (method, url, init) => {
      if (method === 'GET' && url === '/api/me/second-factor')
        return json(200, { totp: enabled, recoveryCodesLeft: enabled ? 7 : 0 });
      if (method === 'DELETE' && url === '/api/me/second-factor/totp') {
        if (JSON.parse(String(init.body)).password !== 'right password') {
          return json(400, {
            type: 'about:blank',
            title: 'Bad Request',
            status: 400,
            code: 'current_password_wrong',
            errors: [
              {
                field: 'body.password',
                message: 'The password is not correct.',
                code: 'current_password_wrong',
              },
            ],
          });
        }
        enabled = false;
        return json(204);
      }
      return undefined;
    };
    const { fetchMock } = open(extra);
    const card = within(await screen.findByRole('region', { name: 'Two-factor sign-in' }));
    expect(await card.findByText('Set up. You have 7 recovery codes left.')).toBeVisible();
    await userEvent.click(card.getByRole('button', { name: 'Disable' }));

    const dialog = within(await screen.findByRole('dialog', { name: 'Disable two-factor sign-in?' }));
    const password = dialog.getByLabelText('Password');
    await userEvent.type(password, 'wrong password');
    await userEvent.type(dialog.getByRole('textbox', { name: 'Code or recovery code' }), '654321');
    await userEvent.click(dialog.getByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(password).toHaveAccessibleDescription('The current password is not correct.'));

    await userEvent.clear(password);
    await userEvent.type(password, 'right password');
    await userEvent.click(dialog.getByRole('button', { name: 'Disable' }));
    expect(await card.findByText('Not set up.')).toBeVisible();
    expect(screen.queryByRole('dialog')).toBeNull();
    const calls = fetchMock.mock.calls.filter(
      ([u, init]) => init?.method === 'DELETE' && u === '/api/me/second-factor/totp',
    );
    expect(JSON.parse(String(calls.at(-1)?.[1]?.body))).toEqual({
      password: 'right password',
      code: '654321',
    });
  });

  it('is hidden when an external issuer owns the second factor', async () => {
    const extra: FetchHandler = (method, url) =>
      method === 'GET' && url === '/api/me/second-factor'
        ? json(409, { type: 'about:blank', title: 'Conflict', status: 409, code: 'accounts_external' })
        : undefined;
    open(extra);
    expect(await screen.findByRole('heading', { name: 'Change password' })).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Two-factor sign-in' })).toBeNull());
    expect(screen.queryByText('Two-factor sign-in')).toBeNull();
  });
});
