/**
 * The legal pages of an installation, rendered by the server so they name its operator from the
 * configuration (OPERATOR_*, config.ts) instead of a template's "the operator who provides it":
 * the Impressum (provider identification, § 5 DDG), the privacy notice (the controller, Art. 13
 * (1) a GDPR), the licence terms and the data-processing agreement (Art. 28 GDPR) with the
 * provider named. In German, the language of the agreements a company accepts; the versions shown
 * are the ones a company accepts (AGREEMENT_VERSION_*). Every configured value is escaped. Each
 * page links the others in its footer.
 */
import { escapeHtml } from '../../auth/pages.ts';
import type { Config, OperatorDetails } from '../../config.ts';
import { STATEMENT_LINK_TEXTS, STATEMENT_PATHS, type StatementLang } from './accessibility-statement.ts';
import { legalDocument } from './legal-document.ts';

/** The pages, by the file name they are served under (`/legal/{name}.html`). */
export const LEGAL_PAGES = ['impressum', 'datenschutz', 'lizenz', 'avv'] as const;
export type LegalPage = (typeof LEGAL_PAGES)[number];

const TITLES: Record<LegalPage, string> = {
  impressum: 'Impressum',
  datenschutz: 'Datenschutzerklärung',
  lizenz: 'Lizenzbedingungen',
  avv: 'Auftragsverarbeitungsvertrag (AVV)',
};

/** The footer's short names, so the four links fit a 375 px phone. */
const LINK_TEXTS: Record<LegalPage, string> = {
  impressum: 'Impressum',
  datenschutz: 'Datenschutz',
  lizenz: 'Lizenzbedingungen',
  avv: 'AVV',
};

/** Whether the operator named itself enough for an Impressum: a name, an address and a way to reach it. */
export function operatorNamed(operator: OperatorDetails): boolean {
  return Boolean(operator.name && operator.address.length > 0 && (operator.email || operator.phone));
}

const MISSING = `<p class="missing">Der Betreiber dieser Heizplan-Installation hat seine Angaben noch nicht hinterlegt. Wenden Sie sich an Ihr Unternehmen oder an die Stelle, die Ihnen den Zugang gegeben hat.</p>`;

/** Name and postal address, one line each. */
function addressBlock(operator: OperatorDetails): string {
  const lines = [operator.name, ...operator.address].filter((line): line is string => Boolean(line));
  return `<address>${lines.map(escapeHtml).join('<br>')}</address>`;
}

function contactBlock(operator: OperatorDetails): string {
  const items = [
    operator.email
      ? `E-Mail: <a href="mailto:${escapeHtml(operator.email)}">${escapeHtml(operator.email)}</a>`
      : null,
    operator.phone ? `Telefon: ${escapeHtml(operator.phone)}` : null,
  ].filter(Boolean);
  return items.length > 0 ? `<p>${items.join('<br>')}</p>` : '';
}

function impressum(operator: OperatorDetails): string {
  if (!operator.name && operator.address.length === 0) return MISSING;
  return [
    '<h2>Angaben gemäß § 5 DDG</h2>',
    addressBlock(operator),
    operator.representative ? `<h2>Vertreten durch</h2><p>${escapeHtml(operator.representative)}</p>` : '',
    operator.email || operator.phone ? `<h2>Kontakt</h2>${contactBlock(operator)}` : '',
    operator.register ? `<h2>Registereintrag</h2><p>${escapeHtml(operator.register)}</p>` : '',
    operator.vatId
      ? `<h2>Umsatzsteuer-ID</h2><p>Umsatzsteuer-Identifikationsnummer gemäß § 27a Umsatzsteuergesetz: ${escapeHtml(operator.vatId)}</p>`
      : '',
    operatorNamed(operator) ? '' : MISSING,
    '<h2>Software</h2><p>Heizplan ist freie Software unter der GNU Affero General Public License v3.0 oder später.</p>',
  ].join('\n');
}

