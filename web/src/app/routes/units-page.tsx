/**
 * `/units` (spec §2 "Units screen"): the units table — name (marked when the unit has open
 * alerts), group, setpoint (with what the valves get where their model adjusts it), room temperature (warning above 2 °C deviation once the
 * alert rules' time to heat up has passed), heating level (valve opening), controls, created
 * by — with search, sorting and paging done by the server. Empty company: an invitation to
 * create units, and above the table the getting-started checklist leads a company that is not
 * set up yet through its first steps (gone once they are all done). Once the company has
 * buildings (decision 0052), a unit's building and floor show under its name and a select
 * narrows the list to one building (sent as `buildingId`); it starts
 * at the building chosen in the navigation's building switcher.
 *
 * On a phone the table keeps name, setpoint and controls: the room temperature moves under the
 * setpoint and − + pause graph sit two by two, so − and + are on screen without scrolling sideways.
 * Where a narrow window (a phone, or 200 % zoom) leaves out the group, heating level and creator
 * columns, the name cell shows them under the name.
 *
 * Members who may change units select rows (a checkbox before each name, one in the header for
 * the page) and change the selection at once — limits, group, QR access, delete — from the bar
 * above the table (`features/units/bulk`); the selection holds across the pages of the current
 * search and empties when the search or a filter changes. A unit with wall-control limits of its
 * own shows them under its name (without, the company's safe occupant default applies).
 */
import { DEFAULT_ALERT_SETTINGS } from '@heizplan/contracts/alert-defaults';
import type { Unit } from '@heizplan/contracts/heating';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BuildingFilterSelects } from '../../components/building-filter-selects.tsx';
import { BuildingGroupingToggle, useBuildingGrouping } from '../../components/building-grouping.tsx';
import { ExportButtons } from '../../components/export-buttons.tsx';
import { LinkButton } from '../../components/link-button.tsx';
import { PagedList } from '../../components/paged-list/paged-list.tsx';
import { usePagedList } from '../../components/paged-list/use-paged-list.ts';
import { SearchInput } from '../../components/ui/search-input.tsx';
import type { TableColumn, TablePage } from '../../components/ui/table.tsx';
import { useAlertSettings } from '../../features/alerts/api/alerts.ts';
import { AlertIndicator } from '../../features/alerts/components/alert-indicators.tsx';
import { GettingStartedChecklist } from '../../features/getting-started/components/getting-started-checklist.tsx';
import { UnitGraphDialog } from '../../features/unit-graphs/components/unit-graph-dialog.tsx';
import { downloadUnits } from '../../features/units/api/export-units.ts';
import { UnitBulkBar } from '../../features/units/bulk/unit-bulk-bar.tsx';
import { type UnitSelection, useUnitSelection } from '../../features/units/bulk/unit-selection.ts';
import { CreateUnitsDialog } from '../../features/units/components/create-units-dialog.tsx';
import { DeliveredSetpoints } from '../../features/units/components/delivered-setpoints.tsx';
import { NoPlanBadge } from '../../features/units/components/no-plan-badge.tsx';
import { PendingDownlinks } from '../../features/units/components/pending-downlinks.tsx';
import { RoomTemperature } from '../../features/units/components/room-temperature.tsx';
import { SetpointValue } from '../../features/units/components/setpoint-value.tsx';
import { UnitControls } from '../../features/units/components/unit-controls.tsx';
import { useCompany } from '../../lib/company/get-company.ts';
import { useHeatingFormat } from '../../lib/format.ts';
import { useBuildingFilter } from '../../lib/heating/current-building.ts';
import { type UnitListParams, useUnits } from '../../lib/heating/list-units.ts';
import { usePageTitle } from '../../lib/page-title.tsx';
import { useCan } from '../../lib/use-can.ts';

const BY_NAME = { key: 'name', order: 'asc' } as const;

