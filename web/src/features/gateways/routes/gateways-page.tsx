/**
 * `/gateways` (spec §2 "Groups, devices, gateways"; issue 6 registry): name, the online state the
 * server derives (offline after 2 × the stats interval without stats) — first, so a phone shows
 * it without scrolling — last seen (relative, exact time in a tooltip), gateway EUI and created,
 * with search, sorting and paging done by the server; add and delete gateways.
 */
import type { Gateway } from '@heizplan/contracts/devices';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cx } from '../../../components/ui/cx.ts';
import { SearchInput } from '../../../components/ui/search-input.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { Table, type TableColumn } from '../../../components/ui/table.tsx';
import type { SortState } from '../../../components/ui/table-sort.ts';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { ConfirmDeleteDialog } from '../../devices/components/confirm-delete-dialog.tsx';
import { formatDate, RelativeTime } from '../../devices/components/relative-time.tsx';
import { useDebounced } from '../../units/use-debounced.ts';
import { useDeleteGateway } from '../api/delete-gateway.ts';
import { type GatewayListParams, useGateways } from '../api/list-gateways.ts';
import { AddGatewayDialog } from '../components/add-gateway-dialog.tsx';

const EMPTY_PAGE = { results: [], count: 0, page: 1, size: 10 };

export function GatewaysPage() {
  const { t, i18n } = useTranslation('gateways');
  const { toast } = useToast();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(10);
  const [sort, setSort] = useState<SortState>({ key: 'name', order: 'asc' });
  const q = useDebounced(search.trim());
  const query: GatewayListParams = {
    page,
    size,
    ...(q ? { q } : {}),
    ...(sort.order === 'none' ? {} : { sort: sort.key as GatewayListParams['sort'], order: sort.order }),
  };
  const gateways = useGateways(query);
  const remove = useDeleteGateway();

  const deleteGateway = (gateway: Gateway) =>
    remove.mutateAsync(gateway.id).then(
      () => toast({ type: 'success', title: t('delete.success'), testid: 'toast-gateway-deleted' }),
      (error: unknown) =>
        toast({
          type: 'error',
          title: t('delete.error'),
          description: error instanceof ApiError ? error.detail : undefined,
          testid: 'toast-gateway-delete-error',
        }),
    );

  const columns: TableColumn<Gateway>[] = [
    { key: 'name', label: t('fields.name'), sortable: true, render: (gateway) => gateway.name },
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
      render: (gateway) => <span className="font-mono text-xs">{gateway.gatewayEui}</span>,
    },
    {
      key: 'createdAt',
      label: t('fields.createdAt'),
      sortable: true,
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

  const noGatewaysAtAll = gateways.data?.count === 0 && !q;

  return (
    <section className="mx-auto flex w-full max-w-6xl flex-col gap-4 p-4 sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">{t('title')}</h1>
        <AddGatewayDialog />
      </div>
      {gateways.isPending ? (
        <div className="flex justify-center py-16">
          <Spinner loading size="lg" testid="gateways-loading" />
        </div>
      ) : gateways.isError ? (
        <p role="alert" className="rounded-lg bg-red-50 p-4 text-red-800" data-testid="gateways-error">
          {t('loadError')}
        </p>
      ) : noGatewaysAtAll ? (
        <div
          className="rounded-xl border border-dashed border-stone-300 bg-white p-10 text-center"
          data-testid="gateways-empty"
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
            testid="gateways-search"
          />
          <Table
            label={t('title')}
            columns={columns}
            data={gateways.data ?? EMPTY_PAGE}
            rowKey={(gateway) => gateway.id}
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
            loading={gateways.isFetching && gateways.isPlaceholderData}
            testid="gateways-table"
          />
        </>
      )}
    </section>
  );
}
