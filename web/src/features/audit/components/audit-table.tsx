/**
 * The audit log's entries (decision 0059), newest first, a page at a time: when (company zone),
 * who (a member, or an API token marked as such), what (the kind of object, the change and the
 * route below the company) and the fields the change set (secrets already masked by the server).
 */
import type { AuditEntry, AuditPage } from '@heizplan/contracts/audit';
import { useTranslation } from 'react-i18next';
import { Table, type TableColumn } from '../../../components/ui/table.tsx';
import { useHeatingFormat } from '../../../lib/format.ts';

/** The route below `/api/companies/{id}`: `/units/{unitId}/setpoint`. */
const routeTail = (route: string) => route.replace(/^\/api\/companies\/\{(companyId|id)\}/, '') || '/';

/**
 * What a change did: `create` for a POST to the collection itself (`/units`), `action` for a POST
 * to something else (`/units/{unitId}/setpoint`), else by method.
 */
function changeOf(entry: AuditEntry): string {
  if (entry.method !== 'POST') return entry.method;
  return routeTail(entry.route) === `/${entry.resource}` ? 'create' : 'action';
}

/** `name: "Klasse 5b", setpoint: 21` — one line to scan. */
const fieldsText = (fields: Record<string, unknown>) =>
  Object.entries(fields)
    .map(([key, value]) => `${key}: ${JSON.stringify(value)}`)
    .join(', ');

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
  const what = (entry: AuditEntry) =>
    `${t(`resources.${entry.resource}`, { defaultValue: entry.resource })} · ${t(`changes.${changeOf(entry)}`)}`;
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
        <span className="flex flex-col" data-testid={`audit-what-${entry.id}`}>
          <span>{what(entry)}</span>
          <code className="break-all text-xs text-stone-600">{routeTail(entry.route)}</code>
        </span>
      ),
    },
    {
      key: 'fields',
      label: t('table.fields'),
      wrap: true,
      minScreen: 'md',
      render: (entry) => {
        const text = fieldsText(entry.fields);
        return (
          <span
            className="line-clamp-2 break-all font-mono text-xs"
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
