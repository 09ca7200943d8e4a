/**
 * Catalogue block for the table: in-memory rows, a server-paged table fed by a simulated API
 * with latency (so the loader and disabled pagination can be seen), loading, empty, disabled.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ClientTable } from '../../../components/ui/client-table.tsx';
import { cx } from '../../../components/ui/cx.ts';
import { DEFAULT_PAGE_SIZE } from '../../../components/ui/pagination.ts';
import { Table, type TableColumn, type TablePage } from '../../../components/ui/table.tsx';
import { NO_SORT, type SortState, sortRows } from '../../../components/ui/table-sort.ts';
import { CatalogueSection, CatalogueState } from './catalogue-section.tsx';
import { type DemoRoom, useDemoRooms } from './demo-rooms.ts';

/** Simulated round trip of the server-paged demo, in ms. */
const DEMO_LATENCY_MS = 600;

function useColumns(): TableColumn<DemoRoom>[] {
  const { t } = useTranslation('dev-ui');
  return [
    { key: 'name', label: t('table.name'), sortable: true },
    { key: 'group', label: t('table.group'), sortable: true },
    {
      key: 'setpoint',
      label: t('table.setpoint'),
      sortable: true,
      align: 'right',
      render: (r) => `${r.setpoint} °C`,
    },
    {
      key: 'temperature',
      label: t('table.temperature'),
      align: 'right',
      render: (r) => (
        <span className={cx(Math.abs(r.temperature - r.setpoint) > 2 && 'font-semibold text-red-700')}>
          {r.temperature.toFixed(1)} °C
        </span>
      ),
    },
    { key: 'createdBy', label: t('table.createdBy') },
  ];
}

const rowKey = (room: DemoRoom) => room.id;

function ServerPagedDemo({ rooms, columns }: { rooms: DemoRoom[]; columns: TableColumn<DemoRoom>[] }) {
  const [query, setQuery] = useState({ page: 1, size: DEFAULT_PAGE_SIZE, sort: NO_SORT as SortState });
  const [data, setData] = useState<TablePage<DemoRoom>>({ results: [], count: 0, page: 1, size: query.size });
  const [loading, setLoading] = useState(true);

  useEffect(() => {
    setLoading(true);
    const timer = setTimeout(() => {
      const sorted = sortRows(rooms, query.sort, (room, key) => room[key as keyof DemoRoom]);
      const start = (query.page - 1) * query.size;
      setData({ results: sorted.slice(start, start + query.size), count: rooms.length, ...query });
      setLoading(false);
    }, DEMO_LATENCY_MS);
    return () => clearTimeout(timer);
  }, [rooms, query]);

  return (
    <Table
      columns={columns}
      data={data}
      rowKey={rowKey}
      sort={query.sort}
      loading={loading}
      testid="demo-table-server"
      onSortChange={(sort) => setQuery((q) => ({ ...q, sort, page: 1 }))}
      onPageChange={(page) => setQuery((q) => ({ ...q, page }))}
      onSizeChange={(size, page) => setQuery((q) => ({ ...q, size, page }))}
    />
  );
}

export function TableDemos() {
  const { t } = useTranslation('dev-ui');
  const rooms = useDemoRooms();
  const columns = useColumns();
  return (
    <CatalogueSection id="table" title={t('sections.table')}>
      <CatalogueState label={t('states.client')}>
        <ClientTable columns={columns} rows={rooms} rowKey={rowKey} testid="demo-table" />
      </CatalogueState>
      <CatalogueState label={t('states.server')}>
        <ServerPagedDemo rooms={rooms} columns={columns} />
      </CatalogueState>
      <CatalogueState label={t('states.empty')}>
        <ClientTable columns={columns} rows={[]} rowKey={rowKey} testid="demo-table-empty" />
      </CatalogueState>
      <CatalogueState label={t('states.empty')}>
        <ClientTable
          columns={columns}
          rows={[]}
          rowKey={rowKey}
          emptyText={t('table.noRooms')}
          testid="demo-table-empty-custom"
        />
      </CatalogueState>
      <CatalogueState label={t('states.loading')}>
        <ClientTable
          columns={columns}
          rows={rooms.slice(0, 3)}
          rowKey={rowKey}
          loading
          testid="demo-table-loading"
        />
      </CatalogueState>
      <CatalogueState label={t('states.disabled')}>
        <ClientTable columns={columns} rows={rooms} rowKey={rowKey} disabled testid="demo-table-disabled" />
      </CatalogueState>
    </CatalogueSection>
  );
}