function controller(operator: OperatorDetails): string {
  if (!operator.name)
    return `<p>Verantwortlich für die Verarbeitung personenbezogener Daten in dieser Heizplan-Installation ist der Betreiber, der sie bereitstellt.</p>\n${MISSING}`;
  return `<p>Verantwortlich für die Verarbeitung personenbezogener Daten in dieser Heizplan-Installation ist:</p>\n${addressBlock(operator)}\n${contactBlock(operator)}`;
}

/** "Anbieter: …" above the licence terms and the AVV, when the operator is named. */
function provider(operator: OperatorDetails, role: string): string {
  if (!operator.name) return '';
  const where = operator.address.length > 0 ? `, ${operator.address.map(escapeHtml).join(', ')}` : '';
  return `<p>${role}: ${escapeHtml(operator.name)}${where}</p>`;
}

function content(page: LegalPage, operator: OperatorDetails): string {
  switch (page) {
    case 'impressum':
      return impressum(operator);
    case 'datenschutz':
      return `<h2>1. Verantwortlicher</h2>
${controller(operator)}
<h2>2. Welche Daten wir verarbeiten</h2>
<ul>
<li>Kontodaten: Name, E-Mail-Adresse, gewählte Sprache, Zeitpunkt der Registrierung und der letzten Anmeldung.</li>
<li>Unternehmensdaten: Name des Unternehmens, Mitgliedschaften und Rollen.</li>
<li>Betriebsdaten: Räume, Heizpläne, Ereignisse, Geräte, Messwerte (Raum-, Vorlauftemperatur, Ventilöffnung) und das Heizprotokoll.</li>
</ul>
<h2>3. Zwecke und Rechtsgrundlagen</h2>
<p>Wir verarbeiten die Daten, um die Heizungssteuerung bereitzustellen (Art. 6 Abs. 1 lit. b DSGVO) und um den sicheren Betrieb zu gewährleisten (Art. 6 Abs. 1 lit. f DSGVO).</p>
<h2>4. Speicherdauer</h2>
<p>Kontodaten werden gelöscht, sobald Sie die Löschung Ihres Kontos beantragen; das Konto wird sofort deaktiviert. Gesetzliche Aufbewahrungspflichten bleiben unberührt.</p>
<h2>5. Ihre Rechte</h2>
<p>Sie haben das Recht auf Auskunft, Berichtigung, Löschung, Einschränkung der Verarbeitung, Datenübertragbarkeit und Widerspruch sowie das Recht, sich bei einer Aufsichtsbehörde zu beschweren.</p>
<h2>6. Cookies und lokaler Speicher</h2>
<p>Für die Anmeldung werden ein Sitzungscookie des Anmeldedienstes und im Browser ein Zugriffstoken sowie das gewählte Unternehmen gespeichert. Es findet kein Tracking statt.</p>`.replace(
        '${controller}',
        controller(operator),
      );
    case 'lizenz':
      return `${provider(operator, 'Anbieter')}
<h2>1. Gegenstand</h2>
<p>Diese Bedingungen regeln die Nutzung von Heizplan zur Verwaltung der Heizung von Gebäuden, einschließlich der Gerätelizenzen, die je Gerät im Abonnement abgerechnet werden.</p>
<h2>2. Nutzungsrecht</h2>
<p>Ihr Unternehmen erhält für die Dauer des Abonnements ein einfaches, nicht übertragbares Recht, Heizplan für die lizenzierten Geräte zu nutzen. Die Software selbst steht unter der GNU Affero General Public License v3.0 oder später.</p>
<h2>3. Pflichten des Unternehmens</h2>
<ul>
<li>Zugangsdaten geheim halten und nur befugten Personen Zugang gewähren.</li>
<li>Temperaturgrenzen so festlegen, dass Frostschutz und Gesundheit der Nutzerinnen und Nutzer gewahrt bleiben.</li>
</ul>
<h2>4. Preise und Abrechnung</h2>
<p>Alle Preise sind Nettopreise. Abrechnungszeiträume sind monatlich, jährlich oder dreijährlich; eine Kündigung wirkt zum Ende des laufenden Abrechnungszeitraums.</p>
<h2>5. Haftung</h2>
<p>Für Schäden haften wir bei Vorsatz und grober Fahrlässigkeit unbeschränkt, im Übrigen nur bei Verletzung wesentlicher Vertragspflichten und begrenzt auf den vorhersehbaren, vertragstypischen Schaden.</p>
<h2>6. Änderungen</h2>
<p>Ändern sich diese Bedingungen, erhalten sie eine neue Version; sie gelten für Ihr Unternehmen erst, nachdem sie erneut akzeptiert wurden.</p>`;
    case 'avv':
      return `${provider(operator, 'Auftragsverarbeiter')}
<h2>1. Gegenstand und Dauer</h2>
<p>Der Auftragsverarbeiter verarbeitet personenbezogene Daten im Auftrag des Unternehmens (Verantwortlicher), um Heizplan bereitzustellen, für die Dauer des Abonnements.</p>
<h2>2. Art der Daten und betroffene Personen</h2>
<p>Kontodaten der Mitglieder des Unternehmens sowie Betriebsdaten der Räume; betroffen sind Beschäftigte des Unternehmens und Nutzerinnen und Nutzer der Räume.</p>
<h2>3. Weisungen</h2>
<p>Die Verarbeitung erfolgt ausschließlich auf dokumentierte Weisung des Verantwortlichen, die durch die Einstellungen in Heizplan erteilt wird.</p>
<h2>4. Technische und organisatorische Maßnahmen</h2>
<ul>
<li>Verschlüsselte Übertragung, Passwörter nur als speicherintensiver Hash.</li>
<li>Mandantentrennung: jedes Unternehmen sieht nur seine eigenen Daten.</li>
<li>Protokollierung ohne Zugangsdaten oder Passwörter.</li>
</ul>
<h2>5. Unterauftragsverarbeiter</h2>
<p>Unterauftragsverarbeiter (z. B. Rechenzentrum, E-Mail-Versand, Zahlungsdienst) werden nur nach vorheriger Information des Verantwortlichen eingesetzt.</p>
<h2>6. Löschung</h2>
<p>Nach Ende des Auftrags werden die Daten gelöscht, soweit keine gesetzliche Pflicht zur Aufbewahrung besteht.</p>`;
  }
}

