/**
 * `/settings/*`: a title and tabs for the settings children of spec §2; screens render below.
 * Billing and team are for admins only (decision 0022), so other roles do not see those tabs;
 * billing is gone too when the server bills nothing (`BILLING_PROVIDER=none`, issue 13).
 */
import type { Capability } from '@heizplan/contracts/permissions';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet, useLocation } from 'react-router';
import { cx } from '../../components/ui/cx.ts';
import { useBilling } from '../../features/billing/api/billing.ts';
import { useCan, useCurrentCompanyId } from '../../lib/use-can.ts';

const TABS: Array<{ tab: string; capability?: Capability }> = [
  { tab: 'general' },
  { tab: 'language' },
  { tab: 'help' },
  { tab: 'billing', capability: 'manage' },
  { tab: 'team', capability: 'manage' },
  { tab: 'company' },
];

export function SettingsLayout() {
  const { t } = useTranslation('settings');
  const canManage = useCan('manage');
  const billingOff = useBilling(useCurrentCompanyId()).data?.provider === 'none';
  const tabs = TABS.filter(
    ({ tab, capability }) => (!capability || canManage) && !(tab === 'billing' && billingOff),
  ).map(({ tab }) => tab);
  const nav = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  // On a phone the tabs scroll sideways: keep the open one in view (e.g. "Team" past the edge).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the open tab or the tab list changes
  useEffect(() => {
    nav.current
      ?.querySelector('[aria-current="page"]')
      ?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [pathname, tabs.length]);
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6 p-4 sm:p-6">
      <h1 className="text-2xl font-semibold">{t('title')}</h1>
      <nav ref={nav} aria-label={t('tabsLabel')} className="-mx-4 overflow-x-auto px-4 sm:mx-0 sm:px-0">
        <ul className="flex min-w-max gap-1 border-b border-stone-200">
          {tabs.map((tab) => (
            <li key={tab}>
              <NavLink
                to={`/settings/${tab}`}
                data-testid={`settings-tab-${tab}`}
                className={({ isActive }) =>
                  cx(
                    '-mb-px block border-b-2 px-3 py-2 text-sm font-medium',
                    isActive
                      ? 'border-brand-600 text-brand-700'
                      : 'border-transparent text-stone-600 hover:text-ink',
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
