/**
 * Navigation entries of spec §2 ("Navigation labels"), plus groups, buildings, heating circuits, events,
 * closures and booking calendars, which are routes too, the alert centre with its badge, and
 * the reports. An entry with a `capability` shows only to roles that have it (decision 0022).
 */
import type { Capability } from '@heizplan/contracts/permissions';
import type { ComponentType } from 'react';
import { AlertBadge } from '../../features/alerts/components/alert-indicators.tsx';

export interface NavItem {
  to: string;
  labelKey: string;
  icon: string;
  capability?: Capability;
  /** Shown at the end of the entry, e.g. the number of open alerts. */
  badge?: ComponentType;
}

/** SVG path data (24×24, stroked) per entry; kept here so the shell stays declarative. */
export const mainNav: NavItem[] = [
  { to: '/units', labelKey: 'nav.units', icon: 'M3 10.5 12 4l9 6.5V20H3zM9 20v-6h6v6' },
  { to: '/groups', labelKey: 'nav.groups', icon: 'M4 5h7v6H4zM13 5h7v6h-7zM4 13h7v6H4zM13 13h7v6h-7z' },
  {
    to: '/buildings',
    labelKey: 'nav.buildings',
    icon: 'M4 21V5l8-2v18M12 8l8 2v11M3 21h18M7 8h2M7 12h2M7 16h2M15 13h2M15 17h2',
  },
  {
    to: '/heating-circuits',
    labelKey: 'nav.heatingCircuits',
    icon: 'M6 20V8a3 3 0 0 1 6 0v8a3 3 0 0 0 6 0V4M4 20h4M16 4h4',
  },
  { to: '/events', labelKey: 'nav.events', icon: 'M4 6h16v14H4zM4 10h16M8 3v4M16 3v4' },
  {
    to: '/closures',
    labelKey: 'nav.closures',
    icon: 'M4 6h16v14H4zM4 10h16M8 3v4M16 3v4M9 13l6 5M15 13l-6 5',
  },
  {
    to: '/booking-feeds',
    labelKey: 'nav.bookingFeeds',
    icon: 'M4 6h16v14H4zM4 10h16M8 3v4M16 3v4M8 14h3v3H8z',
  },
  { to: '/devices', labelKey: 'nav.devices', icon: 'M9 3h6v4H9zM7 7h10v14H7zM12 11v6' },
  {
    to: '/gateways',
    labelKey: 'nav.gateways',
    icon: 'M12 14v7M8 21h8M5 9a10 10 0 0 1 14 0M8 12a5 5 0 0 1 8 0',
  },
  {
    to: '/alerts',
    labelKey: 'nav.alerts',
    icon: 'M6 16V11a6 6 0 0 1 12 0v5l2 2H4zM10 21h4',
    badge: AlertBadge,
  },
  { to: '/reports', labelKey: 'nav.reports', icon: 'M4 20h16M7 16v-5M12 16V6M17 16v-8' },
  {
    to: '/assign',
    labelKey: 'nav.assign',
    capability: 'operate',
    icon: 'M4 4h6v6H4zM14 4h6v6h-6zM4 14h6v6H4zM14 14h2v2h-2zM18 18h2v2h-2z',
  },
];

export const secondaryNav: NavItem[] = [
  {
    to: '/settings',
    labelKey: 'nav.settings',
    icon: 'M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM19 12l2-1-1-3-2 .3-1.4-1.4.3-2-3-1-1 2h-2l-1-2-3 1 .3 2L6.8 7.3 5 7 4 10l2 1v2l-2 1 1 3 2-.3 1.4 1.4-.3 2 3 1 1-2h2l1 2 3-1-.3-2 1.4-1.4 2 .3 1-3-2-1z',
  },
  {
    to: '/settings/billing',
    labelKey: 'nav.shop',
    capability: 'manage',
    icon: 'M5 7h14l-1.5 9h-11zM9 7a3 3 0 0 1 6 0M9 20h.01M15 20h.01',
  },
  { to: '/settings/help/changelog', labelKey: 'nav.changelog', icon: 'M6 4h12v16H6zM9 8h6M9 12h6M9 16h4' },
  { to: '/logout', labelKey: 'nav.logout', icon: 'M15 4h4v16h-4M10 8l-4 4 4 4M6 12h10' },
];
