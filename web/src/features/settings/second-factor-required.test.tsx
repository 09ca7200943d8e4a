/**
 * The enrolment screen of decision 0078: a user whose company requires a second factor they lack
 * is led from the app to it, sets one up with the settings' cards and continues once the profile
 * no longer says it is missing.
 */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testProfile } from '../../test/signed-in.ts';

const ENROLMENT = {
  secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  otpauthUri: 'otpauth://totp/Heizplan:ada%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  qrSvg: '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
};
const CODES = Array.from({ length: 10 }, (_, i) => `abcd${i}-efgh${i}`);

describe('second factor required by the company', { timeout: 20_000 }, () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('de');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('leads from the app to the enrolment screen and lets the user continue once a TOTP is set up', async () => {
    let enabled = false;
    const extra: FetchHandler = (method, url) => {
      if (method === 'GET' && url === '/api/me/')
        return json(200, testProfile({ second_factor_required: !enabled }));
      if (method === 'GET' && url === '/api/me/second-factor')
        return json(200, { totp: enabled, recoveryCodesLeft: enabled ? 10 : 0 });
      if (method === 'GET' && url === '/api/me/passkeys') return json(200, { results: [] });
      if (method === 'POST' && url === '/api/me/second-factor/totp') return json(200, ENROLMENT);
      if (method === 'POST' && url === '/api/me/second-factor/totp/confirm') {
        enabled = true;
        return json(200, { recoveryCodes: CODES });
      }
      return undefined;
    };
    const { session } = signIn({ extra });
    renderRoutes(routes, '/units', { session });

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Ihr Unternehmen verlangt einen zweiten Faktor' }),
    ).toBeVisible();
    expect(screen.queryByRole('navigation')).toBeNull();
    const proceed = screen.getByRole('button', { name: 'Weiter' });
    expect(proceed).toBeDisabled();
    expect(await screen.findByRole('region', { name: 'Passkeys' })).toBeVisible();

    const card = within(await screen.findByRole('region', { name: 'Zwei-Faktor-Anmeldung' }));
    await userEvent.type(await card.findByLabelText(/^Passwort/), 'geheim-genug');
    await userEvent.click(card.getByRole('button', { name: 'Einrichten' }));
    await userEvent.type(await card.findByRole('textbox', { name: 'Bestätigungscode' }), '123456');
    await userEvent.click(card.getByRole('button', { name: 'Bestätigen' }));
    // The recovery codes stay until the user moves on.
    expect(await card.findByRole('list', { name: 'Wiederherstellungscodes' })).toBeVisible();
    await vi.waitFor(() => expect(proceed).toBeEnabled());
    expect(screen.getByText('Zweiter Faktor eingerichtet.')).toBeVisible();
    expect(card.getByRole('list', { name: 'Wiederherstellungscodes' })).toBeVisible();

    await userEvent.click(proceed);
    expect(
      await screen.findByRole('heading', { level: 1, name: /Räume/ }, { timeout: 10_000 }),
    ).toBeVisible();
  });
});
