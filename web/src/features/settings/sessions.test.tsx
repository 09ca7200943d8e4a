/** Sign-in sessions in settings general (decision 0074) against stubbed account calls. */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testProfile } from '../../test/signed-in.ts';

const at = '2026-12-03T09:00:00Z';
const THIS = {
  id: 'this',
  browser: 'Firefox',
  os: 'Windows',
  created_at: at,
  last_used_at: at,
  current: true,
};
const PHONE = {
  id: 'phone',
  browser: 'Mobile Safari',
  os: 'iOS',
  created_at: at,
  last_used_at: at,
  current: false,
};
const OFFICE = { id: 'office', browser: '', os: '', created_at: at, last_used_at: at, current: false };

function open(extra: FetchHandler) {
  const { session, fetchMock } = signIn({ profile: testProfile({ lang: 'en' }), extra });
  return { ...renderRoutes(routes, '/settings/general', { session }), fetchMock };
}

describe('sign-in sessions', () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('en');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('marks this session, ends another, then all others after a confirmation', async () => {
    let sessions = [THIS, PHONE, OFFICE];
    const extra: FetchHandler = (method, url) => {
      if (method === 'GET' && url === '/api/me/sessions') return json(200, { results: sessions });
      if (method === 'DELETE' && url === '/api/me/sessions/phone') {
        sessions = sessions.filter((s) => s.id !== 'phone');
        return json(204);
      }
      if (method === 'DELETE' && url === '/api/me/sessions?others=true') {
        sessions = [THIS];
        return json(204);
      }
      return undefined;
    };
    open(extra);
    const card = within(await screen.findByRole('region', { name: 'Signed-in browsers' }));
    const list = await card.findByRole('list', { name: 'Your sessions' });
    expect(within(list).getByText('Firefox on Windows')).toBeVisible();
    expect(within(list).getByText('this session')).toBeVisible();
    expect(within(list).getByText('Unknown browser on unknown system')).toBeVisible();
    // This session has no end button of its own.
    expect(card.queryByRole('button', { name: 'End session Firefox on Windows' })).toBeNull();

    await userEvent.click(card.getByRole('button', { name: 'End session Mobile Safari on iOS' }));
    await waitFor(() => expect(within(list).queryByText('Mobile Safari on iOS')).toBeNull());

    await userEvent.click(card.getByRole('button', { name: 'End all other sessions' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'End all other sessions?' }));
    expect(
      dialog.getByText('The other session will be signed out. This session stays signed in.'),
    ).toBeVisible();
    await userEvent.click(dialog.getByRole('button', { name: 'End all other sessions' }));
    await waitFor(() => expect(within(list).queryByText(/unknown system/)).toBeNull());
    expect(card.queryByRole('button', { name: 'End all other sessions' })).toBeNull();
  });

  it('is hidden when an external issuer owns sign-in', async () => {
    open((method, url) =>
      method === 'GET' && url === '/api/me/sessions'
        ? json(409, { type: 'about:blank', title: 'Conflict', status: 409, code: 'accounts_external' })
        : undefined,
    );
    expect(await screen.findByRole('heading', { name: 'Change password' })).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Signed-in browsers' })).toBeNull());
  });
});
