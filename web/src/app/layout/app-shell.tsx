/**
 * The authenticated shell: a sidebar on wide screens, a top bar with a menu drawer on phones
 * (375 px). Screens render into <Outlet/>. One navigation entry is current — the one whose
 * address matches most of the path, so /settings/billing is the shop, not the settings too — and
 * a newly opened screen starts at its top rather than where the last one was scrolled to. The
 * first-run tour's entry sits here; the tour itself loads only when it starts. Under the company
 * switcher, a company with several buildings chooses the building its lists start at.
 */
import { can } from '@heizplan/contracts/permissions';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation, useNavigationType } from 'react-router';
import { Icon } from '../../components/ui/icon.tsx';
import { AlertBadge } from '../../features/alerts/components/alert-indicators.tsx';
import { SubscriptionNotice, useShopTarget } from '../../features/billing/components/subscription-notice.tsx';
import { CompanySwitcher } from '../../features/company/components/company-switcher.tsx';
import { TourLauncher } from '../../features/tour/tour-launcher.tsx';
import { useCurrentRole } from '../../lib/use-can.ts';
import { BuildingSwitcher } from './building-switcher.tsx';
import { mainNav, type NavItem, secondaryNav } from './nav-items.ts';

/** The address among `targets` that `pathname` is at or below, the longest if several are. */
export function currentTarget(targets: string[], pathname: string): string | undefined {
  return targets
    .filter((to) => pathname === to || pathname.startsWith(`${to}/`))
    .sort((a, b) => b.length - a.length)[0];
}

function NavEntry({ item, current }: { item: NavItem; current: boolean }) {
  const { t } = useTranslation();
  return (
    <li>
      <Link
        to={item.to}
        aria-current={current ? 'page' : undefined}
        data-testid={`nav-${item.labelKey.slice(4)}`}
        className={`flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium ${
          current ? 'bg-brand-100 text-brand-700' : 'text-stone-700 hover:bg-stone-100'
        }`}
      >
        <svg
          viewBox="0 0 24 24"
          className="size-5 shrink-0"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.7"
          strokeLinecap="round"
          strokeLinejoin="round"
          aria-hidden="true"
        >
          <path d={item.icon} />
        </svg>
        {t(item.labelKey)}
        {item.badge && <item.badge />}
      </Link>
    </li>
  );
}

function Navigation({ id }: { id: string }) {
  const { t } = useTranslation();
  const role = useCurrentRole();
  const shop = useShopTarget();
  const { pathname } = useLocation();
  const allowed = (item: NavItem) => !item.capability || can(role, item.capability);
  // "Shop" leads to the licence purchase or to billing, and is gone when nothing is billed.
  const secondary = secondaryNav
    .flatMap((item) => (item.labelKey === 'nav.shop' ? (shop ? [{ ...item, to: shop }] : []) : [item]))
    .filter(allowed);
  const main = mainNav.filter(allowed);
  const current = currentTarget(
    [...main, ...secondary].map((item) => item.to),
    pathname,
  );
  return (
    <nav aria-label={t('nav.main')} id={id} className="flex h-full flex-col gap-6 p-3">
      <div className="flex flex-col gap-3">
        <CompanySwitcher id={`${id}-company`} />
        <BuildingSwitcher id={`${id}-building`} />
      </div>
      <SubscriptionNotice />
      <ul className="flex flex-col gap-1">
        {main.map((item) => (
          <NavEntry key={item.to} item={item} current={item.to === current} />
        ))}
      </ul>
      <ul className="mt-auto flex flex-col gap-1 border-t border-stone-200 pt-3">
        {secondary.map((item) => (
          <NavEntry key={item.to} item={item} current={item.to === current} />
        ))}
      </ul>
    </nav>
  );
}

function Brand() {
  const { t } = useTranslation();
  return (
    <span className="flex items-center gap-2 text-lg font-semibold text-ink">
      <img src="/favicon.svg" alt="" className="size-7" />
      {t('appName')}
    </span>
  );
}

export function AppShell() {
  const { t } = useTranslation();
  const [menuOpen, setMenuOpen] = useState(false);
  const location = useLocation();
  const navigationType = useNavigationType();
  const toggleRef = useRef<HTMLButtonElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: close the drawer whenever the route changes
  useEffect(() => setMenuOpen(false), [location.pathname]);
  // Escape closes the open menu and leaves focus on its button (WCAG 2.1.1, 2.4.3).
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      setMenuOpen(false);
      toggleRef.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);
  // Back and forward leave the browser's own scroll restoration alone; a link to an anchor too.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when another screen opens
  useEffect(() => {
    if (navigationType === 'POP' || location.hash) return;
    (document.scrollingElement ?? document.documentElement).scrollTop = 0;
  }, [location.pathname]);

  return (
    <div className="flex min-h-full">
      <a
        href="#content"
        className="sr-only focus:not-sr-only focus:absolute focus:m-2 focus:rounded focus:bg-white focus:p-2"
      >
        {t('skipToContent')}
      </a>
      <aside className="hidden w-60 shrink-0 flex-col border-r border-stone-200 bg-white md:flex">
        <div className="px-5 py-4">
          <Brand />
        </div>
        <Navigation id="nav-desktop" />
      </aside>
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="flex items-center justify-between border-b border-stone-200 bg-white px-4 py-3 md:hidden">
          <Brand />
          <div className="flex items-center gap-2">
            <AlertBadge link />
            <button
              ref={toggleRef}
              type="button"
              className="rounded-lg p-2 hover:bg-stone-100"
              aria-expanded={menuOpen}
              aria-controls="nav-mobile"
              aria-label={menuOpen ? t('nav.closeMenu') : t('nav.openMenu')}
              data-testid="nav-toggle"
              onClick={() => setMenuOpen((o) => !o)}
            >
              <Icon name={menuOpen ? 'close' : 'menu'} className="size-6" />
            </button>
          </div>
        </header>
        {menuOpen && (
          <div className="border-b border-stone-200 bg-white md:hidden">
            <Navigation id="nav-mobile" />
          </div>
        )}
        {/* Focusable from script only: the skip link and a closed dialog whose opener is gone land here. */}
        <main id="content" tabIndex={-1} className="min-w-0 flex-1 focus:outline-none">
          <Outlet />
        </main>
        <TourLauncher />
      </div>
    </div>
  );
}
