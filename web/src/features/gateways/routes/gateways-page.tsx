/**
 * `/gateways` (spec §2 "Groups, devices, gateways", registry): name, the online state the
 * server derives (offline after 2 × the stats interval without stats) — first, so a phone shows
 * it without scrolling — last seen (relative, exact time in a tooltip), gateway EUI and created,
 * with search, sorting and paging done by the server; add and delete gateways.
 */
import type { Gateway } from '@heizplan/contracts/devices';
import { useTranslation } from 'react-i18next';
import { ConfirmDeleteDialog } from '../../../components/confirm-delete-dialog.tsx';
import { PagedList } from '../../../components/paged-list/paged-list.tsx';
import { usePagedList } from '../../../components/paged-list/use-paged-list.ts';
import { formatDate, RelativeTime } from '../../../components/relative-time.tsx';
import { cx } from '../../../components/ui/cx.ts';
import type { TableColumn } from '../../../components/ui/table.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { usePageTitle } from '../../../lib/page-title.tsx';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { useCan } from '../../../lib/use-can.ts';
import { useDeleteGateway } from '../api/delete-gateway.ts';
import { type GatewayListParams, useGateways } from '../api/list-gateways.ts';
import { AddGatewayDialog } from '../components/add-gateway-dialog.tsx';

export function GatewaysPage() {
  const { t, i18n } = useTranslation('gateways');
  usePageTitle(t('title'));
  const { toast } = useToast();
  const problems = useProblemMessage();
  const list = usePagedList({ key: 'name', order: 'asc' });
  const gateways = useGateways(list.params as GatewayListParams);
  const remove = useDeleteGateway();
  const canOperate = useCan('operate');

  const deleteGateway = (gateway: Gateway) =>
    remove.mutateAsync(gateway.id).then(
      () => toast({ type: 'success', title: t('delete.success'), testid: 'toast-gateway-deleted' }),
      (error: unknown) =>
        toast({
          type: 'error',
          title: t('delete.error'),
          description: problems.reason(error),
          testid: 'toast-gateway-delete-error',
        }),
    );

  const allColumns: TableColumn<Gateway>[] = [
    { key: 'name', label: t('fields.name'), sortable: true, wrap: true, render: (gateway) => gateway.name },
    {
      key: 'state',
      label: t('fields.state'),
      render: (gateway) => (
        <span
          data-testid={`gateway-state-${gateway.id}`}
          className={cx(
            'inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium',
            gateway.online ? 'bg-green-100 text-green-800' : 'bg-stone-200 text-stone-700',
          )}
        >
          <span
            aria-hidden="true"
            className={cx('size-2 rounded-full', gateway.online ? 'bg-green-600' : 'bg-stone-500')}
          />
          {t(gateway.online ? 'online' : 'offline')}
        </span>
      ),
    },
    {
      key: 'lastSeen',
      label: t('fields.lastSeen'),
      sortable: true,
      render: (gateway) => (
        <RelativeTime
          iso={gateway.lastSeen}
          emptyText={t('never')}
          testid={`gateway-last-seen-${gateway.id}`}
        />
      ),
    },
    {
      key: 'gatewayEui',
      label: t('fields.gatewayEui'),
      sortable: true,
      minScreen: 'md',
      render: (gateway) => <span className="font-mono text-xs">{gateway.gatewayEui}</span>,
    },
    {
      key: 'createdAt',
      label: t('fields.createdAt'),
      sortable: true,
      minScreen: 'lg',
      render: (gateway) => formatDate(gateway.createdAt, i18n.language),
    },
    {
      key: 'actions',
      label: t('fields.actions'),
      render: (gateway) => (
        <ConfirmDeleteDialog
          triggerLabel={t('delete.label', { name: gateway.name })}
          triggerText={t('delete.open')}
          title={t('delete.title')}
          text={t('delete.text', { name: gateway.name, eui: gateway.gatewayEui })}
          confirmText={t('delete.confirm')}
          cancelText={t('cancel')}
          onConfirm={() => deleteGateway(gateway)}
          testid={`gateway-delete-${gateway.id}`}
        />
      ),
    },
  ];
  // Members who only read (ems) neither add nor delete gateways (decision 0022).
  const columns = canOperate ? allColumns : allColumns.filter((column) => column.key !== 'actions');

  return (
    <section className="mx-auto flex w-full max-w-6xl flex-col gap-4 p-4 sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">{t('title')}</h1>
        {canOperate && <AddGatewayDialog />}
      </div>
      <PagedList
        query={gateways}
        list={list}
        label={t('title')}
        columns={columns}
        rowKey={(gateway) => gateway.id}
        texts={{ loadError: t('loadError'), emptyTitle: t('empty.title'), emptyText: t('empty.text') }}
        testid="gateways"
      />
    </section>
  );
}
