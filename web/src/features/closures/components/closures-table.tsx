/**
 * List of the closures: name (and note), period in the company's time zone — for a recurring
 * closure its first occurrence, the recurrence in words ("jedes Wochenende bis 31.03.2027") and
 * the occurrence running or next —, heating mode with its temperature, what it covers ("Ganze
 * Firma", buildings and floors, groups or units, "2 Ausnahmen") and status;
 * members who operate get an edit and a delete button per row. The UI kit's Table, paged by
 * the server, ordered by start; on a phone the name column also shows period and mode, and
 * scope and status show from the tablet width up.
 */
import type { Closure } from '@heizplan/contracts/closures';
import { useTranslation } from 'react-i18next';
import { RowActions } from '../../../components/ui/row-actions.tsx';
import { Table, type TableColumn, type TablePage } from '../../../components/ui/table.tsx';
import { useHeatingFormat } from '../../../lib/format.ts';
import { type ModeTemperatures, useModeLabel } from '../../../lib/heating/heating-modes.ts';
import { useRecurrenceText } from '../recurrence-text.ts';

export interface ClosuresTableProps {
  data: TablePage<Closure>;
  zone: string;
  temperatures: ModeTemperatures;
  loading: boolean;
  /** The text of an empty page (a filtered list with nothing in it). */
  emptyText?: string;
  /** Present for members who operate: the row's edit and delete buttons. */
  onEdit?: (closure: Closure) => void;
  onDelete?: (closure: Closure) => void;
  onPageChange: (page: number) => void;
  onSizeChange: (size: number, page: number) => void;
}

/** Target names listed in a row; the others are counted. */
const MAX_TARGETS = 3;

const statusClass = {
  upcoming: 'bg-sky-50 text-sky-800',
  running: 'bg-amber-50 text-amber-900',
  past: 'bg-stone-100 text-stone-600',
} as const;

