/**
 * List of the buildings: name, address, federal state (with its holiday region), floors, units,
 * when the heating must run tomorrow (the earliest room start, optimum start included) and how
 * public holidays count ("Feiertage: Frostschutz" / "Feiertage ohne Wirkung"); every
 * member gets a button for the building's holidays and links to its rooms and report, members who
 * operate also to its meters and targets, and edit and delete.
 * The UI kit's Table, paged by the server; on a phone the name column also shows address, state
 * and holidays, the other columns show from the tablet width up.
 */
import type { Building, HolidayRegions } from '@heizplan/contracts/buildings';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { RowActions } from '../../../components/ui/row-actions.tsx';
import { Table, type TableColumn, type TablePage } from '../../../components/ui/table.tsx';
import { useCompany } from '../../../lib/company/get-company.ts';
import { formatTime, useHeatingFormat } from '../../../lib/format.ts';
import { regionName, useFederalStates } from '../federal-states.ts';

export interface BuildingsTableProps {
  data: TablePage<Building>;
  regions: HolidayRegions | undefined;
  loading: boolean;
  onHolidays: (building: Building) => void;
  /** Present for members who operate: the row's edit and delete buttons. */
  onEdit?: (building: Building) => void;
  onDelete?: (building: Building) => void;
  onPageChange: (page: number) => void;
  onSizeChange: (size: number, page: number) => void;
}

/** "Hauptstraße 1, 86150 Augsburg"; empty parts left out. */
export const addressOf = (building: Building) =>
  [building.street, [building.postcode, building.city].filter(Boolean).join(' ')].filter(Boolean).join(', ');