/** The version line under a page's title. */
function versionLine(page: LegalPage, versions: Config['agreements']): string {
  switch (page) {
    case 'impressum':
      return '';
    case 'datenschutz':
      return `<p class="stand">Version ${versions.privacy}</p>`;
    case 'lizenz':
      return `<p class="stand">Version ${versions.license}</p>`;
    case 'avv':
      return `<p class="stand">nach Art. 28 DSGVO · Version ${versions.avv}</p>`;
  }
}

/**
 * The footer's links: the four German pages and the accessibility statement in `lang`, the page
 * shown (`current`) marked. From the English statement the German pages say they are German.
 */
export function legalFooterLinks(current: LegalPage | 'statement', lang: StatementLang = 'de'): string {
  const german = lang === 'de' ? '' : ' hreflang="de"';
  const pages = LEGAL_PAGES.map((other) =>
    other === current
      ? `<a href="/legal/${other}.html" aria-current="page">${LINK_TEXTS[other]}</a>`
      : `<a href="/legal/${other}.html"${german}>${LINK_TEXTS[other]}</a>`,
  );
  const statement = `<a href="${STATEMENT_PATHS[lang]}"${current === 'statement' ? ' aria-current="page"' : ''}>${STATEMENT_LINK_TEXTS[lang]}</a>`;
  return [...pages, statement].join('');
}

/** The whole HTML document of `page`. */
export function renderLegalPage(
  page: LegalPage,
  operator: OperatorDetails,
  versions: Config['agreements'],
): string {
  return legalDocument({
    lang: 'de',
    title: TITLES[page],
    heading: TITLES[page].replace('Auftragsverarbeitungsvertrag', 'Auftrags&shy;verarbeitungs&shy;vertrag'),
    body: `${versionLine(page, versions)}\n${content(page, operator)}`,
    navLabel: 'Rechtliches',
    links: legalFooterLinks(page),
  });
}
