/**
 * The audit log's entries (decision 0059), newest first, a page at a time: when (company zone),
 * who (a member, or an API token marked as such), what was done in words (audit-words.ts; the
 * route is only the row's tooltip) and each field the change set with its label and value
 * (secrets already masked by the server).
 */
import type { AuditEntry, AuditPage } from '@heizplan/contracts/audit';
import { useTranslation } from 'react-i18next';
import { Table, type TableColumn } from '../../../components/ui/table.tsx';
import { useHeatingFormat } from '../../../lib/format.ts';
import { actionKey, changeOf, fieldText, routeTail, type ValueFormat } from '../audit-words.ts';

export function AuditTable({
  data,
  loading,
  error,
  timeZone,
  onPageChange,
  onSizeChange,
}: {
  data: AuditPage;
  loading: boolean;
  error: boolean;
  timeZone?: string;
  onPageChange: (page: number) => void;
  onSizeChange: (size: number) => void;
}) {
  const { t } = useTranslation('audit');
  const format = useHeatingFormat();
  const actions = t('actions', { returnObjects: true }) as Record<string, string>;
  const labels = t('fieldLabels', { returnObjects: true }) as Record<string, string>;
  const values: ValueFormat = {
    celsius: (value) => format.celsius(value),
    plain: (value) => format.plain(value),
    dateTime: (iso) => format.dateTime(iso, timeZone),
    yes: t('values.yes'),
    no: t('values.no'),
    empty: t('values.empty'),
    quote: (text) => t('values.quoted', { text }),
    items: (count) => t('values.items', { count }),
  };
  const resource = (entry: AuditEntry) => t(`resources.${entry.resource}`, { defaultValue: entry.resource });
  const what = (entry: AuditEntry) =>
    `${resource(entry)} · ${actions[actionKey(entry)] ?? t(`changes.${changeOf(entry)}`)}`;
  const words = {
    ...values,
    label: (field: string) => labels[field] ?? field,
    changed: (from: string, to: string) => t('values.changed', { from, to }),
  };
  const fieldsText = (entry: AuditEntry) =>
    Object.entries(entry.fields)
      .map(([key, value]) => fieldText(key, value, entry.previous, words))
      .join(' · ');
  const columns: TableColumn<AuditEntry>[] = [
    {
      key: 'at',
      label: t('table.at'),
      wrap: true,
      render: (entry) => (
        <span className="flex flex-col gap-0.5">
          <span className="tabular-nums">{format.dateTime(entry.at, timeZone)}</span>
          {/* On a phone the who and what columns are hidden: they show here instead. */}
          <span className="text-xs text-stone-700 sm:hidden">
            {entry.actor.name} · {what(entry)}
          </span>
        </span>
      ),
    },
    {
      key: 'actor',
      label: t('table.actor'),
      wrap: true,
      minScreen: 'sm',
      render: (entry) => (
        <span className="flex flex-col">
          <span>{entry.actor.name}</span>
          {entry.actor.kind === 'token' && <span className="text-xs text-sky-800">{t('token')}</span>}
        </span>
      ),
    },
    {
      key: 'what',
      label: t('table.what'),
      wrap: true,
      minScreen: 'sm',
      render: (entry) => (
        <span data-testid={`audit-what-${entry.id}`} title={routeTail(entry.route)}>
          {what(entry)}
        </span>
      ),
    },
    {
      key: 'fields',
      label: t('table.fields'),
      wrap: true,
      minScreen: 'md',
      render: (entry) => {
        const text = fieldsText(entry);
        return (
          <span
            className="line-clamp-2 break-words text-sm"
            title={text}
            data-testid={`audit-fields-${entry.id}`}
          >
            {text || '—'}
          </span>
        );
      },
    },
  ];
  return (
    <Table
      columns={columns}
      data={data}
      rowKey={(entry) => String(entry.id)}
      sort={{ key: 'at', order: 'desc' }}
      // Always newest first: no column sorts.
      onSortChange={() => {}}
      onPageChange={onPageChange}
      onSizeChange={(size) => onSizeChange(size)}
      loading={loading}
      emptyText={error ? t('loadError') : t('empty')}
      label={t('title')}
      testid="audit-log"
    />
  );
}
