/**
 * Where the report stands: company → building → room (or a group), each level above a link
 * back to its report, the last the current one. Names come from the report once it is there,
 * the building's from the caller when a room's report is shown.
 */
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type ReportView, searchOfView, upTo } from '../report-view.ts';

export interface Crumb {
  key: string;
  label: string;
  view: ReportView;
}

export function scopeCrumbs(
  view: ReportView,
  names: { company?: string; building?: string; current?: string },
  t: (key: string) => string,
): Crumb[] {
  const crumbs: Crumb[] = [
    { key: 'company', label: names.company || t('scope.company'), view: upTo(view, 'company') },
  ];
  const deeper = Boolean(view.unitId || view.groupId);
  if (view.buildingId)
    crumbs.push({
      key: 'building',
      label: (deeper ? names.building : names.current) || t('scope.building'),
      view: upTo(view, 'building'),
    });
  if (view.groupId) crumbs.push({ key: 'group', label: names.current || t('scope.group'), view });
  if (view.unitId) crumbs.push({ key: 'unit', label: names.current || t('scope.unit'), view });
  return crumbs;
}

export function ScopeBreadcrumb({ crumbs }: { crumbs: Crumb[] }) {
  const { t } = useTranslation('reports');
  return (
    <nav aria-label={t('scope.label')} data-testid="report-breadcrumb">
      <ol className="flex flex-wrap items-center gap-1 text-sm">
        {crumbs.map((crumb, index) => {
          const last = index === crumbs.length - 1;
          return (
            <li key={crumb.key} className="flex min-w-0 items-center gap-1">
              {index > 0 && (
                <span aria-hidden="true" className="text-stone-400">
                  /
                </span>
              )}
              {last ? (
                <span
                  aria-current="page"
                  className="truncate font-semibold text-ink"
                  data-testid={`report-crumb-${crumb.key}`}
                >
                  {crumb.label}
                </span>
              ) : (
                <Link
                  to={{ search: searchOfView(crumb.view) }}
                  className="truncate text-brand-700 underline-offset-2 hover:underline"
                  data-testid={`report-crumb-${crumb.key}`}
                >
                  {crumb.label}
                </Link>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