export function BuildingsTable({
  data,
  regions,
  loading,
  onHolidays,
  onEdit,
  onDelete,
  onPageChange,
  onSizeChange,
}: BuildingsTableProps) {
  const { t, i18n } = useTranslation('buildings');
  const timeZone = useCompany().data?.time_zone;
  const format = useHeatingFormat();
  const states = useFederalStates();
  const where = (building: Building) => {
    const region = regionName(regions, building.state, building.region);
    return region
      ? t('stateWithRegion', { state: states.name(building.state), region })
      : states.name(building.state);
  };
  const treatment = (building: Building) => {
    const mode = t(`modes.${building.holidayMode}`);
    const publicHolidays =
      building.publicHolidays === 'closure'
        ? t('treatment.closure', { mode })
        : t(`treatment.${building.publicHolidays}`);
    return building.schoolHolidays
      ? [publicHolidays, t('treatment.school', { mode })].join(' · ')
      : publicHolidays;
  };

  const columns: TableColumn<Building>[] = [
    {
      key: 'name',
      label: t('columns.name'),
      wrap: true,
      render: (building) => (
        <span className="flex flex-col gap-0.5">
          <span className="font-medium text-ink" data-testid={`building-name-${building.id}`}>
            {building.name}
          </span>
          {/* The building's rooms, report and meters one click away, also before it has data. */}
          <span className="flex flex-wrap gap-x-3 text-sm">
            <Link
              to={`/units?building=${building.id}`}
              aria-label={t('links.unitsLabel', { name: building.name })}
              className="text-brand-700 underline underline-offset-2 hover:text-brand-800"
            >
              {t('links.units')}
            </Link>
            <Link
              to={`/reports?buildingId=${building.id}`}
              aria-label={t('links.reportLabel', { name: building.name })}
              className="text-brand-700 underline underline-offset-2 hover:text-brand-800"
            >
              {t('links.report')}
            </Link>
            {/* Meters and targets are kept by members who operate, as are edits. */}
            {onEdit && (
              <Link
                to={`/reports?buildingId=${building.id}#meters`}
                aria-label={t('links.metersLabel', { name: building.name })}
                className="text-brand-700 underline underline-offset-2 hover:text-brand-800"
              >
                {t('links.meters')}
              </Link>
            )}
          </span>
          {/* On a phone the address, state, heating and holiday columns are hidden: they show here instead. */}
          <span className="text-xs text-stone-700 md:hidden">
            {[addressOf(building), where(building)].filter(Boolean).join(' · ')}
          </span>
          {(building.heatingStartTomorrow || building.outdoor) && (
            <span
              className="text-xs text-stone-700 md:hidden"
              data-testid={`building-heating-phone-${building.id}`}
            >
              {[
                building.heatingStartTomorrow &&
                  t('heatingStartTomorrow', {
                    time: formatTime(building.heatingStartTomorrow, i18n.language, timeZone),
                  }),
                building.outdoor &&
                  t('outdoorNow', { temperature: format.celsius(building.outdoor.temperature) }),
              ]
                .filter(Boolean)
                .join(' · ')}
            </span>
          )}
          <span className="text-xs text-stone-700 sm:hidden">
            {t('unitsCount', { count: building.unitCount })} · {treatment(building)}
          </span>
        </span>
      ),
    },
    {
      key: 'address',
      label: t('columns.address'),
      wrap: true,
      minScreen: 'md',
      render: (building) => (
        <span data-testid={`building-address-${building.id}`}>{addressOf(building) || '—'}</span>
      ),
    },
    {
      key: 'state',
      label: t('columns.state'),
      wrap: true,
      minScreen: 'md',
      render: (building) => <span data-testid={`building-state-${building.id}`}>{where(building)}</span>,
    },
    {
      key: 'floors',
      label: t('columns.floors'),
      wrap: true,
      minScreen: 'lg',
      render: (building) => (
        <span
          data-testid={`building-floors-${building.id}`}
          title={building.floors.length > 0 ? building.floors.join(', ') : undefined}
        >
          {building.floors.length}
        </span>
      ),
    },
    {
      key: 'units',
      label: t('columns.units'),
      minScreen: 'sm',
      render: (building) => <span data-testid={`building-units-${building.id}`}>{building.unitCount}</span>,
    },
    {
      key: 'heatingStart',
      label: t('columns.heatingStart'),
      minScreen: 'md',
      render: (building) => (
        <span
          className="tabular-nums"
          title={building.heatingStartTomorrow ? t('heatingStartHint') : undefined}
          data-testid={`building-heating-start-${building.id}`}
        >
          {building.heatingStartTomorrow
            ? t('heatingStartAt', {
                time: formatTime(building.heatingStartTomorrow, i18n.language, timeZone),
              })
            : '—'}
          {building.outdoor && (
            <span
              className="block text-xs text-stone-700"
              title={t(`outdoorSource.${building.outdoor.kind}`, {
                time: formatTime(building.outdoor.at, i18n.language, timeZone),
                provider: t(`outdoorProvider.${building.outdoor.provider}`, {
                  defaultValue: building.outdoor.provider,
                }),
              })}
              data-testid={`building-outdoor-${building.id}`}
            >
              {t('outdoorNow', { temperature: format.celsius(building.outdoor.temperature) })}
            </span>
          )}
        </span>
      ),
    },
    {
      key: 'holidays',
      label: t('columns.holidays'),
      wrap: true,
      minScreen: 'sm',
      render: (building) => (
        <span
          className={
            building.publicHolidays !== 'ignore' || building.schoolHolidays
              ? 'text-sky-800'
              : 'text-stone-600'
          }
          data-testid={`building-treatment-${building.id}`}
        >
          {treatment(building)}
        </span>
      ),
    },
    {
      key: 'actions',
      label: t('columns.actions'),
      render: (building) => (
        <RowActions
          wideFrom="2xl"
          actions={[
            {
              label: t('actions.holidays'),
              ariaLabel: t('actions.holidaysLabel', { name: building.name }),
              onClick: () => onHolidays(building),
              testid: `building-holidays-${building.id}`,
            },
            onEdit
              ? {
                  label: t('actions.edit'),
                  ariaLabel: t('actions.editLabel', { name: building.name }),
                  onClick: () => onEdit(building),
                  testid: `building-edit-${building.id}`,
                }
              : null,
            onDelete
              ? {
                  label: t('actions.delete'),
                  ariaLabel: t('actions.deleteLabel', { name: building.name }),
                  onClick: () => onDelete(building),
                  testid: `building-delete-${building.id}`,
                }
              : null,
          ]}
        />
      ),
    },
  ];
  return (
    <Table
      label={t('title')}
      columns={columns}
      data={data}
      rowKey={(building) => building.id}
      sort={{ key: 'name', order: 'asc' }}
      onSortChange={() => {}}
      onPageChange={onPageChange}
      onSizeChange={onSizeChange}
      loading={loading}
      testid="buildings-table"
    />
  );
}
