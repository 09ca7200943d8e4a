/**
 * The accessibility statement ("Erklärung zur Barrierefreiheit") that BITV 2.0 § 7 asks of a
 * website, in German and English, rendered by the server like the other legal pages: the
 * conformance status (partially conformant to WCAG 2.1 AA, EN 301 549, BITV 2.0), the parts known
 * not to conform, when and how the statement was prepared, a feedback contact from the operator's
 * configuration (OPERATOR_EMAIL and OPERATOR_PHONE, else SUPPORT_EMAIL) and the enforcement
 * procedure (the conciliation body under § 16 BGG). Every configured value is escaped.
 *
 * The known gaps are the software's, so they live here and change with it: update the list and
 * STATEMENT_DATE together whenever a gap is closed or found.
 */
import { escapeHtml } from '../../auth/pages.ts';
import type { Config } from '../../config.ts';
import { legalDocument } from './legal-document.ts';

/** The day this statement was last reviewed against the software (ISO date). */
export const STATEMENT_DATE = '2026-12-03';

export type StatementLang = 'de' | 'en';

/** The statement's address per language: a German and an English page, each linking the other. */
export const STATEMENT_PATHS: Record<StatementLang, string> = {
  de: '/legal/barrierefreiheit.html',
  en: '/legal/accessibility.html',
};

/** How the footers name the statement, per language. */
export const STATEMENT_LINK_TEXTS: Record<StatementLang, string> = {
  de: 'Barrierefreiheit',
  en: 'Accessibility',
};

const SCHLICHTUNGSSTELLE = 'https://www.schlichtungsstelle-bgg.de';
const SCHLICHTUNGSSTELLE_EMAIL = 'info@schlichtungsstelle-bgg.de';

interface Texts {
  title: string;
  otherLanguage: string;
  intro: (who: string, url: string) => string;
  operatorFallback: string;
  statusTitle: string;
  status: string;
  gapsTitle: string;
  gapsIntro: string;
  gaps: string[];
  preparationTitle: string;
  preparation: (date: string) => string;
  feedbackTitle: string;
  feedback: string;
  email: string;
  phone: string;
  noContact: string;
  enforcementTitle: string;
  enforcement: string[];
  legal: string;
}

