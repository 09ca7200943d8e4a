/**
 * `/settings/*`: a title and tabs for the settings children of spec §2; screens render below.
 * Billing and team are for admins only (decision 0022), so other roles do not see those tabs;
 * billing is gone too when the server bills nothing (`BILLING_PROVIDER=none`).
 * On a phone the tabs wrap onto a second line as buttons: a sideways scrolling tab bar hid
 * "Team" and "Unternehmen" past the edge, and nobody thinks to swipe it.
 */
import type { Capability } from '@heizplan/contracts/permissions';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet, useLocation } from 'react-router';
import { cx } from '../../components/ui/cx.ts';
import { useBilling } from '../../features/billing/api/billing.ts';
import { usePageTitle } from '../../lib/page-title.tsx';
import { useCan, useCurrentCompanyId } from '../../lib/use-can.ts';

const TABS: Array<{ tab: string; capability?: Capability }> = [
  { tab: 'general' },
  { tab: 'language' },
  { tab: 'help' },
  { tab: 'billing', capability: 'manage' },
  { tab: 'team', capability: 'manage' },
  { tab: 'company' },
  { tab: 'api', capability: 'manage' },
  { tab: 'audit', capability: 'manage' },
];

export function SettingsLayout() {
  const { t } = useTranslation('settings');
  const canManage = useCan('manage');
  const billingOff = useBilling(useCurrentCompanyId()).data?.provider === 'none';
  const tabs = TABS.filter(
    ({ tab, capability }) => (!capability || canManage) && !(tab === 'billing' && billingOff),
  ).map(({ tab }) => tab);
  const { pathname } = useLocation();
  const { t: tUi } = useTranslation();
  const [, , current, sub] = pathname.split('/');
  const screen =
    current === 'help' && sub === 'changelog' ? tUi('nav.changelog') : current && t(`tabs.${current}`);
  usePageTitle(screen, t('title'));
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6 p-4 sm:p-6">
      <h1 className="text-2xl font-semibold">{t('title')}</h1>
      <nav aria-label={t('tabsLabel')} data-testid="settings-tabs">
        <ul className="flex flex-wrap gap-1 sm:border-b sm:border-stone-200">
          {tabs.map((tab) => (
            <li key={tab}>
              <NavLink
                to={`/settings/${tab}`}
                data-testid={`settings-tab-${tab}`}
                className={({ isActive }) =>
                  cx(
                    'block rounded-lg px-3 py-2 text-sm font-medium sm:-mb-px sm:rounded-none sm:border-b-2',
                    isActive
                      ? 'bg-brand-100 text-brand-700 sm:border-brand-600 sm:bg-transparent'
                      : 'text-stone-600 hover:bg-stone-100 hover:text-ink sm:border-transparent sm:hover:bg-transparent',
                  )
                }
              >
                {t(`tabs.${tab}`)}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Outlet />
    </div>
  );
}
