/**
 * `/alerts`: the alert centre. Tabs — kept in the address (`?tab=`) so a link can
 * open one — for the alert list, the company's rules, its webhooks (admins only, decision 0022)
 * and the member's own mail setting. `?unitId=` preselects a unit in the list's filter, which
 * is how the units table's indicators and the unit page's banner lead here.
 */
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { SettingsCard } from '../../../components/settings-card.tsx';
import { cx } from '../../../components/ui/cx.ts';
import { useAllGroups } from '../../../lib/heating/list-groups.ts';
import { usePageTitle } from '../../../lib/page-title.tsx';
import { useCan } from '../../../lib/use-can.ts';
import { AlertRules } from '../components/alert-rules.tsx';
import { AlertsList } from '../components/alerts-list.tsx';
import { MailPreferences } from '../components/mail-preferences.tsx';
import { WebhooksPanel } from '../components/webhooks-panel.tsx';

const TABS = ['list', 'rules', 'webhooks', 'mail'] as const;
type Tab = (typeof TABS)[number];

function ListTab() {
  const groups = useAllGroups().data?.results ?? [];
  return <AlertsList groups={groups} />;
}

export function AlertsPage() {
  const { t } = useTranslation('alerts');
  usePageTitle(t('title'));
  const canManage = useCan('manage');
  const [params, setParams] = useSearchParams();
  const tabs = TABS.filter((tab) => tab !== 'webhooks' || canManage);
  const asked = params.get('tab');
  const current: Tab = tabs.find((tab) => tab === asked) ?? 'list';
  return (
    <section className="mx-auto flex w-full max-w-6xl flex-col gap-4 p-4 sm:p-6">
      <div>
        <h1 className="text-2xl font-semibold">{t('title')}</h1>
        <p className="mt-1 text-sm text-stone-700">{t('description')}</p>
      </div>
      <div
        role="tablist"
        aria-label={t('title')}
        className="-mx-4 flex overflow-x-auto border-b border-stone-200 px-4 sm:mx-0 sm:gap-1 sm:px-0"
      >
        {tabs.map((tab) => (
          <button
            key={tab}
            type="button"
            role="tab"
            aria-selected={tab === current}
            aria-controls="alerts-panel"
            data-testid={`alerts-tab-${tab}`}
            onClick={() => setParams(tab === 'list' ? {} : { tab })}
            className={cx(
              '-mb-px shrink-0 whitespace-nowrap border-b-2 px-2.5 py-2 text-sm font-medium sm:px-3',
              tab === current
                ? 'border-brand-600 text-brand-700'
                : 'border-transparent text-stone-600 hover:text-ink',
            )}
          >
            {t(`tabs.${tab}`)}
          </button>
        ))}
      </div>
      <div id="alerts-panel" role="tabpanel" className="flex flex-col gap-4">
        {current === 'list' && <ListTab />}
        {current === 'rules' && (
          <SettingsCard title={t('rules.title')} description={t('rules.description')} testid="alerts-rules">
            <AlertRules />
          </SettingsCard>
        )}
        {current === 'webhooks' && (
          <SettingsCard
            title={t('webhooks.title')}
            description={t('webhooks.description')}
            testid="alerts-webhooks"
          >
            <WebhooksPanel />
          </SettingsCard>
        )}
        {current === 'mail' && (
          <SettingsCard title={t('mail.title')} description={t('mail.description')} testid="alerts-mail">
            <MailPreferences />
          </SettingsCard>
        )}
      </div>
    </section>
  );
}
