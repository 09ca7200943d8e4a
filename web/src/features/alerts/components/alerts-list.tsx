/**
 * The alert list: filters by kind, state, unit (searched on the server), group and — once the company has buildings —
 * building and floor (starting at the navigation's current building), sorting and paging on the
 * UI kit's table; each row says what is wrong and what to do, since when, how often, who
 * acknowledged it, and offers acknowledging and muting to members who operate the heating.
 */
import { type Alert, AlertKindSchema, type AlertState } from '@heizplan/contracts/alerts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { BuildingFilterSelects } from '../../../components/building-filter-selects.tsx';
import { BuildingGroupingToggle, useBuildingGrouping } from '../../../components/building-grouping.tsx';
import { PagedList } from '../../../components/paged-list/paged-list.tsx';
import { usePagedList } from '../../../components/paged-list/use-paged-list.ts';
import { Field } from '../../../components/ui/field.tsx';
import { Select } from '../../../components/ui/select.tsx';
import type { TableColumn } from '../../../components/ui/table.tsx';
import { UnitSearchCombobox } from '../../../components/unit-search-combobox.tsx';
import { useClock } from '../../../lib/clock.tsx';
import { useBuildingFilter } from '../../../lib/heating/current-building.ts';
import { useCan } from '../../../lib/use-can.ts';
import { useAlertText } from '../alert-text.ts';
import { type AlertListParams, useAlerts } from '../api/alerts.ts';
import { isMuted } from '../muted.ts';
import { AlertActions } from './alert-actions.tsx';

const ALL = 'all';

const NEWEST_FIRST = { key: 'openedAt', order: 'desc' } as const;

