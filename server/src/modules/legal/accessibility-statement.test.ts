/**
 * The accessibility statement (BITV 2.0 § 7) in German and English: served publicly beside the
 * legal pages, naming the operator and its feedback contact from the configuration, the
 * conformance status, the known gaps, the date and the conciliation body under § 16 BGG; linked
 * from every legal page and from the hosted sign-in pages in their language.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers.ts';
import { renderPage, STATEMENT_HREF } from '../../auth/pages.ts';
import { loadConfig } from '../../config.ts';
import { renderAccessibilityStatement, STATEMENT_PATHS } from './accessibility-statement.ts';
import { legalFooterLinks } from './legal-pages.ts';

const OPERATOR = {
  OPERATOR_NAME: 'Wärmewerk Süd <GmbH>',
  OPERATOR_ADDRESS: 'Lindwurmstraße 12; 80337 München',
  OPERATOR_EMAIL: 'barrierefrei@waermewerk.example',
  OPERATOR_PHONE: '+49 89 123456',
  PUBLIC_URL: 'https://heizung.waermewerk.example',
};

describe('accessibility statement of an installation with its operator configured', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(OPERATOR);
  });
  afterAll(() => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it('is served in German without a sign-in, with the operator, the status, the gaps, the date and the contact', async () => {
    const res = await get('/legal/barrierefreiheit.html');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    const body = res.body;
    expect(body).toContain('<html lang="de">');
    expect(body).toContain('<h1>Erklärung zur Barrierefreiheit</h1>');
    expect(body).toContain('Wärmewerk Süd &lt;GmbH&gt; ist bemüht');
    expect(body).toContain('<a href="https://heizung.waermewerk.example">');
    expect(body).toContain('<strong>teilweise vereinbar</strong>');
    expect(body).toContain('WCAG) 2.1, Konformitätsstufe AA, der europäischen Norm EN 301 549');
    expect(body).toContain('<h2>Nicht barrierefreie Inhalte</h2>');
    expect(body).toContain('„Daten als Tabelle“');
    expect(body).toContain('Diese Erklärung wurde am 03.12.2026 erstellt');
    expect(body).toContain(
      'E-Mail: <a href="mailto:barrierefrei@waermewerk.example">barrierefrei@waermewerk.example</a>',
    );
    expect(body).toContain('Telefon: +49 89 123456');
    expect(body).toContain('Schlichtungsstelle nach § 16 Behindertengleichstellungsgesetz (BGG)');
    expect(body).toContain('<a href="https://www.schlichtungsstelle-bgg.de">');
    expect(body).toContain('<a href="/legal/accessibility.html" hreflang="en" lang="en">English version</a>');
    expect(body).not.toContain('noch keine Kontaktangaben');
  });

  it('is served in English with the same facts', async () => {
    const res = await get('/legal/accessibility.html');
    expect(res.statusCode).toBe(200);
    const body = res.body;
    expect(body).toContain('<html lang="en">');
    expect(body).toContain('<h1>Accessibility statement</h1>');
    expect(body).toContain('Wärmewerk Süd &lt;GmbH&gt; is committed');
    expect(body).toContain('<strong>partially conformant</strong>');
    expect(body).toContain('This statement was prepared on 3 December 2026');
    expect(body).toContain('Email: <a href="mailto:barrierefrei@waermewerk.example">');
    expect(body).toContain('(Schlichtungsstelle nach § 16 BGG)');
    expect(body).toContain(
      '<a href="/legal/barrierefreiheit.html" hreflang="de" lang="de">Deutsche Fassung</a>',
    );
    // The legal pages it links are German, and say so.
    expect(body).toContain('<a href="/legal/impressum.html" hreflang="de">Impressum</a>');
    expect(body).toContain('<a href="/legal/accessibility.html" aria-current="page">Accessibility</a>');
  });

  it('is linked from every legal page', async () => {
    for (const page of ['impressum', 'datenschutz', 'lizenz', 'avv'])
      expect((await get(`/legal/${page}.html`)).body).toContain(
        '<a href="/legal/barrierefreiheit.html">Barrierefreiheit</a>',
      );
  });
});

describe('accessibility statement links and contact', () => {
  it('is linked from the hosted sign-in pages in their language, at the address the server serves', () => {
    expect(STATEMENT_HREF).toEqual(STATEMENT_PATHS);
    const page = (lang: 'de' | 'en') =>
      renderPage({ lang, title: 'Anmelden', switchHref: '/auth/forgot', body: '' });
    expect(page('de')).toContain('<a href="/legal/barrierefreiheit.html">Barrierefreiheit</a>');
    expect(page('en')).toContain('<a href="/legal/accessibility.html">Accessibility</a>');
  });

  const render = (env: Record<string, string>, lang: 'de' | 'en' = 'de') =>
    renderAccessibilityStatement(
      lang,
      loadConfig({ NODE_ENV: 'test', DATA_DIR: '/tmp/heizplan-test', ...env }),
      legalFooterLinks('statement', lang),
    );

  it('takes the support address as the contact when the operator gives none', () => {
    const page = render({ SUPPORT_EMAIL: 'hilfe@stadtwerke.example' });
    expect(page).toContain('Der Betreiber dieser Heizplan-Installation ist bemüht');
    expect(page).toContain('E-Mail: <a href="mailto:hilfe@stadtwerke.example">');
  });

  it('says plainly when no contact is configured instead of printing a template', () => {
    expect(render({})).toContain('hat noch keine Kontaktangaben hinterlegt');
    expect(render({}, 'en')).toContain('has not given contact details yet');
    expect(render({}, 'en')).toContain('The operator of this Heizplan installation is committed');
  });
});