export function UnitsPage() {
  const { t, i18n } = useTranslation('units');
  usePageTitle(t('title'));
  const format = useHeatingFormat();
  const list = usePagedList(BY_NAME);
  const grouping = useBuildingGrouping<Unit>(list, BY_NAME);
  const building = useBuildingFilter(() => list.table.onPageChange(1));
  const { buildingId } = building;
  const unitQuery = { ...(list.params as UnitListParams), ...(buildingId ? { buildingId } : {}) };
  const units = useUnits(unitQuery);
  const company = useCompany();
  const canOperate = useCan('operate');
  const range = company.data
    ? { min: company.data.min_temperature, max: company.data.max_temperature }
    : undefined;
  const settleMinutes =
    useAlertSettings().data?.farFromSetpointMinutes ?? DEFAULT_ALERT_SETTINGS.farFromSetpointMinutes;
  const timeZone = company.data?.time_zone;
  // A new search or filter starts a new selection; paging and sorting keep it.
  const selection = useUnitSelection(JSON.stringify([list.q, buildingId ?? null]));
  /** A unit's own wall-control limits as text; null without (the company's occupant default applies). */
  const limits = (unit: Unit) => {
    const { wallControlMin: min, wallControlMax: max } = unit;
    if (min === null && max === null) return null;
    if (min !== null && max !== null)
      return t('limits.both', { min: format.plain(min), max: format.plain(max) });
    return min !== null
      ? t('limits.from', { min: format.plain(min) })
      : t('limits.to', { max: format.plain(max ?? 0) });
  };

  const allColumns: TableColumn<Unit>[] = [
    {
      key: 'name',
      label: t('fields.name'),
      sortable: true,
      wrap: true,
      ...(canOperate ? { headerPrefix: <SelectPage selection={selection} page={units.data} /> } : {}),
      render: (unit) => (
        <span className="inline-flex flex-wrap items-center gap-2">
          {canOperate && (
            <input
              type="checkbox"
              checked={selection.has(unit.id)}
              onChange={(event) => selection.toggle(unit, event.target.checked)}
              aria-label={t('bulk.selectOne', { name: unit.name })}
              className="size-5 shrink-0 accent-brand-600"
              data-testid={`unit-select-${unit.id}`}
            />
          )}
          <Link
            to={`/units/${unit.id}`}
            className="font-medium text-brand-700 hover:underline"
            data-testid={`unit-link-${unit.id}`}
          >
            {unit.name}
          </Link>
          <AlertIndicator subject={{ unitId: unit.id }} />
          {limits(unit) && (
            <span className="basis-full text-xs text-stone-600" data-testid={`unit-limits-${unit.id}`}>
              {t('limits.label', { limits: limits(unit) })}
            </span>
          )}
          {unit.buildingName && (
            <span className="basis-full text-xs text-stone-600" data-testid={`unit-place-${unit.id}`}>
              {unit.floor
                ? t('buildingFloor', { building: unit.buildingName, floor: unit.floor })
                : unit.buildingName}
            </span>
          )}
          {/* Below the breakpoints that leave out the group, heating level and creator columns
              (a phone, or a desktop window zoomed to 200 %), their values show here, so
              nothing in the list is lost to a narrow window (WCAG 1.4.10 reflow). */}
          <span
            className="basis-full text-xs text-stone-600 md:hidden"
            data-testid={`unit-group-narrow-${unit.id}`}
          >
            {t('narrow.group', { group: unit.groupName ?? t('noGroup') })}
          </span>
          <span
            className="basis-full text-xs text-stone-600 lg:hidden"
            data-testid={`unit-details-narrow-${unit.id}`}
          >
            {t('narrow.levelAndCreator', {
              level: format.percent(unit.valveOpening),
              name: unit.createdBy?.name ?? t('anonymous'),
            })}
          </span>
        </span>
      ),
    },
    {
      key: 'group',
      label: t('fields.group'),
      sortable: true,
      wrap: true,
      minScreen: 'md',
      render: (unit) => unit.groupName ?? '—',
    },
    {
      key: 'setpoint',
      label: t('fields.setpoint'),
      sortable: true,
      render: (unit) => (
        <span
          data-testid={`unit-setpoint-${unit.id}`}
          className="flex flex-wrap items-center gap-x-2 gap-y-1"
        >
          <SetpointValue unit={unit} />
          {unit.paused && (
            <span className="rounded bg-stone-100 px-1.5 py-0.5 text-xs text-stone-700">{t('paused')}</span>
          )}
          {unit.setpointSource === 'no_plan' && <NoPlanBadge unitId={unit.id} />}
          {unit.setpointSource === 'closure' && (
            <span
              className="rounded bg-sky-50 px-1.5 py-0.5 text-xs text-sky-800"
              data-testid={`unit-closure-${unit.id}`}
            >
              {t('kinds.closure')}
            </span>
          )}
          {unit.setpointSource === 'booking' && (
            <span
              className="rounded bg-emerald-50 px-1.5 py-0.5 text-xs text-emerald-800"
              data-testid={`unit-booking-${unit.id}`}
            >
              {t('kinds.booking')}
            </span>
          )}
          <PendingDownlinks unit={unit} />
          <DeliveredSetpoints
            delivered={unit.downlinks.delivered}
            unitId={unit.id}
            testid={`unit-delivered-${unit.id}`}
          />
          {/* Phones: the room temperature column is left out, its value shows here. */}
          <span
            className="basis-full text-xs text-stone-600 sm:hidden"
            data-testid={`unit-room-phone-${unit.id}`}
          >
            {t('roomShort')}{' '}
            <RoomTemperature
              unit={unit}
              settleMinutes={settleMinutes}
              timeZone={timeZone}
              testid="phone-deviation"
            />
          </span>
        </span>
      ),
    },
    {
      key: 'roomTemperature',
      label: t('fields.roomTemperature'),
      sortable: true,
      minScreen: 'sm',
      render: (unit) => <RoomTemperature unit={unit} settleMinutes={settleMinutes} timeZone={timeZone} />,
    },
    {
      key: 'valveOpening',
      label: t('fields.heatingLevel'),
      minScreen: 'lg',
      render: (unit) => format.percent(unit.valveOpening),
    },
    {
      key: 'controls',
      label: t('fields.controls'),
      render: (unit) => (
        <div className="grid w-max grid-cols-2 gap-1 sm:flex sm:items-center">
          <UnitControls unit={unit} range={range} />
          <UnitGraphDialog unitId={unit.id} unitName={unit.name} />
        </div>
      ),
    },
    {
      key: 'createdBy',
      label: t('fields.createdBy'),
      wrap: true,
      minScreen: 'lg',
      render: (unit) => unit.createdBy?.name ?? t('anonymous'),
    },
  ];
  // Members who only read (ems) get no setpoint controls (decision 0022).
  const columns = canOperate ? allColumns : allColumns.filter((column) => column.key !== 'controls');

  return (
    <section className="mx-auto flex w-full max-w-6xl flex-col gap-4 p-4 sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">{t('title')}</h1>
        <div className="flex flex-wrap items-center gap-2">
          <ExportButtons
            onExport={(format) => downloadUnits(unitQuery, format, i18n.language === 'en' ? 'en' : 'de')}
            labels={{ excel: t('export.csv'), xlsx: t('export.xlsx') }}
            title={t('export.hint')}
            errorText={t('export.error')}
            testid="units-export"
          />
          {canOperate && <LinkButton to="/imports?kind=units" label={t('import')} testid="units-import" />}
          {canOperate && <CreateUnitsDialog />}
        </div>
      </div>
      {/* A company that is not set up yet finds its way on from here (the start screen). */}
      <GettingStartedChecklist />
      {canOperate && <UnitBulkBar selection={selection} />}
      <PagedList
        query={units}
        list={list}
        label={t('title')}
        columns={columns}
        rowKey={(unit) => unit.id}
        texts={{ loadError: t('loadError'), emptyTitle: t('empty.title'), emptyText: t('empty.text') }}
        filtered={Boolean(list.q || buildingId)}
        groupBy={grouping.groupBy}
        filters={
          building.buildings.length > 0 ? (
            <div className="grid gap-3 sm:grid-cols-3">
              <SearchInput value={list.search} onChange={list.setSearch} testid="units-search" />
              <BuildingFilterSelects filter={building} testid="units" />
              <BuildingGroupingToggle grouping={grouping} shown testid="units" />
            </div>
          ) : undefined
        }
        testid="units"
      />
    </section>
  );
}

/**
 * The header's checkbox: selects (or, when all are, deselects) every unit of the page shown;
 * half-checked while some of them are selected.
 */
function SelectPage({ selection, page }: { selection: UnitSelection; page: TablePage<Unit> | undefined }) {
  const { t } = useTranslation('units');
  const rows = page?.results ?? [];
  const selected = rows.filter((unit) => selection.has(unit.id)).length;
  const all = rows.length > 0 && selected === rows.length;
  return (
    <input
      type="checkbox"
      checked={all}
      ref={(box) => {
        if (box) box.indeterminate = selected > 0 && !all;
      }}
      disabled={rows.length === 0}
      onChange={() => selection.setAll(rows, !all)}
      aria-label={t('bulk.selectPage')}
      className="size-5 accent-brand-600"
      data-testid="units-select-page"
    />
  );
}
