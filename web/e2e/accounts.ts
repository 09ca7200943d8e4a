/**
 * Account fixtures for browser journeys: sign up on the embedded provider's hosted
 * registration page, read the verification link from the mail outbox, finish setup.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';

export interface NewAccount {
  name: string;
  email: string;
  password: string;
}

/**
 * On the hosted login page a signed-in screen redirected to: opens the registration page
 * (link named `registerLinkName` in the page's language) and creates the account; the
 * provider then returns to the app with code+state.
 */
export async function register(page: Page, account: NewAccount, registerLinkName: RegExp) {
  // The address is enough: the link below is waited for anyway. Waiting for the page's `load` as
  // well once ran past 30 s under load with nothing to say where the browser was.
  await page.waitForURL(/\/auth\/interaction\//, { waitUntil: 'commit' }).catch((error: unknown) => {
    throw new Error(`The hosted sign-in page did not open; the browser is at ${page.url()}`, {
      cause: error,
    });
  });
  await page.getByRole('link', { name: registerLinkName }).click();
  await page.locator('input[name="name"]').fill(account.name);
  await page.locator('input[name="email"]').fill(account.email);
  await page.locator('input[name="password"]').fill(account.password);
  await page.locator('form button[type="submit"]').click();
}

/** Decodes a quoted-printable mail body (soft line breaks and `=XX` escapes). */
function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** The newest link matching `pattern` in a mail to `email` in `<dataDir>/outbox/*.eml`. */
export function linkInMail(dataDir: string, email: string, pattern: RegExp): string {
  const outbox = path.join(dataDir, 'outbox');
  const files = readdirSync(outbox)
    .filter((file) => file.endsWith('.eml'))
    .sort()
    .reverse();
  for (const file of files) {
    const mail = decodeQuotedPrintable(readFileSync(path.join(outbox, file), 'utf8'));
    if (!mail.includes(`To: ${email}`)) continue;
    const link = mail.match(pattern)?.[0];
    if (link) return link;
  }
  throw new Error(`no mail to ${email} with a link like ${pattern} in ${outbox}`);
}

/** The newest `/auth/verify/…` link mailed to `email`. */
export const verificationLink = (dataDir: string, email: string) =>
  linkInMail(dataDir, email, /https?:\/\/\S+\/auth\/verify\/\S+/);

/** The four agreements of setup step 3 by their labels, in German and English. */
const AGREEMENTS = [
  /Datenschutzerklärung|privacy policy/,
  /Lizenzbedingungen|licence terms/,
  /Auftragsverarbeitungsvertrag|data-processing agreement/,
  /berechtigt bin, diese Vereinbarungen|authorised to accept these agreements/,
];

/** The setup's "next" button, as a screen reader names it in either language. */
export const setupNext = (page: Page) => page.getByRole('button', { name: /^(Weiter|Next)$/ });

/** Ticks the four agreements of setup step 3 and finishes setup. */
export async function acceptAgreements(page: Page) {
  for (const name of AGREEMENTS) await page.getByRole('checkbox', { name }).check();
  await page.getByRole('button', { name: /^(Akzeptieren und starten|Accept and start)$/ }).click();
}

/**
 * Setup from step 1 in German, for a verified newcomer: chooses German, names `company`, accepts
 * the agreements and waits for the units screen. Found by role and name, as a screen reader does.
 */
export async function setUpCompanyInGerman(page: Page, baseURL: string, company: string) {
  await page.goto(`${baseURL}/setup/1`);
  // The radio is visually hidden inside its labelled card; the card is what a user clicks.
  await page.getByRole('radio', { name: /Deutsch/ }).check({ force: true });
  await setupNext(page).click();
  await page.getByRole('textbox', { name: /^Name des Unternehmens/ }).fill(company);
  await setupNext(page).click();
  await page.waitForURL(`${baseURL}/setup/3`);
  await acceptAgreements(page);
  await page.waitForURL(`${baseURL}/units`);
  // The rooms screen drawn, not only its address: a click into the navigation before that could
  // be undone by the setup's last redirect (seen once under load: "Gruppen" never opened).
  await page.getByRole('heading', { level: 1, name: 'Räume' }).waitFor();
}

/**
 * A new member with a company of their own, from a screen that asks to sign in: registers on
 * the hosted page, skips the optional steps of setup, names the company, accepts the agreements
 * and waits until the app shows `landing` (a path pattern).
 */
export async function signUpWithCompany(
  page: Page,
  {
    baseURL,
    account,
    company,
    registerLinkName,
    landing = /\/units$/,
  }: {
    baseURL: string;
    account: NewAccount;
    company: string;
    registerLinkName: RegExp;
    landing?: RegExp;
  },
) {
  await register(page, account, registerLinkName);
  await page.waitForURL(`${baseURL}/setup/1`);
  await setupNext(page).click();
  await page.getByRole('textbox', { name: /^(Name des Unternehmens|Company name)/ }).fill(company);
  await setupNext(page).click();
  await page.waitForURL(`${baseURL}/setup/3`);
  await acceptAgreements(page);
  await page.waitForURL(landing);
}

/**
 * Calls the API as the person signed in on `page`, with the token the web app stored; `:company`
 * in `path` stands for the current company.
 */
export async function apiAs(page: Page, baseURL: string, method: string, path: string, body?: unknown) {
  const { token, companyId } = await page.evaluate(() => ({
    token: (JSON.parse(localStorage.getItem('heizplan.apiToken') ?? '{}') as { value?: string }).value,
    companyId: localStorage.getItem('heizplan.companyId'),
  }));
  const res = await fetch(`${baseURL}/api${path.replace(':company', companyId ?? '')}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
  return res.status === 204 ? undefined : ((await res.json()) as { id: string });
}

/** Buys `licences` yearly licences for the current company, paid at once, through the API. */
export async function buyLicences(page: Page, baseURL: string, licences: number) {
  await apiAs(page, baseURL, 'POST', '/companies/:company/billing/checkout', {
    interval: 'yearly',
    licences,
    paymentMethod: 'immediate',
  });
}
