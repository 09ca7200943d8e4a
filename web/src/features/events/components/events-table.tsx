/**
 * List view of the events (spec §2 "Events screen"): the UI kit's Table, paged by the server,
 * ordered by start. Each row opens the event's dialog.
 */
import type { HeatingEvent } from '@heizplan/contracts/events';
import { useTranslation } from 'react-i18next';
import { Table, type TableColumn, type TablePage } from '../../../components/ui/table.tsx';
import { useHeatingFormat } from '../../../lib/format.ts';

export interface EventsTableProps {
  data: TablePage<HeatingEvent>;
  zone: string;
  loading: boolean;
  onOpen: (event: HeatingEvent) => void;
  onPageChange: (page: number) => void;
  onSizeChange: (size: number, page: number) => void;
  label: (event: HeatingEvent) => string;
}

/** Target names listed in a row; the others are counted. */
const MAX_TARGETS = 3;

const statusClass = {
  upcoming: 'bg-sky-50 text-sky-800',
  running: 'bg-amber-50 text-amber-900',
  past: 'bg-stone-100 text-stone-600',
} as const;

export function EventsTable({
  data,
  zone,
  loading,
  onOpen,
  onPageChange,
  onSizeChange,
  label,
}: EventsTableProps) {
  const { t } = useTranslation('events');
  const format = useHeatingFormat();
  const columns: TableColumn<HeatingEvent>[] = [
    {
      key: 'title',
      label: t('fields.event'),
      wrap: true,
      render: (event) => (
        <button
          type="button"
          onClick={() => onOpen(event)}
          className="text-left font-medium text-brand-700 hover:underline"
          data-testid={`event-open-${event.id}`}
        >
          {label(event)}
        </button>
      ),
    },
    { key: 'start', label: t('fields.start'), render: (event) => format.dateTime(event.start, zone) },
    {
      key: 'end',
      label: t('fields.end'),
      minScreen: 'md',
      render: (event) => (event.end ? format.dateTime(event.end, zone) : t('openEnded')),
    },
    {
      key: 'temperature',
      label: t('fields.temperature'),
      minScreen: 'sm',
      render: (event) => format.celsius(event.temperature),
    },
    {
      key: 'targets',
      label: t('fields.targets'),
      wrap: true,
      minScreen: 'lg',
      render: (event) => {
        // Targets vanish when their units or groups are deleted.
        const all = (event.groupMode ? event.groups : event.units).map((x) => x.name);
        if (all.length === 0) return '—';
        // A long list made the row as wide as all its names; the rest is in the tooltip.
        const shown = all.slice(0, MAX_TARGETS).join(', ');
        const more = all.length - MAX_TARGETS;
        const names = more > 0 ? t('moreTargets', { names: shown, count: more }) : shown;
        return <span title={all.join(', ')}>{event.groupMode ? t('groupList', { names }) : names}</span>;
      },
    },
    {
      key: 'status',
      label: t('fields.status'),
      wrap: true,
      render: (event) => (
        <span className="flex flex-wrap gap-1">
          <span className={`rounded px-1.5 py-0.5 text-xs ${statusClass[event.status]}`}>
            {t(`status.${event.status}`)}
          </span>
          {event.preventRegular && (
            <span className="rounded bg-brand-50 px-1.5 py-0.5 text-xs text-brand-700">
              {t('preventing')}
            </span>
          )}
        </span>
      ),
    },
  ];
  return (
    <Table
      label={t('title')}
      columns={columns}
      data={data}
      rowKey={(event) => event.id}
      sort={{ key: 'start', order: 'asc' }}
      onSortChange={() => {}}
      onPageChange={onPageChange}
      onSizeChange={onSizeChange}
      loading={loading}
      emptyText={t('empty')}
      testid="events-table"
    />
  );
}