const de: Texts = {
  title: 'Erklärung zur Barrierefreiheit',
  otherLanguage: 'English version',
  intro: (who, url) =>
    `${who} ist bemüht, die Heizplan-Installation unter <a href="${url}">${url}</a> im Einklang mit der Barrierefreie-Informationstechnik-Verordnung (BITV 2.0) und der Richtlinie (EU) 2016/2102 barrierefrei zugänglich zu machen. Diese Erklärung gilt für die Web-Anwendung, die Seiten zum Anmelden, Registrieren und Zurücksetzen des Passworts, die öffentliche Raumseite hinter den QR-Codes und die Rechtsseiten.`,
  operatorFallback: 'Der Betreiber dieser Heizplan-Installation',
  statusTitle: 'Stand der Vereinbarkeit mit den Anforderungen',
  status:
    'Die Anwendung ist <strong>teilweise vereinbar</strong> mit den Web Content Accessibility Guidelines (WCAG) 2.1, Konformitätsstufe AA, der europäischen Norm EN 301 549 V3.2.1 und der BITV 2.0. Die Unvereinbarkeiten und Ausnahmen sind unten aufgeführt.',
  gapsTitle: 'Nicht barrierefreie Inhalte',
  gapsIntro: 'Die folgenden Inhalte sind nicht oder nur eingeschränkt barrierefrei:',
  gaps: [
    'Diagramme (Temperaturverlauf eines Raums, Tagesverlauf der Berichte, 7-Tage-Vorschau): Die Zeichnung selbst lässt sich nicht mit der Tastatur ablesen; Werte unter dem Mauszeiger erscheinen nur mit der Maus. Jedes Diagramm nennt seine aktuellen Werte und zeigt seine Daten über „Daten als Tabelle“ als Tabelle (WCAG 1.1.1, 2.1.1).',
    'Terminkalender, Wochen- und Tagesansicht: Ein freies Zeitfenster lässt sich nur mit der Maus oder dem Finger aufziehen; mit der Tastatur legen Sie einen Termin über „Neuer Termin“ an. Schließzeiten, Feiertage und Buchungen werden dort als Hintergrund gezeichnet; Bildschirmleser sagen sie als Schaltflächen an, obwohl sie nichts öffnen. Die Monatsansicht nennt sie im Namen jedes Tages, die Legende unter dem Kalender listet ihre Arten (WCAG 2.1.1, 4.1.2).',
    'Die 7-Tage-Vorschau ist mindestens 640 Pixel breit und wird auf schmalen Bildschirmen seitlich verschoben; lange Beschriftungen einer Stufe werden in der Zeichnung gekürzt. Der vollständige Text steht in der Tabelle der Stufen.',
    'Impressum, Datenschutzerklärung, Lizenzbedingungen und Auftragsverarbeitungsvertrag gibt es nur auf Deutsch.',
    'Noch nicht vollständig geprüft sind die Darstellung bei 400 % Vergrößerung und 320 CSS-Pixel Breite (WCAG 1.4.10) sowie die Reihenfolge der Tastaturbedienung in allen Dialogen (WCAG 2.4.3); Mängel, die Sie dabei bemerken, melden Sie bitte über die Kontaktangaben unten.',
  ],
  preparationTitle: 'Erstellung dieser Erklärung',
  preparation: (date) =>
    `Diese Erklärung wurde am ${date} erstellt und zuletzt am selben Tag überprüft. Die Einschätzung beruht auf einer Selbstbewertung der Entwicklerinnen und Entwickler von Heizplan mit automatischen Prüfungen (Kontraste, Namen und Rollen der Bedienelemente, Bedienung mit der Tastatur in ausgewählten Abläufen); eine Prüfung mit Bildschirmlesern und durch eine unabhängige Stelle (BITV-Test) hat noch nicht stattgefunden.`,
  feedbackTitle: 'Feedback und Kontaktangaben',
  feedback:
    'Sind Ihnen Mängel beim barrierefreien Zugang zu Inhalten aufgefallen, oder benötigen Sie Informationen aus nicht barrierefreien Inhalten in einer zugänglichen Form? Dann wenden Sie sich bitte an:',
  email: 'E-Mail',
  phone: 'Telefon',
  noContact:
    'Der Betreiber dieser Heizplan-Installation hat noch keine Kontaktangaben hinterlegt. Wenden Sie sich an Ihr Unternehmen oder an die Stelle, die Ihnen den Zugang gegeben hat.',
  enforcementTitle: 'Schlichtungsverfahren',
  enforcement: [
    'Wenn auch nach Ihrem Feedback an den oben genannten Kontakt keine zufriedenstellende Lösung gefunden wurde, können Sie sich an die Schlichtungsstelle nach § 16 Behindertengleichstellungsgesetz (BGG) wenden. Die Schlichtungsstelle BGG hat die Aufgabe, bei Konflikten zum Thema Barrierefreiheit zwischen Menschen mit Behinderungen und öffentlichen Stellen des Bundes eine außergerichtliche Streitbeilegung zu unterstützen. Das Schlichtungsverfahren ist kostenlos. Es muss kein Rechtsbeistand eingeschaltet werden.',
    `Weitere Informationen zum Schlichtungsverfahren und zur Antragstellung erhalten Sie unter <a href="${SCHLICHTUNGSSTELLE}">${SCHLICHTUNGSSTELLE.replace('https://', '')}</a>. Direkt erreichen Sie die Schlichtungsstelle BGG unter <a href="mailto:${SCHLICHTUNGSSTELLE_EMAIL}">${SCHLICHTUNGSSTELLE_EMAIL}</a>.`,
  ],
  legal: 'Rechtliches',
};

