/**
 * Team journeys in Chromium against the real server: an admin invites a colleague
 * by email as `ems`; the colleague opens the mail's link, registers and lands in the company
 * reading units without edit controls, team or billing; the admin makes them `heating`, they
 * change a setpoint; the admin removes them and their next page load no longer shows the
 * company but says they were removed from it. Then the admin creates a second company from the settings and switches between both.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apiAs, linkInMail, register, signUpWithCompany } from './accounts.ts';
import { launchBrowser, screenshot } from './browser.ts';

describe('team and roles', () => {
  let browser: Browser;
  let ada: Page;
  let grace: Page;
  let unitId: string;
  const baseURL = inject('baseURL');

  beforeAll(async () => {
    browser = await launchBrowser();
    // The journey reads English screens: Ada signs up in an English browser (setup preselects
    // the language a person signed up in).
    ada = await (
      await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } })
    ).newPage();
    await ada.goto(`${baseURL}/units`);
    await signUpWithCompany(ada, {
      baseURL,
      account: { name: 'Ada Admin', email: 'ada.team@example.com', password: 'team lead passphrase' },
      company: 'Gymnasium Nord',
      registerLinkName: /Neues Konto|Create an account/,
    });
    unitId = (await apiAs(ada, baseURL, 'POST', '/companies/:company/units', { name: 'Aula' }))?.id ?? '';
  });
  afterAll(() => browser?.close());

  it('invites a colleague by email with the role EMS', async () => {
    await ada.goto(`${baseURL}/settings/team`);
    await ada.getByTestId('invite-email').fill('grace.team@example.com');
    await ada.getByTestId('invite-role').selectOption('ems');
    await ada.getByTestId('invite-send').click();
    await ada.getByText('Invitation sent').waitFor();
    await expect(ada.getByTestId('invite-email').inputValue()).resolves.toBe('');
    await ada.getByTestId('invite-row-email').filter({ hasText: 'grace.team@example.com' }).waitFor();
    await screenshot(ada, 'team-admin');
  });

  it('lets the colleague join from the mail link and read units without edit controls', async () => {
    const link = linkInMail(
      inject('dataDir'),
      'grace.team@example.com',
      /https?:\/\/\S+\/setup\/2\?skipGuard=true&invite_code=\S+/,
    );
    grace = await (
      await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } })
    ).newPage();
    await grace.goto(link);
    await register(
      grace,
      { name: 'Grace Reader', email: 'grace.team@example.com', password: 'reads every number' },
      /Neues Konto|Create an account/,
    );
    await grace.waitForURL(/\/setup\/2\?skipGuard=true&invite_code=/);
    await expect(grace.getByTestId('setup-invite-code').inputValue()).resolves.toMatch(/^[\w-]{32}$/);
    await grace.getByTestId('setup-next').click();
    // The link skipped step 1: joining keeps the sign-up's language and goes on to the units
    // (the admin accepted the agreements), not back to step 1.
    await grace.waitForURL(`${baseURL}/units`);
    await grace.getByRole('link', { name: 'Aula', exact: true }).waitFor();
    await expect(grace.getByTestId('company-current').first().innerText()).resolves.toBe('Gymnasium Nord');
    await expect(grace.getByTestId('create-units').count()).resolves.toBe(0);
    await expect(grace.getByTestId(`unit-raise-${unitId}`).count()).resolves.toBe(0);
    await expect(grace.getByTestId('nav-assign').count()).resolves.toBe(0);
    await expect(grace.getByTestId('nav-shop').count()).resolves.toBe(0);
    await screenshot(grace, 'team-ems-units');
    await grace.goto(`${baseURL}/settings/general`);
    await grace.getByTestId('settings-tab-company').waitFor();
    await expect(grace.getByTestId('settings-tab-team').count()).resolves.toBe(0);
    await expect(grace.getByTestId('settings-tab-billing').count()).resolves.toBe(0);
    // Ada sees the new member; the invite was used up.
    await ada.reload();
    await ada.getByRole('cell', { name: 'grace.team@example.com', exact: true }).waitFor();
    await expect(ada.getByTestId('invites-empty').count()).resolves.toBe(1);
  });

  it('lets the colleague change a setpoint once the admin makes them Heating', async () => {
    const graceId = (await grace.evaluate(async () => {
      const token = (JSON.parse(localStorage.getItem('heizplan.apiToken') ?? '{}') as { value: string })
        .value;
      const res = await fetch('/api/me/', { headers: { authorization: `Bearer ${token}` } });
      return ((await res.json()) as { id: string }).id;
    })) as string;
    await ada.getByRole('button', { name: 'EMS (read only) – change the role of Grace Reader' }).click();
    await ada.getByRole('menuitem', { name: 'Heating' }).click();
    await ada.getByText('Role changed').waitFor();
    await expect(ada.getByTestId(`member-role-${graceId}`).innerText()).resolves.toBe('Heating');

    await grace.goto(`${baseURL}/units`);
    const raise = grace.getByTestId(`unit-raise-${unitId}`);
    await raise.waitFor();
    const before = await grace.getByTestId(`unit-setpoint-${unitId}`).innerText();
    await raise.click();
    await expect
      .poll(() => grace.getByTestId(`unit-setpoint-${unitId}`).innerText(), { timeout: 10_000 })
      .not.toBe(before);
    await expect(grace.getByTestId('create-units').count()).resolves.toBe(1);
    await expect(grace.getByTestId('nav-shop').count()).resolves.toBe(0);
    await screenshot(grace, 'team-heating-units');

    await ada.getByTestId(`member-remove-${graceId}`).click();
    await expect(ada.getByTestId('remove-member-text').innerText()).resolves.toContain(
      'Grace Reader (grace.team@example.com)',
    );
    await screenshot(ada, 'team-remove-dialog');
    await ada.getByTestId('remove-member-dialog-confirm').click();
    await ada.getByText('Member removed').waitFor();
    await expect(ada.getByText('grace.team@example.com').count()).resolves.toBe(0);

    // Her next page load no longer shows the company: without one she is back at setup step 2,
    // which tells her why.
    await grace.goto(`${baseURL}/units`);
    await grace.waitForURL(`${baseURL}/setup/2`);
    await expect(grace.getByTestId('setup-removed-notice').innerText()).resolves.toMatch(
      /You were removed from the company “Gymnasium Nord”\.|Sie wurden aus der Firma „Gymnasium Nord“ entfernt\./,
    );
    await screenshot(grace, 'team-removed-notice');
    await grace.context().close();
  });

  it('creates a second company from the settings and switches between both', async () => {
    await ada.goto(`${baseURL}/settings/company`);
    await ada.getByTestId('company-other').click();
    await ada.waitForURL(/\/setup\/2\?skipGuard=true/);
    await ada.getByTestId('setup-mode-create').click();
    await ada.getByTestId('setup-company-name').fill('Grundschule Süd');
    await ada.getByTestId('setup-next').click();
    await ada.waitForURL(`${baseURL}/setup/3`);
    for (const box of ['setup-privacy', 'setup-terms', 'setup-avv', 'setup-declaration']) {
      await ada.getByTestId(box).check();
    }
    await ada.getByTestId('setup-next').click();
    await ada.waitForURL(`${baseURL}/units`);
    await apiAs(ada, baseURL, 'POST', '/companies/:company/units', { name: 'Turnhalle' });
    await ada.reload();
    await ada.getByRole('link', { name: 'Turnhalle', exact: true }).waitFor();
    await expect(ada.getByRole('link', { name: 'Aula', exact: true }).count()).resolves.toBe(0);

    const switcher = ada.getByTestId('company-switcher-select').first();
    await expect(switcher.locator('option:checked').innerText()).resolves.toBe('Grundschule Süd');
    await switcher.focus();
    await switcher.selectOption({ label: 'Gymnasium Nord' });
    await ada.getByRole('link', { name: 'Aula', exact: true }).waitFor();
    await expect(ada.getByRole('link', { name: 'Turnhalle', exact: true }).count()).resolves.toBe(0);
    await screenshot(ada, 'team-switched-company');
    // The choice is stored: a reload stays in the chosen company.
    await ada.reload();
    await ada.getByRole('link', { name: 'Aula', exact: true }).waitFor();
    await ada.getByTestId('company-switcher-select').first().selectOption({ label: 'Grundschule Süd' });
    await ada.getByRole('link', { name: 'Turnhalle', exact: true }).waitFor();
  });
});