export function ClosuresTable({
  data,
  zone,
  temperatures,
  loading,
  emptyText,
  onEdit,
  onDelete,
  onPageChange,
  onSizeChange,
}: ClosuresTableProps) {
  const { t } = useTranslation('closures');
  const format = useHeatingFormat();
  const modeLabel = useModeLabel(temperatures, 'closures');
  const recurrenceText = useRecurrenceText();
  const periodOf = (occurrence: { start: string; end: string }) =>
    t('period', {
      start: format.dateTime(occurrence.start, zone),
      end: format.dateTime(occurrence.end, zone),
    });

  /**
   * How a recurring closure repeats and its occurrence running or next; nothing for one that
   * does not. Shown twice (the phone's name column, the period column): `ids` on one of them.
   */
  const repeats = (closure: Closure, ids = false) => {
    const words = recurrenceText(closure.recurrence, closure.start, zone);
    if (!words) return null;
    const next = closure.nextOccurrence;
    return (
      <>
        <span
          className="text-xs text-stone-700"
          title={closure.recurrence ?? undefined}
          data-testid={ids ? `closure-recurrence-${closure.id}` : undefined}
        >
          {words}
        </span>
        {next && (
          <span
            className="text-xs text-stone-600"
            data-testid={ids ? `closure-next-${closure.id}` : undefined}
          >
            {t(closure.status === 'running' ? 'recurrence.current' : 'recurrence.next', {
              period: periodOf(next),
            })}
          </span>
        )}
      </>
    );
  };

  const names = (refs: { name: string }[]) => {
    const all = refs.map((r) => r.name);
    const shown = all.slice(0, MAX_TARGETS).join(', ');
    const more = all.length - MAX_TARGETS;
    return { all, text: more > 0 ? t('scope.more', { names: shown, count: more }) : shown };
  };

  const columns: TableColumn<Closure>[] = [
    {
      key: 'name',
      label: t('columns.name'),
      wrap: true,
      render: (closure) => (
        <span className="flex flex-col gap-0.5">
          <span className="font-medium text-ink" data-testid={`closure-name-${closure.id}`}>
            {closure.name}
          </span>
          {closure.note && <span className="line-clamp-2 text-xs text-stone-600">{closure.note}</span>}
          {/* On a phone the period and mode columns are hidden: they show here instead. */}
          <span className="flex flex-col gap-0.5 sm:hidden">
            <span className="text-xs text-stone-700">
              {periodOf(closure)}
              {' · '}
              {modeLabel(closure.mode)}
            </span>
            {repeats(closure)}
          </span>
        </span>
      ),
    },
    {
      key: 'period',
      label: t('columns.period'),
      wrap: true,
      minScreen: 'sm',
      render: (closure) => (
        <span className="flex flex-col gap-0.5">
          <span data-testid={`closure-period-${closure.id}`}>{periodOf(closure)}</span>
          {repeats(closure, true)}
        </span>
      ),
    },
    {
      key: 'mode',
      label: t('columns.mode'),
      wrap: true,
      minScreen: 'sm',
      render: (closure) => <span data-testid={`closure-mode-${closure.id}`}>{modeLabel(closure.mode)}</span>,
    },
    {
      key: 'scope',
      label: t('columns.scope'),
      wrap: true,
      minScreen: 'md',
      render: (closure) => {
        // Targets vanish when their units, groups or buildings are deleted.
        const buildingNames = closure.buildings.map((b) => ({
          name: b.floor ? t('scope.buildingFloor', { building: b.name, floor: b.floor }) : b.name,
        }));
        const targets = names(
          closure.scope === 'groups'
            ? closure.groups
            : closure.scope === 'buildings'
              ? buildingNames
              : closure.units,
        );
        const label =
          closure.scope === 'company'
            ? t('scope.company')
            : targets.all.length === 0
              ? '—'
              : closure.scope === 'groups'
                ? t('scope.groups', { names: targets.text })
                : closure.scope === 'buildings'
                  ? t('scope.buildings', { names: targets.text })
                  : targets.text;
        const exceptions = names(closure.exceptions);
        return (
          <span className="flex flex-col gap-0.5" data-testid={`closure-scope-${closure.id}`}>
            <span title={closure.scope === 'company' ? undefined : targets.all.join(', ')}>{label}</span>
            {exceptions.all.length > 0 && (
              <span className="text-xs text-stone-600" title={exceptions.all.join(', ')}>
                {t('scope.exceptions', { count: exceptions.all.length })}
              </span>
            )}
          </span>
        );
      },
    },
    {
      key: 'status',
      label: t('columns.status'),
      minScreen: 'md',
      render: (closure) => (
        <span
          className={`rounded px-1.5 py-0.5 text-xs ${statusClass[closure.status]}`}
          data-testid={`closure-status-${closure.id}`}
        >
          {t(`status.${closure.status}`)}
        </span>
      ),
    },
  ];
  if (onEdit && onDelete) {
    columns.push({
      key: 'actions',
      label: t('columns.actions'),
      render: (closure) => (
        <RowActions
          actions={[
            {
              label: t('actions.edit'),
              ariaLabel: t('actions.editLabel', { name: closure.name }),
              onClick: () => onEdit(closure),
              testid: `closure-edit-${closure.id}`,
            },
            {
              label: t('actions.delete'),
              ariaLabel: t('actions.deleteLabel', { name: closure.name }),
              onClick: () => onDelete(closure),
              testid: `closure-delete-${closure.id}`,
            },
          ]}
        />
      ),
    });
  }
  return (
    <Table
      label={t('title')}
      columns={columns}
      data={data}
      rowKey={(closure) => closure.id}
      sort={{ key: 'period', order: 'asc' }}
      onSortChange={() => {}}
      onPageChange={onPageChange}
      onSizeChange={onSizeChange}
      loading={loading}
      emptyText={emptyText}
      testid="closures-table"
    />
  );
}
