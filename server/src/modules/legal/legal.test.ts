import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { renderPage } from '../../auth/pages.ts';
import { configWarnings, loadConfig } from '../../config.ts';
import { operatorNamed, renderLegalPage } from './legal-pages.ts';

const OPERATOR = {
  OPERATOR_NAME: 'Wärmewerk Süd GmbH',
  OPERATOR_ADDRESS: 'Lindwurmstraße 12; 80337 München',
  OPERATOR_EMAIL: 'kontakt@waermewerk.example',
  OPERATOR_PHONE: '+49 89 123456',
  OPERATOR_REPRESENTATIVE: 'Dr. Anna <Berger>',
  OPERATOR_REGISTER: 'Amtsgericht München, HRB 123456',
  OPERATOR_VAT_ID: 'DE123456789',
};

describe('legal pages of an installation with its operator configured', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(OPERATOR);
  });
  afterAll(() => t.close());

  const get = (page: string) => t.app.inject({ method: 'GET', url: `/legal/${page}.html` });

  it('names the provider in the Impressum, as § 5 DDG asks, with every value escaped', async () => {
    const res = await get('impressum');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.body).toContain('<h2>Angaben gemäß § 5 DDG</h2>');
    expect(res.body).toContain('<address>Wärmewerk Süd GmbH<br>Lindwurmstraße 12<br>80337 München</address>');
    expect(res.body).toContain('href="mailto:kontakt@waermewerk.example"');
    expect(res.body).toContain('Telefon: +49 89 123456');
    expect(res.body).toContain('Dr. Anna &lt;Berger&gt;');
    expect(res.body).toContain('Amtsgericht München, HRB 123456');
    expect(res.body).toContain('gemäß § 27a Umsatzsteuergesetz: DE123456789');
    expect(res.body).not.toContain('noch nicht hinterlegt');
  });

  it('names the operator as the controller in the privacy notice and as the provider in the agreements', async () => {
    const privacy = await get('datenschutz');
    expect(privacy.body).toContain('<h2>1. Verantwortlicher</h2>');
    expect(privacy.body).toContain('ist:</p>\n<address>Wärmewerk Süd GmbH');
    expect(privacy.body).toContain('Version 1');
    expect((await get('lizenz')).body).toContain(
      'Anbieter: Wärmewerk Süd GmbH, Lindwurmstraße 12, 80337 München',
    );
    expect((await get('avv')).body).toContain('Auftragsverarbeiter: Wärmewerk Süd GmbH');
  });

  it('links every legal page from every other, marking the one shown', async () => {
    const res = await get('avv');
    for (const page of ['impressum', 'datenschutz', 'lizenz'])
      expect(res.body).toContain(`<a href="/legal/${page}.html">`);
    expect(res.body).toContain('<a href="/legal/avv.html" aria-current="page">');
  });

  it('links the Impressum and the privacy notice from the sign-in pages, in their language', () => {
    const page = (lang: 'de' | 'en') =>
      renderPage({ lang, title: 'Anmelden', switchHref: '/auth/forgot', body: '' });
    expect(page('de')).toContain('<a href="/legal/impressum.html">Impressum</a>');
    expect(page('de')).toContain('<a href="/legal/datenschutz.html" hreflang="de">Datenschutz</a>');
    expect(page('en')).toContain('<a href="/legal/impressum.html">Legal notice (Impressum)</a>');
  });
});

describe('legal pages without an operator', () => {
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: '/tmp/heizplan-test' });

  it('say that the operator has not named itself instead of printing a template', () => {
    expect(operatorNamed(config.operator)).toBe(false);
    const impressum = renderLegalPage('impressum', config.operator, config.agreements);
    expect(impressum).toContain('hat seine Angaben noch nicht hinterlegt');
    expect(impressum).not.toContain('§ 5 DDG');
    const privacy = renderLegalPage('datenschutz', config.operator, config.agreements);
    expect(privacy).toContain('ist der Betreiber, der sie bereitstellt.');
    expect(privacy).toContain('hat seine Angaben noch nicht hinterlegt');
  });

  it('warn a production server whose operator has not named itself, and not one that has', () => {
    const production = {
      NODE_ENV: 'production',
      OIDC_ISSUER: 'https://id.example',
      OIDC_CLIENT_ID: 'web',
      BILLING_PROVIDER: 'none',
    };
    const warned = (env: Record<string, string>) =>
      configWarnings(loadConfig(env)).some((w) => w.variable === 'OPERATOR_NAME');
    expect(warned(production)).toBe(true);
    expect(warned({ ...production, ...OPERATOR })).toBe(false);
    expect(warned({ ...OPERATOR, OPERATOR_NAME: '' })).toBe(false);
  });

  it('take the invoices’ seller as the operator when only BILLING_SELLER_* names it', () => {
    const seller = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: '/tmp/heizplan-test',
      BILLING_SELLER_NAME: 'Heizdienst Nord e. K.',
      BILLING_SELLER_ADDRESS: 'Hafenstraße 1; 20457 Hamburg',
      OPERATOR_EMAIL: 'info@heizdienst.example',
    });
    expect(operatorNamed(seller.operator)).toBe(true);
    expect(renderLegalPage('impressum', seller.operator, seller.agreements)).toContain(
      '<address>Heizdienst Nord e. K.<br>Hafenstraße 1<br>20457 Hamburg</address>',
    );
  });
});
