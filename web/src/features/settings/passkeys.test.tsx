/** Passkeys in settings general (decision 0074) against stubbed account calls and a stubbed authenticator. */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testProfile } from '../../test/signed-in.ts';

const browser = vi.hoisted(() => ({ startRegistration: vi.fn() }));
vi.mock('@simplewebauthn/browser', () => browser);

const OPTIONS = {
  challenge: 'Y2hhbGxlbmdl',
  rp: { id: 'localhost', name: 'Heizplan' },
  user: { id: 'dQ', name: 'a', displayName: 'A' },
};
const ANSWER = {
  id: 'Y3JlZA',
  rawId: 'Y3JlZA',
  type: 'public-key',
  response: { clientDataJSON: 'e30', attestationObject: 'oA', transports: ['internal'] },
  clientExtensionResults: {},
};
const LAPTOP = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Laptop',
  created_at: '2026-12-01T09:00:00Z',
  last_used_at: null,
};

function open(extra: FetchHandler) {
  const { session, fetchMock } = signIn({ profile: testProfile({ lang: 'en' }), extra });
  return { ...renderRoutes(routes, '/settings/general', { session }), fetchMock };
}

describe('passkeys', () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('en');
    browser.startRegistration.mockReset();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('adds a named passkey through the browser’s authenticator, renames and removes it', async () => {
    let passkeys: (typeof LAPTOP)[] = [];
    const extra: FetchHandler = (method, url, init) => {
      if (method === 'GET' && url === '/api/me/passkeys') return json(200, { results: passkeys });
      if (method === 'POST' && url === '/api/me/passkeys/registration-options') return json(200, OPTIONS);
      if (method === 'POST' && url === '/api/me/passkeys') {
        const body = JSON.parse(String(init.body));
        passkeys = [{ ...LAPTOP, name: body.name }];
        return json(201, passkeys[0]);
      }
      if (method === 'PATCH' && url === `/api/me/passkeys/${LAPTOP.id}`) {
        passkeys = [{ ...LAPTOP, name: JSON.parse(String(init.body)).name }];
        return json(200, passkeys[0]);
      }
      if (method === 'DELETE' && url === `/api/me/passkeys/${LAPTOP.id}`) {
        passkeys = [];
        return json(204);
      }
      return undefined;
    };
    browser.startRegistration.mockResolvedValue(ANSWER);
    const { fetchMock } = open(extra);
    const card = within(await screen.findByRole('region', { name: 'Passkeys' }));
    expect(await card.findByText('No passkeys yet.')).toBeVisible();

    await userEvent.click(card.getByRole('button', { name: 'Add passkey' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Add passkey' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Continue' }));
    expect(await dialog.findByText('Please enter a name.')).toBeVisible();
    await userEvent.type(dialog.getByRole('textbox', { name: 'Name' }), 'Laptop');
    // The step-up (decision 0078): the password goes with the request for the options.
    await userEvent.type(dialog.getByLabelText(/^Password/), 'geheim-genug');
    await userEvent.click(dialog.getByRole('button', { name: 'Continue' }));
    const list = await card.findByRole('list', { name: 'Your passkeys' });
    expect(within(list).getByText('Laptop')).toBeVisible();
    expect(within(list).getByText(/not used yet/)).toBeVisible();
    expect(browser.startRegistration).toHaveBeenCalledWith({ optionsJSON: OPTIONS });
    const asked = fetchMock.mock.calls.find(
      ([u, i]) => i?.method === 'POST' && u === '/api/me/passkeys/registration-options',
    );
    expect(JSON.parse(String(asked?.[1]?.body))).toEqual({ password: 'geheim-genug' });
    const sent = fetchMock.mock.calls.find(([u, i]) => i?.method === 'POST' && u === '/api/me/passkeys');
    expect(JSON.parse(String(sent?.[1]?.body))).toEqual({ name: 'Laptop', response: ANSWER });

    await userEvent.click(card.getByRole('button', { name: 'Rename Laptop' }));
    const rename = within(await screen.findByRole('dialog', { name: 'Rename passkey' }));
    const name = rename.getByRole('textbox', { name: 'Name' });
    await userEvent.clear(name);
    await userEvent.type(name, 'Büro');
    await userEvent.click(rename.getByRole('button', { name: 'Save' }));
    expect(await within(list).findByText('Büro')).toBeVisible();

    await userEvent.click(card.getByRole('button', { name: 'Remove Büro' }));
    const confirm = within(await screen.findByRole('dialog', { name: 'Remove passkey “Büro”?' }));
    await userEvent.click(confirm.getByRole('button', { name: 'Remove' }));
    expect(await card.findByText('No passkeys yet.')).toBeVisible();
  });

  it('says so when the browser made no passkey, and sends nothing', async () => {
    const extra: FetchHandler = (method, url) => {
      if (method === 'GET' && url === '/api/me/passkeys') return json(200, { results: [] });
      if (method === 'POST' && url === '/api/me/passkeys/registration-options') return json(200, OPTIONS);
      return undefined;
    };
    browser.startRegistration.mockRejectedValue(new Error('NotAllowedError'));
    const { fetchMock } = open(extra);
    const card = within(await screen.findByRole('region', { name: 'Passkeys' }));
    await userEvent.click(await card.findByRole('button', { name: 'Add passkey' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Add passkey' }));
    await userEvent.type(dialog.getByRole('textbox', { name: 'Name' }), 'Phone');
    await userEvent.type(dialog.getByLabelText(/^Password/), 'geheim-genug');
    await userEvent.click(dialog.getByRole('button', { name: 'Continue' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent(/was not created/);
    expect(fetchMock.mock.calls.some(([u, i]) => i?.method === 'POST' && u === '/api/me/passkeys')).toBe(
      false,
    );
  });

  it('is hidden when an external issuer owns sign-in', async () => {
    const extra: FetchHandler = (method, url) =>
      method === 'GET' && url === '/api/me/passkeys'
        ? json(409, { type: 'about:blank', title: 'Conflict', status: 409, code: 'accounts_external' })
        : undefined;
    open(extra);
    expect(await screen.findByRole('heading', { name: 'Change password' })).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Passkeys' })).toBeNull());
  });
});