const en: Texts = {
  title: 'Accessibility statement',
  otherLanguage: 'Deutsche Fassung',
  intro: (who, url) =>
    `${who} is committed to making the Heizplan installation at <a href="${url}">${url}</a> accessible in accordance with the German Barrier-Free Information Technology Ordinance (BITV 2.0) and Directive (EU) 2016/2102. This statement applies to the web application, the pages to sign in, register and reset a password, the public room page behind the QR codes and the legal pages.`,
  operatorFallback: 'The operator of this Heizplan installation',
  statusTitle: 'Compliance status',
  status:
    'The application is <strong>partially conformant</strong> with the Web Content Accessibility Guidelines (WCAG) 2.1, level AA, the European standard EN 301 549 V3.2.1 and BITV 2.0. The non-conformities and exemptions are listed below.',
  gapsTitle: 'Non-accessible content',
  gapsIntro: 'The following content is not, or not fully, accessible:',
  gaps: [
    'Charts (a room’s temperature history, the reports’ daily course, the 7-day preview): the drawing itself cannot be read with the keyboard; values under the pointer show with a mouse only. Each chart names its current values and shows its data as a table through “Show data as table” (WCAG 1.1.1, 2.1.1).',
    'Events calendar, week and day views: a free time slot can only be dragged out with a mouse or a finger; with the keyboard, create an event with “New event”. Closures, holidays and bookings are drawn there as a background; screen readers announce them as buttons although they open nothing. The month view names them in each day’s name, and the legend under the calendar lists their kinds (WCAG 2.1.1, 4.1.2).',
    'The 7-day preview is at least 640 pixels wide and scrolls sideways on narrow screens; long labels of a step are shortened in the drawing. The whole text is in the table of steps.',
    'The legal notice (Impressum), the privacy notice, the licence terms and the data-processing agreement are available in German only.',
    'Not yet fully tested: the layout at 400 % zoom and 320 CSS pixels wide (WCAG 1.4.10) and the keyboard focus order in every dialog (WCAG 2.4.3); please report anything you notice there through the contact below.',
  ],
  preparationTitle: 'Preparation of this statement',
  preparation: (date) =>
    `This statement was prepared on ${date} and last reviewed on the same day. It is based on a self-assessment by Heizplan’s developers with automated checks (contrast, names and roles of the controls, keyboard operation in selected flows); a review with screen readers and an evaluation by an independent body (BITV test) have not taken place yet.`,
  feedbackTitle: 'Feedback and contact information',
  feedback:
    'Have you noticed barriers to accessing content, or do you need information from non-accessible content in an accessible form? Please contact:',
  email: 'Email',
  phone: 'Phone',
  noContact:
    'The operator of this Heizplan installation has not given contact details yet. Please contact your company or whoever gave you access.',
  enforcementTitle: 'Enforcement procedure',
  enforcement: [
    'If no satisfactory solution has been found after your feedback to the contact above, you can turn to the conciliation body under § 16 of the German Disability Equality Act (Schlichtungsstelle nach § 16 BGG). The conciliation body supports out-of-court settlements of disputes about accessibility between people with disabilities and federal public bodies. The procedure is free of charge; you do not need a lawyer.',
    `More about the procedure and how to apply (in German): <a href="${SCHLICHTUNGSSTELLE}" hreflang="de">${SCHLICHTUNGSSTELLE.replace('https://', '')}</a>. You can reach the conciliation body directly at <a href="mailto:${SCHLICHTUNGSSTELLE_EMAIL}">${SCHLICHTUNGSSTELLE_EMAIL}</a>.`,
  ],
  legal: 'Legal',
};

const TEXTS: Record<StatementLang, Texts> = { de, en };

/** The statement's date as readers of `lang` write it: "03.12.2026" / "3 December 2026". */
function dateText(lang: StatementLang): string {
  return new Intl.DateTimeFormat(lang === 'de' ? 'de-DE' : 'en-GB', {
    dateStyle: lang === 'de' ? 'medium' : 'long',
    timeZone: 'UTC',
  }).format(new Date(`${STATEMENT_DATE}T00:00:00Z`));
}

/** Where to report a barrier: the operator's e-mail and phone, else the support address. */
function contact(t: Texts, config: Pick<Config, 'operator' | 'support'>): string {
  const email = config.operator.email ?? config.support.email;
  const lines = [
    config.operator.name ? escapeHtml(config.operator.name) : null,
    email ? `${t.email}: <a href="mailto:${escapeHtml(email)}">${escapeHtml(email)}</a>` : null,
    config.operator.phone ? `${t.phone}: ${escapeHtml(config.operator.phone)}` : null,
  ].filter((line): line is string => line !== null);
  if (!email && !config.operator.phone) return `<p class="missing">${t.noContact}</p>`;
  return `<p>${t.feedback}</p>\n<p>${lines.join('<br>')}</p>`;
}

/**
 * The whole HTML document of the statement in `lang`. `footerLinks` are the other legal pages'
 * links (the German ones), shown under the statement as on every legal page.
 */
export function renderAccessibilityStatement(
  lang: StatementLang,
  config: Pick<Config, 'operator' | 'support' | 'publicUrl'>,
  footerLinks: string,
): string {
  const t = TEXTS[lang];
  const other: StatementLang = lang === 'de' ? 'en' : 'de';
  const who = config.operator.name ? escapeHtml(config.operator.name) : t.operatorFallback;
  const url = escapeHtml(config.publicUrl);
  const body = `<p class="stand"><a href="${STATEMENT_PATHS[other]}" hreflang="${other}" lang="${other}">${t.otherLanguage}</a></p>
<p>${t.intro(who, url)}</p>
<h2>${t.statusTitle}</h2>
<p>${t.status}</p>
<h2>${t.gapsTitle}</h2>
<p>${t.gapsIntro}</p>
<ul>
${t.gaps.map((gap) => `<li>${gap}</li>`).join('\n')}
</ul>
<h2>${t.preparationTitle}</h2>
<p>${t.preparation(dateText(lang))}</p>
<h2>${t.feedbackTitle}</h2>
${contact(t, config)}
<h2>${t.enforcementTitle}</h2>
${t.enforcement.map((paragraph) => `<p>${paragraph}</p>`).join('\n')}`;
  return legalDocument({ lang, title: t.title, body, navLabel: t.legal, links: footerLinks });
}
