/**
 * Where open alerts show outside the alert centre: the navigation's badge (open,
 * unacknowledged and not muted, refreshed every minute), a marker on a unit's or device's row,
 * and a banner on the unit page. Each leads to the alert list, filtered to the unit where
 * there is one; each shows nothing when there is nothing open. Their texts are in the `common`
 * namespace, so the screens that show them need not load the alert centre's.
 */
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Icon } from '../../../components/ui/icon.tsx';
import { useCurrentCompanyId } from '../../../lib/use-can.ts';
import { useAlertSummary } from '../api/alert-summary.ts';

/**
 * The number on the navigation's alerts entry; text for screen readers names it. As a `link`
 * (the phone's top bar, where the menu is closed) it leads to the alert list itself.
 */
export function AlertBadge({ link = false }: { link?: boolean }) {
  const { t } = useTranslation();
  const count = useAlertSummary(useCurrentCompanyId()).data?.attention ?? 0;
  if (count === 0) return null;
  const className =
    'min-w-5 rounded-full bg-red-700 px-1.5 text-center text-xs font-semibold leading-5 text-white';
  const content = (
    <>
      <span aria-hidden="true">{count > 99 ? '99+' : count}</span>
      <span className="sr-only">{t('nav.alertsBadge', { count })}</span>
    </>
  );
  return link ? (
    <Link to="/alerts" className={`${className} px-2 py-0.5`} data-testid="alerts-badge-link">
      {content}
    </Link>
  ) : (
    <span className={`ml-auto ${className}`} data-testid="alerts-badge">
      {content}
    </span>
  );
}

type Subject = { unitId: string } | { deviceId: string };

function useOpenCount(subject: Subject) {
  const summary = useAlertSummary(useCurrentCompanyId()).data;
  if (!summary) return 0;
  return 'unitId' in subject
    ? (summary.units[subject.unitId] ?? 0)
    : (summary.devices[subject.deviceId] ?? 0);
}

/** A small red marker with the count, for a table row; links to the unit's alerts. */
export function AlertIndicator({ subject, unitId }: { subject: Subject; unitId?: string | null }) {
  const { t } = useTranslation();
  const count = useOpenCount(subject);
  if (count === 0) return null;
  const target = 'unitId' in subject ? subject.unitId : unitId;
  const id = 'unitId' in subject ? subject.unitId : subject.deviceId;
  return (
    <Link
      to={target ? `/alerts?unitId=${target}` : '/alerts'}
      title={t('alertMarks.indicator', { count })}
      aria-label={t('alertMarks.indicator', { count })}
      className="inline-flex items-center gap-1 rounded-full bg-red-50 px-2 text-xs font-semibold leading-5 text-red-800 ring-1 ring-red-200 hover:bg-red-100"
      data-testid={`alert-indicator-${id}`}
    >
      <Icon name="warning" className="size-3.5" />
      {count}
    </Link>
  );
}

/** The unit page's notice of its open alerts. */
export function UnitAlertBanner({ unitId }: { unitId: string }) {
  const { t } = useTranslation();
  const count = useOpenCount({ unitId });
  if (count === 0) return null;
  // The status region wraps the link: as the link's own role, "status" took its role as a link
  // away, and with it its name (WCAG 4.1.2).
  return (
    <div role="status">
      <Link
        to={`/alerts?unitId=${unitId}`}
        className="flex items-center gap-2 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm font-medium text-red-800 hover:bg-red-100"
        data-testid="unit-alert-banner"
      >
        <Icon name="warning" className="size-5" />
        {t('alertMarks.unitBanner', { count })}
      </Link>
    </div>
  );
}
