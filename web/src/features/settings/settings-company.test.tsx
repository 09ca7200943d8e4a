/** Settings → company (spec §2): range, IANA time zone and occupant limit saved with a toast; the server's refusal as an error toast. */
import type { Role } from '@heizplan/contracts/account';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../app/i18n.ts';
import { routes } from '../../app/router.tsx';
import { renderRoutes } from '../../test/render.tsx';
import { type FetchHandler, json, signIn, testCompany, testProfile } from '../../test/signed-in.ts';
import { problem } from '../../test/units-fixtures.ts';

function open(
  patch: FetchHandler,
  role: Role = 'admin',
  lang: 'en' | 'de' = 'en',
  stored: Parameters<typeof testCompany>[0] = {},
) {
  const api: FetchHandler = (method, url, init) => {
    if (url !== '/api/companies/c1/') return undefined;
    if (method === 'GET') return json(200, testCompany({ role, ...stored }));
    return patch(method, url, init);
  };
  const { session, fetchMock } = signIn({ profile: testProfile({ lang }), extra: api });
  return { ...renderRoutes(routes, '/settings/company', { session }), fetchMock };
}

describe('settings company', { timeout: 20_000 }, () => {
  beforeEach(async () => {
    localStorage.clear();
    await setLanguage('en');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('saves the range and a time zone picked from the IANA list', async () => {
    const { fetchMock } = open((_m, _u, init) => json(200, testCompany(JSON.parse(String(init.body)))));
    const max = await screen.findByTestId('company-max');
    await userEvent.clear(max);
    await userEvent.type(max, '26');
    const zone = screen.getByTestId('company-time-zone');
    await userEvent.click(zone);
    await userEvent.type(zone, 'vienna');
    await userEvent.keyboard('{Enter}');
    await userEvent.click(screen.getByTestId('company-save'));
    expect(await screen.findByText('Company updated')).toBeVisible();
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH');
    expect(JSON.parse(String(patch?.[1]?.body))).toEqual({
      min_temperature: 5,
      max_temperature: 26,
      occupant_change_max_hours: null,
      occupant_max_temperature: 24,
      occupant_band: 2,
      invite_role_choice: true,
      default_invite_role: 'heating',
      energy_media: null,
      frost_protection: 8,
      economy_temperature: 16,
      standby_temperature: 18,
      optimum_start: 'shadow',
      optimum_max_lead_minutes: 180,
      second_factor_required: 'none',
      remember_device_days: 0,
      time_zone: 'Europe/Vienna',
    });
  });

  it('lets an admin require a second factor of the admins, offered in German', async () => {
    const { fetchMock } = open(
      (_m, _u, init) => json(200, testCompany(JSON.parse(String(init.body)))),
      'admin',
      'de',
    );
    await setLanguage('de');
    const policy = await screen.findByRole('combobox', { name: /Zweiter Faktor erforderlich/ });
    expect(policy).toBeEnabled();
    expect([...(policy as HTMLSelectElement).options].map((option) => option.text)).toEqual([
      'niemand',
      'Administratoren',
      'alle Mitglieder',
    ]);
    expect(screen.getByText(/weder eine Authenticator-App noch einen Passkey/)).toBeVisible();
    await userEvent.selectOptions(policy, 'admins');
    await userEvent.click(screen.getByRole('button', { name: 'Speichern' }));
    await vi.waitFor(() =>
      expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PATCH')).toBe(true),
    );
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH');
    expect(JSON.parse(String(patch?.[1]?.body))).toMatchObject({ second_factor_required: 'admins' });
  });

  it('lets an admin allow trusting a browser for 30 days', async () => {
    const { fetchMock } = open((_m, _u, init) => json(200, testCompany(JSON.parse(String(init.body)))));
    const remember = await screen.findByRole('combobox', {
      name: /Remember browsers for the verification code/,
    });
    expect([...(remember as HTMLSelectElement).options].map((option) => option.text)).toEqual([
      'never',
      '30 days',
    ]);
    await userEvent.selectOptions(remember, '30');
    await userEvent.click(screen.getByTestId('company-save'));
    expect(await screen.findByText('Company updated')).toBeVisible();
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH');
    expect(JSON.parse(String(patch?.[1]?.body))).toMatchObject({ remember_device_days: 30 });
  });

  it('shows the second-factor policy locked, with the reason, while an external issuer owns sign-in', async () => {
    const api: FetchHandler = (method, url) => {
      if (method === 'GET' && url === '/api/me/second-factor')
        return json(409, { type: 'about:blank', title: 'Conflict', status: 409, code: 'accounts_external' });
      if (method === 'GET' && url === '/api/companies/c1/') return json(200, testCompany());
      return undefined;
    };
    const { session } = signIn({ profile: testProfile({ lang: 'en' }), extra: api });
    renderRoutes(routes, '/settings/company', { session });
    const policy = await screen.findByRole('combobox', { name: /Second factor required/ });
    await vi.waitFor(() => expect(policy).toBeDisabled());
    expect(screen.getAllByText(/external identity provider manages sign-in/)[0]).toBeVisible();
    expect(screen.getByRole('combobox', { name: /Remember browsers/ })).toBeDisabled();
  });

  it("saves the heat source of the buildings and offers every one in the user's language", async () => {
    const { fetchMock } = open((_m, _u, init) => json(200, testCompany(JSON.parse(String(init.body)))));
    const media = await screen.findByTestId('company-energy-media');
    expect(media).toHaveValue('');
    expect(screen.getByLabelText('Heat source of the buildings')).toBe(media);
    expect([...(media as HTMLSelectElement).options].map((option) => option.text)).toEqual([
      'Not specified',
      'Natural gas',
      'Heating oil',
      'District heating',
      'Heat pump',
      'Electricity',
      'Wood pellets',
      'Other',
    ]);
    await userEvent.selectOptions(media, 'district_heating');
    await userEvent.click(screen.getByTestId('company-save'));
    expect(await screen.findByText('Company updated')).toBeVisible();
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH');
    expect(JSON.parse(String(patch?.[1]?.body))).toMatchObject({ energy_media: 'district_heating' });
  });

  it('limits occupant changes to whole hours from 1 to 168, or none when empty', async () => {
    const { fetchMock } = open((_m, _u, init) => json(200, testCompany(JSON.parse(String(init.body)))));
    const hours = await screen.findByTestId('company-occupant-limit');
    await userEvent.type(hours, '200');
    expect(await screen.findByTestId('company-occupant-limit-field-error')).toHaveTextContent(
      'Enter whole hours from 1 to 168, or leave it empty.',
    );
    expect(screen.getByTestId('company-save')).toBeDisabled();
    await userEvent.clear(hours);
    await userEvent.type(hours, '4');
    await userEvent.click(screen.getByTestId('company-save'));
    expect(await screen.findByText('Company updated')).toBeVisible();
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH');
    expect(JSON.parse(String(patch?.[1]?.body))).toMatchObject({ occupant_change_max_hours: 4 });
  });

  it('keeps occupants to a ceiling inside the range and a leeway around the plan, said in German', async () => {
    const { fetchMock } = open(
      (_m, _u, init) => json(200, testCompany(JSON.parse(String(init.body)))),
      'admin',
      'de',
    );
    await setLanguage('de');
    const ceiling = await screen.findByRole('spinbutton', { name: /Höchste Temperatur für Raumnutzer/ });
    const leeway = screen.getByRole('spinbutton', { name: /Spielraum für Raumnutzer um den Plan/ });
    expect(ceiling).toHaveValue(24);
    expect(leeway).toHaveValue(2);
    await userEvent.clear(ceiling);
    await userEvent.type(ceiling, '30');
    expect(
      await screen.findByText(/darf nicht über der Höchsttemperatur der Firma liegen: höchstens 28 °C/),
    ).toHaveTextContent(
      'Die höchste Temperatur für Raumnutzer darf nicht über der Höchsttemperatur der Firma liegen: höchstens 28 °C.',
    );
    await userEvent.clear(ceiling);
    await userEvent.type(ceiling, '23');
    await userEvent.clear(leeway);
    await userEvent.type(leeway, '12');
    expect(
      await screen.findByText('Einen Spielraum von 0,5 bis 10 K eingeben oder leer lassen.'),
    ).toBeVisible();
    expect(screen.getByRole('button', { name: 'Speichern' })).toBeDisabled();
    // Empty: no leeway, occupants may go up to the ceiling.
    await userEvent.clear(leeway);
    await userEvent.click(screen.getByRole('button', { name: 'Speichern' }));
    expect(await screen.findByText('Firma aktualisiert')).toBeVisible();
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH');
    expect(JSON.parse(String(patch?.[1]?.body))).toMatchObject({
      occupant_max_temperature: 23,
      occupant_band: null,
    });
  });

  it('refuses a minimum above the maximum before sending, and shows an error toast when the server refuses', async () => {
    const { fetchMock } = open(() =>
      problem(400, 'Bad Request', 'The minimum temperature must be below the maximum temperature.'),
    );
    const min = await screen.findByTestId('company-min');
    await userEvent.clear(min);
    await userEvent.type(min, '30');
    expect(await screen.findByTestId('company-min-field-error')).toHaveTextContent(
      'The minimum must be below the maximum.',
    );
    expect(screen.getByTestId('company-save')).toBeDisabled();
    await userEvent.clear(min);
    await userEvent.type(min, '6');
    await userEvent.click(screen.getByTestId('company-save'));
    expect(await screen.findByText('Error updating')).toBeVisible();
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'PATCH')).toHaveLength(1);
  });

  it('saves the economy and standby temperatures of closures within the company range, naming field and limit', async () => {
    const { fetchMock } = open((_m, _u, init) => json(200, testCompany(JSON.parse(String(init.body)))));
    const economy = await screen.findByTestId('company-economy');
    const standby = screen.getByTestId('company-standby');
    expect(economy).toHaveValue(16);
    expect(standby).toHaveValue(18);
    expect(screen.getByLabelText('Economy temperature (°C)')).toBe(economy);
    await userEvent.clear(economy);
    await userEvent.type(economy, '4');
    expect(await screen.findByTestId('company-economy-field-error')).toHaveTextContent(
      "The economy temperature must not be below the company's minimum temperature: at least 5 °C.",
    );
    expect(screen.getByTestId('company-save')).toBeDisabled();
    await userEvent.clear(standby);
    await userEvent.type(standby, '30');
    expect(await screen.findByTestId('company-standby-field-error')).toHaveTextContent(
      "The standby temperature must not be above the company's maximum temperature: at most 28 °C.",
    );
    // Raising the maximum takes the standby temperature back into the range.
    const max = screen.getByTestId('company-max');
    await userEvent.clear(max);
    await userEvent.type(max, '30');
    expect(screen.queryByTestId('company-standby-field-error')).toBeNull();
    await userEvent.clear(economy);
    await userEvent.type(economy, '15.5');
    await userEvent.click(screen.getByTestId('company-save'));
    expect(await screen.findByText('Company updated')).toBeVisible();
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH');
    expect(JSON.parse(String(patch?.[1]?.body))).toMatchObject({
      max_temperature: 30,
      economy_temperature: 15.5,
      standby_temperature: 30,
    });
  });

  // The demo company's frost protection (8 °C) lies below its minimum (12 °C), which the engine
  // applies instead: the form offered 8 and refused to save anything until it was changed.
  it('shows the frost protection a company really keeps and saves without touching it', async () => {
    const { fetchMock } = open(
      (_m, _u, init) => json(200, testCompany(JSON.parse(String(init.body)))),
      'admin',
      'en',
      { min_temperature: 12, frost_protection: 8 },
    );
    expect(await screen.findByTestId('company-frost')).toHaveValue(12);
    await userEvent.selectOptions(screen.getByTestId('company-default-role'), 'ems');
    await userEvent.click(screen.getByTestId('company-save'));
    expect(await screen.findByText('Company updated')).toBeVisible();
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH');
    expect(JSON.parse(String(patch?.[1]?.body))).toMatchObject({ min_temperature: 12, frost_protection: 12 });
  });

  it('names the field and the limit in German too', async () => {
    open(() => undefined, 'admin', 'de');
    await setLanguage('de');
    const economy = await screen.findByTestId('company-economy');
    await userEvent.clear(economy);
    await userEvent.type(economy, '45');
    expect(await screen.findByTestId('company-economy-field-error')).toHaveTextContent(
      'Die Absenktemperatur darf höchstens 40 °C betragen.',
    );
    await userEvent.clear(economy);
    await userEvent.type(economy, '4.5');
    expect(await screen.findByTestId('company-economy-field-error')).toHaveTextContent(
      'Die Absenktemperatur darf nicht unter der Mindesttemperatur der Firma liegen: mindestens 5 °C.',
    );
  });

  it('switches the invite role choice off and sets the default role of new members', async () => {
    const { fetchMock } = open((_m, _u, init) => json(200, testCompany(JSON.parse(String(init.body)))));
    await userEvent.click(await screen.findByTestId('company-invite-role-choice'));
    await userEvent.selectOptions(screen.getByTestId('company-default-role'), 'ems');
    await userEvent.click(screen.getByTestId('company-save'));
    expect(await screen.findByText('Company updated')).toBeVisible();
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH');
    expect(JSON.parse(String(patch?.[1]?.body))).toMatchObject({
      invite_role_choice: false,
      default_invite_role: 'ems',
    });
  });

  it('shows members who are not admins the settings without a way to change them', async () => {
    open(() => undefined, 'heating');
    expect(await screen.findByTestId('company-read-only')).toHaveTextContent(
      'Only admins of the company change these settings.',
    );
    expect(screen.getByTestId('company-min')).toBeDisabled();
    expect(screen.getByTestId('company-energy-media')).toBeDisabled();
    // The time zone looks as disabled as it is: greyed, with the not-allowed pointer.
    expect(screen.getByTestId('company-time-zone')).toBeDisabled();
    expect(screen.getByTestId('company-time-zone-control')).toHaveClass('cursor-not-allowed', 'bg-stone-100');
    expect(screen.queryByTestId('company-save')).toBeNull();
    expect(screen.getByTestId('company-other')).toBeVisible();
  });
});
