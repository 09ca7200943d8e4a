/**
 * Settings → audit log (decision 0059; admins): who changed what and when, a page at a time,
 * filtered by the kind of object, and downloaded as CSV. Members without `manage` get no tab;
 * opened directly, the page says so.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Select } from '../../../components/ui/select.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { useCompany } from '../../../lib/company/get-company.ts';
import { useCan } from '../../../lib/use-can.ts';
import { type AuditQuery, downloadAuditCsv, useAuditLog } from '../api/audit.ts';
import { AuditTable } from '../components/audit-table.tsx';

/** The kinds of object a filter offers, in the order of the app's navigation. */
const RESOURCES = [
  'units',
  'groups',
  'plans',
  'events',
  'closures',
  'buildings',
  'booking-feeds',
  'devices',
  'gateways',
  'alerts',
  'alert-settings',
  'alert-preferences',
  'webhooks',
  'members',
  'invites',
  'billing',
  'api-tokens',
  'company',
] as const;

export function AuditPage() {
  const { t } = useTranslation('audit');
  const { toast } = useToast();
  const canManage = useCan('manage');
  const timeZone = useCompany().data?.time_zone;
  const [query, setQuery] = useState<AuditQuery>({ page: 1, size: 20, resource: '' });
  const [exporting, setExporting] = useState(false);
  const log = useAuditLog(query, canManage);
  if (!canManage)
    return (
      <p className="text-sm text-stone-700" data-testid="audit-forbidden">
        {t('forbidden')}
      </p>
    );
  const exportCsv = async () => {
    setExporting(true);
    try {
      await downloadAuditCsv(query.resource);
    } catch {
      toast({ type: 'error', title: t('exportError'), testid: 'toast-audit-export-error' });
    } finally {
      setExporting(false);
    }
  };
  return (
    <section className="flex flex-col gap-4" aria-labelledby="audit-title" data-testid="audit-page">
      <div className="flex max-w-xl flex-col gap-1">
        <h2 id="audit-title" className="text-lg font-semibold">
          {t('title')}
        </h2>
        <p className="text-sm text-stone-700">{t('intro')}</p>
      </div>
      <div className="flex flex-wrap items-end gap-3">
        <div className="flex flex-col gap-1 text-sm">
          <label htmlFor="audit-filter" className="font-medium">
            {t('filter')}
          </label>
          <Select
            id="audit-filter"
            value={query.resource}
            onChange={(resource) => setQuery({ ...query, page: 1, resource })}
            options={[
              { id: '', value: t('all'), testid: 'audit-filter-all' },
              ...RESOURCES.map((r) => ({ id: r, value: t(`resources.${r}`), testid: `audit-filter-${r}` })),
            ]}
            className="w-56"
            testid="audit-filter"
          />
        </div>
        <Button
          variant="secondary"
          loading={exporting}
          onClick={() => void exportCsv()}
          testid="audit-export"
        >
          {t('export')}
        </Button>
      </div>
      <AuditTable
        data={log.data ?? { results: [], count: 0, page: query.page, size: query.size }}
        loading={log.isFetching}
        error={log.isError}
        timeZone={timeZone}
        onPageChange={(page) => setQuery({ ...query, page })}
        onSizeChange={(size) => setQuery({ ...query, page: 1, size })}
      />
    </section>
  );
}