export function AlertsList({ groups }: { groups: { id: string; name: string }[] }) {
  const { t } = useTranslation('alerts');
  const clock = useClock();
  const text = useAlertText();
  const canOperate = useCan('operate');
  const [query] = useSearchParams();
  const list = usePagedList(NEWEST_FIRST);
  const grouping = useBuildingGrouping<Alert>(list, NEWEST_FIRST);
  const [kind, setKind] = useState<string>(ALL);
  const [state, setState] = useState<string>('open');
  const [unitId, setUnitId] = useState<string>(query.get('unitId') ?? ALL);
  const [groupId, setGroupId] = useState<string>(ALL);
  const building = useBuildingFilter(() => list.table.onPageChange(1));
  const { q: _q, ...paging } = list.params;
  const params: AlertListParams = {
    ...paging,
    ...building.params,
    ...(kind !== ALL ? { kind: AlertKindSchema.parse(kind) } : {}),
    ...(state !== ALL ? { state: state as AlertState } : {}),
    ...(unitId !== ALL ? { unitId } : {}),
    ...(groupId !== ALL ? { groupId } : {}),
  } as AlertListParams;
  const alerts = useAlerts(params);

  const stateText = (alert: Alert) => {
    const parts = [
      alert.state === 'open' ? t('states.open') : t('states.resolved', { at: text.time(alert.resolvedAt) }),
    ];
    if (alert.acknowledgedBy) parts.push(t('states.acknowledged', { name: alert.acknowledgedBy.name }));
    if (isMuted(alert, clock())) parts.push(t('states.muted', { until: text.time(alert.mutedUntil) }));
    if (alert.occurrences > 1) parts.push(t('states.occurrences', { count: alert.occurrences }));
    return parts;
  };
  const columns: TableColumn<Alert>[] = [
    {
      key: 'kind',
      label: t('columns.kind'),
      sortable: true,
      wrap: true,
      render: (alert) => (
        // On a 375 px phone this column and the mute select fill the row exactly.
        <div className="min-w-32 sm:min-w-40 md:min-w-48" data-testid={`alert-${alert.id}`}>
          <p className="font-medium text-ink">{text.title(alert)}</p>
          <p className="text-sm text-stone-700">{text.hint(alert)}</p>
          {/* Phones have no room for the other columns: their gist goes here. */}
          <p className="mt-1 text-xs text-stone-600 md:hidden">
            {[alert.unitName, text.time(alert.openedAt), ...stateText(alert)].filter(Boolean).join(' · ')}
          </p>
        </div>
      ),
    },
    {
      key: 'subject',
      label: t('columns.subject'),
      sortable: true,
      wrap: true,
      minScreen: 'md',
      render: (alert) => (
        <div className="text-sm">
          {alert.subject === 'booking_feed' || alert.subject === 'heating_circuit' ? (
            <p>{alert.subjectName}</p>
          ) : (
            <p className="font-mono text-xs">
              {alert.subject === 'unit' || alert.subject === 'company' ? '' : alert.subjectName}
            </p>
          )}
          {alert.unitId && (
            <Link to={`/units/${alert.unitId}`} className="text-brand-700 hover:underline">
              {alert.unitName}
            </Link>
          )}
        </div>
      ),
    },
    {
      key: 'openedAt',
      label: t('columns.openedAt'),
      sortable: true,
      minScreen: 'md',
      render: (alert) => text.time(alert.openedAt),
    },
    {
      key: 'state',
      label: t('columns.state'),
      wrap: true,
      minScreen: 'md',
      render: (alert) => (
        <ul className="text-sm text-stone-700" data-testid={`alert-state-${alert.id}`}>
          {stateText(alert).map((part) => (
            <li key={part}>{part}</li>
          ))}
          {alert.note && <li className="italic">„{alert.note}“</li>}
        </ul>
      ),
    },
    ...(canOperate
      ? [
          {
            key: 'actions',
            label: t('columns.actions'),
            render: (alert: Alert) => <AlertActions alert={alert} title={text.title(alert)} />,
          },
        ]
      : []),
  ];
  const option = (id: string, value: string, prefix: string) => ({ id, value, testid: `${prefix}-${id}` });
  const filter = (
    label: string,
    value: string,
    set: (v: string) => void,
    options: ReturnType<typeof option>[],
    testid: string,
  ) => (
    <div className="min-w-0">
      <Field label={label} testid={`${testid}-field`}>
        {(control) => (
          <Select {...control} value={value} onChange={list.filter(set)} options={options} testid={testid} />
        )}
      </Field>
    </div>
  );

  return (
    <PagedList
      query={alerts}
      list={list}
      label={t('title')}
      columns={columns}
      rowKey={(alert) => alert.id}
      // Resolved alerts stay reachable through the filters when nothing is open, so the list
      // never gives way to the "nothing yet" screen; an empty selection says all is well.
      filtered
      texts={{
        loadError: t('loadError'),
        emptyTitle: t('empty.title'),
        emptyText: t('empty.text'),
        noMatch: t('empty.text'),
      }}
      filters={
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 xl:grid-cols-6">
          {filter(
            t('filters.kind'),
            kind,
            setKind,
            [
              option(ALL, t('filters.all'), 'alerts-kind'),
              ...AlertKindSchema.options.map((k) => option(k, t(`kinds.${k}`), 'alerts-kind')),
            ],
            'alerts-kind',
          )}
          {filter(
            t('filters.state'),
            state,
            setState,
            [
              option(ALL, t('filters.all'), 'alerts-state'),
              option('open', t('filters.open'), 'alerts-state'),
              option('resolved', t('filters.resolved'), 'alerts-state'),
            ],
            'alerts-state',
          )}
          <div className="min-w-0">
            <UnitSearchCombobox
              label={t('filters.unit')}
              value={unitId}
              onChange={list.filter((id: string | null) => setUnitId(id ?? ALL))}
              leading={[{ id: ALL, item: t('filters.all'), testid: 'alerts-unit-all' }]}
              testid="alerts-unit"
            />
          </div>
          {filter(
            t('filters.group'),
            groupId,
            setGroupId,
            [
              option(ALL, t('filters.all'), 'alerts-group'),
              ...groups.map((g) => option(g.id, g.name, 'alerts-group')),
            ],
            'alerts-group',
          )}
          <BuildingFilterSelects filter={building} withFloor labelled testid="alerts" />
          <BuildingGroupingToggle grouping={grouping} shown={building.buildings.length > 0} testid="alerts" />
        </div>
      }
      groupBy={grouping.groupBy}
      testid="alerts"
    />
  );
}
