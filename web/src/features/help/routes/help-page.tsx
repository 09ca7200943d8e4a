/**
 * `/settings/help` (spec §2 settings help): help for operators — how the heating engine decides a
 * unit's setpoint (docs/architecture.md, decisions 0004 and 0051: pause, closures, events that
 * prevent regular operation, the latest of switch point, event and manual change; own over group
 * plan, specific days over seasonal, no plan → frost protection; company range and wall-control
 * limits), putting devices into service (licences, DevEUI/AppKey/JoinEUI, the TR005 code on
 * /assign), the occupants' page and its 1.5 °C advice (spec §1), the roles (decision 0022), the
 * support contact from SUPPORT_EMAIL / SUPPORT_URL, the installation's legal pages and its
 * accessibility statement (served by the server, the statement in the UI language), the way to the
 * changelog, and the first-run tour again.
 */
import type { Role } from '@heizplan/contracts/account';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SettingsCard } from '../../../components/settings-card.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useAppConfig } from '../../../lib/app-config.ts';
import { requestTour } from '../../../lib/tour-request.ts';

/** Strongest first, as the table reads. */
const ROLES: Role[] = ['admin', 'heating', 'ems'];

const linkClass = 'font-medium text-brand-700 underline-offset-2 hover:underline';

function Items({ items, ordered = false, testid }: { items: string[]; ordered?: boolean; testid?: string }) {
  const List = ordered ? 'ol' : 'ul';
  return (
    <List
      className={`mt-2 flex flex-col gap-2 pl-5 text-sm text-stone-700 ${ordered ? 'list-decimal' : 'list-disc'}`}
      data-testid={testid}
    >
      {items.map((item) => (
        <li key={item}>{item}</li>
      ))}
    </List>
  );
}

function Subheading({ children }: { children: ReactNode }) {
  return <h3 className="mt-5 text-base font-semibold text-ink">{children}</h3>;
}

/** The running version, next to the changelog link: what a support request should name. */
function RunningVersion() {
  const { t } = useTranslation('help');
  const config = useAppConfig();
  if (!config.data) return null;
  return (
    <p className="text-sm text-stone-700" data-testid="help-version">
      {t('version', { version: config.data.version })}
    </p>
  );
}

function Support() {
  const { t } = useTranslation('help');
  const config = useAppConfig();
  if (config.isPending) return <Spinner loading testid="help-support-loading" />;
  const { email, url } = config.data?.support ?? { email: null, url: null };
  if (!email && !url) {
    return (
      <p className="text-sm text-stone-700" data-testid="help-support-none">
        {t('support.none')}
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-2 text-sm text-stone-700">
      <p>{t('support.text')}</p>
      {email && (
        <a href={`mailto:${email}`} className={linkClass} data-testid="help-support-email">
          {t('support.email', { email })}
        </a>
      )}
      {url && (
        <a href={url} target="_blank" rel="noreferrer" className={linkClass} data-testid="help-support-url">
          {t('support.url')}
        </a>
      )}
    </div>
  );
}

/** The server's accessibility statement per UI language (German for any other). */
const STATEMENT: Record<string, string> = {
  de: '/legal/barrierefreiheit.html',
  en: '/legal/accessibility.html',
};

/** The legal pages the server renders with the operator: the statement first, in the UI language. */
function LegalLinks() {
  const { t, i18n } = useTranslation('help');
  return (
    <nav aria-label={t('legal.label')} className="mt-4 flex flex-wrap gap-x-4 gap-y-1 text-sm">
      <a href={STATEMENT[i18n.language] ?? STATEMENT.de} className={linkClass}>
        {t('legal.accessibility')}
      </a>
      <a href="/legal/impressum.html" className={linkClass}>
        {t('legal.imprint')}
      </a>
      <a href="/legal/datenschutz.html" hrefLang="de" className={linkClass}>
        {t('legal.privacy')}
      </a>
    </nav>
  );
}

/**
 * The help screen; `children` are cards the app adds after the tour's, from features this one
 * may not import (the getting-started checklist, app/routes/help-page.tsx).
 */
export function HelpPage({ children }: { children?: ReactNode }) {
  const { t } = useTranslation('help');
  const { t: common } = useTranslation();
  const list = (key: string) => t(key, { returnObjects: true }) as string[];
  return (
    <div className="flex flex-col gap-6" data-testid="settings-help">
      <p className="text-sm text-stone-700">{t('intro')}</p>
      <SettingsCard title={t('tour.title')} description={t('tour.text')} testid="help-tour">
        <div>
          <Button variant="secondary" onClick={requestTour} testid="help-tour-start">
            {t('tour.start')}
          </Button>
        </div>
      </SettingsCard>
      {children}
      <SettingsCard title={t('setpoint.title')} description={t('setpoint.intro')} testid="help-setpoint">
        <Items items={list('setpoint.rules')} ordered testid="help-setpoint-rules" />
        <Subheading>{t('setpoint.plansTitle')}</Subheading>
        <Items items={list('setpoint.plans')} />
        <Subheading>{t('setpoint.limitsTitle')}</Subheading>
        <Items items={list('setpoint.limits')} />
        <p className="mt-4 text-sm text-stone-700">{t('setpoint.log')}</p>
      </SettingsCard>

      <SettingsCard title={t('devices.title')} testid="help-devices">
        <Items items={list('devices.steps')} ordered />
      </SettingsCard>

      <SettingsCard title={t('publicPage.title')} testid="help-public-page">
        <p className="text-sm text-stone-700">{t('publicPage.text')}</p>
        <p className="mt-4 text-sm text-stone-700">{t('publicPage.helpIntro')}</p>
        <Items items={list('publicPage.help')} />
        <p className="mt-4 text-sm text-stone-700">{t('publicPage.helpContact')}</p>
      </SettingsCard>

      <SettingsCard title={t('roles.title')} description={t('roles.intro')} testid="help-roles">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{t('roles.caption')}</caption>
          <thead>
            <tr className="border-b border-stone-200 text-stone-600">
              <th scope="col" className="py-2 pr-4 font-medium">
                {t('roles.role')}
              </th>
              <th scope="col" className="py-2 font-medium">
                {t('roles.may')}
              </th>
            </tr>
          </thead>
          <tbody>
            {ROLES.map((role) => (
              <tr key={role} className="border-b border-stone-100 align-top last:border-0">
                <th scope="row" className="py-2 pr-4 font-medium whitespace-nowrap text-ink">
                  {common(`roles.${role}`)}
                </th>
                <td className="py-2 text-stone-700">{t(`roles.${role}`)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </SettingsCard>

      <SettingsCard title={t('support.title')} testid="help-support">
        <Support />
        <LegalLinks />
      </SettingsCard>

      <SettingsCard title={t('changelog.title')} description={t('changelog.text')} testid="help-changelog">
        <RunningVersion />
        <Link to="/settings/help/changelog" className={linkClass} data-testid="help-changelog-link">
          {t('changelog.open')}
        </Link>
      </SettingsCard>
    </div>
  );
}
