/**
 * `/units` (spec §2 "Units screen"): the units table — name, group, setpoint, room temperature
 * (warning above 2 °C deviation), heating level (valve opening), controls, created by — with
 * search, sorting and paging done by the server. Empty company: an invitation to create units.
 */
import type { Unit } from '@heizplan/contracts/heating';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SearchInput } from '../../../components/ui/search-input.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { Table, type TableColumn } from '../../../components/ui/table.tsx';
import type { SortState } from '../../../components/ui/table-sort.ts';
import { useCompany } from '../../company/api/get-company.ts';
import { type UnitListParams, useUnits } from '../api/list-units.ts';
import { CreateUnitsDialog } from '../components/create-units-dialog.tsx';
import { RoomTemperature } from '../components/room-temperature.tsx';
import { UnitControls } from '../components/unit-controls.tsx';
import { useHeatingFormat } from '../format.ts';
import { useDebounced } from '../use-debounced.ts';

const EMPTY_PAGE = { results: [], count: 0, page: 1, size: 10 };

export function UnitsPage() {
  const { t } = useTranslation('units');
  const format = useHeatingFormat();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(10);
  const [sort, setSort] = useState<SortState>({ key: 'name', order: 'asc' });
  const q = useDebounced(search.trim());
  const query: UnitListParams = {
    page,
    size,
    ...(q ? { q } : {}),
    ...(sort.order === 'none' ? {} : { sort: sort.key as UnitListParams['sort'], order: sort.order }),
  };
  const units = useUnits(query);
  const company = useCompany();
  const range = company.data
    ? { min: company.data.min_temperature, max: company.data.max_temperature }
    : undefined;

  const columns: TableColumn<Unit>[] = [
    {
      key: 'name',
      label: t('fields.name'),
      sortable: true,
      render: (unit) => (
        <Link
          to={`/units/${unit.id}`}
          className="font-medium text-brand-700 hover:underline"
          data-testid={`unit-link-${unit.id}`}
        >
          {unit.name}
        </Link>
      ),
    },
    { key: 'group', label: t('fields.group'), sortable: true, render: (unit) => unit.groupName ?? '—' },
    {
      key: 'setpoint',
      label: t('fields.setpoint'),
      sortable: true,
      render: (unit) => (
        <span data-testid={`unit-setpoint-${unit.id}`}>
          {format.celsius(unit.setpoint)}
          {unit.paused && (
            <span className="ml-2 rounded bg-stone-100 px-1.5 py-0.5 text-xs text-stone-700">
              {t('paused')}
            </span>
          )}
        </span>
      ),
    },
    {
      key: 'roomTemperature',
      label: t('fields.roomTemperature'),
      sortable: true,
      render: (unit) => (
        <RoomTemperature unitId={unit.id} setpoint={unit.setpoint} room={unit.roomTemperature} />
      ),
    },
    {
      key: 'valveOpening',
      label: t('fields.heatingLevel'),
      render: (unit) => format.percent(unit.valveOpening),
    },
    {
      key: 'controls',
      label: t('fields.controls'),
      render: (unit) => <UnitControls unit={unit} range={range} />,
    },
    {
      key: 'createdBy',
      label: t('fields.createdBy'),
      render: (unit) => unit.createdBy?.name ?? t('anonymous'),
    },
  ];

  const firstLoad = units.isPending;
  const noUnitsAtAll = units.data?.count === 0 && !q;

  return (
    <section className="mx-auto flex w-full max-w-6xl flex-col gap-4 p-4 sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">{t('title')}</h1>
        <CreateUnitsDialog />
      </div>
      {firstLoad ? (
        <div className="flex justify-center py-16">
          <Spinner loading size="lg" testid="units-loading" />
        </div>
      ) : units.isError ? (
        <p role="alert" className="rounded-lg bg-red-50 p-4 text-red-800" data-testid="units-error">
          {t('loadError')}
        </p>
      ) : noUnitsAtAll ? (
        <div
          className="rounded-xl border border-dashed border-stone-300 bg-white p-10 text-center"
          data-testid="units-empty"
        >
          <h2 className="text-lg font-semibold">{t('empty.title')}</h2>
          <p className="mt-1 text-stone-600">{t('empty.text')}</p>
        </div>
      ) : (
        <>
          <SearchInput
            value={search}
            onChange={(value) => {
              setSearch(value);
              setPage(1);
            }}
            className="sm:max-w-xs"
            testid="units-search"
          />
          <Table
            label={t('title')}
            columns={columns}
            data={units.data ?? EMPTY_PAGE}
            rowKey={(unit) => unit.id}
            sort={sort}
            onSortChange={(next) => {
              setSort(next);
              setPage(1);
            }}
            onPageChange={setPage}
            onSizeChange={(nextSize, nextPage) => {
              setSize(nextSize);
              setPage(nextPage);
            }}
            loading={units.isFetching && units.isPlaceholderData}
            testid="units-table"
          />
        </>
      )}
    </section>
  );
}
