/**
 * `/devices` (spec §2 "Groups, devices, gateways", registry): the device table — id
 * (DevEUI), type (model), unit, created, last signal (relative, exact time in a tooltip),
 * battery — with search, model and unit filters, sorting and paging done by the server; add a
 * device, change its unit, delete it (409 'last device' → error toast). Composes the devices
 * feature with the alert centre's indicators and billing's shop link.
 */
import { DEVICE_MODELS, type Device, type DeviceModel } from '@heizplan/contracts/devices';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDeleteDialog } from '../../components/confirm-delete-dialog.tsx';
import { PagedList } from '../../components/paged-list/paged-list.tsx';
import { usePagedList } from '../../components/paged-list/use-paged-list.ts';
import { formatDate, RelativeTime } from '../../components/relative-time.tsx';
import { SearchInput } from '../../components/ui/search-input.tsx';
import { Select } from '../../components/ui/select.tsx';
import type { TableColumn } from '../../components/ui/table.tsx';
import { useToast } from '../../components/ui/toast-provider.tsx';
import { AlertIndicator } from '../../features/alerts/components/alert-indicators.tsx';
import { useShopTarget } from '../../features/billing/components/subscription-notice.tsx';
import { useDeleteDevice } from '../../features/devices/api/delete-device.ts';
import { type DeviceListParams, useDevices } from '../../features/devices/api/list-devices.ts';
import { AddDeviceDialog } from '../../features/devices/components/add-device-dialog.tsx';
import { DeviceUnitDialog } from '../../features/devices/components/device-unit-dialog.tsx';
import { DownlinkStateBadge } from '../../features/devices/components/downlink-state-badge.tsx';
import { useUnitOptions } from '../../lib/heating/unit-options.ts';
import { useProblemMessage } from '../../lib/problem-message.ts';
import { useCan } from '../../lib/use-can.ts';

const ALL = 'all';
const UNASSIGNED = 'none';

export function DevicesPage() {
  const canOperate = useCan('operate');
  const { t, i18n } = useTranslation('devices');
  const problems = useProblemMessage();
  const { toast } = useToast();
  const [model, setModel] = useState<DeviceModel | typeof ALL>(ALL);
  const [unit, setUnit] = useState<string>(ALL);
  const list = usePagedList({ key: 'createdAt', order: 'desc' });
  const filtered = Boolean(list.q) || model !== ALL || unit !== ALL;
  const query = {
    ...list.params,
    ...(model === ALL ? {} : { model }),
    ...(unit === UNASSIGNED ? { unassigned: 'true' } : unit === ALL ? {} : { unitId: unit }),
  } as DeviceListParams;
  const devices = useDevices(query);
  const units = useUnitOptions('devices-unit-filter');
  const shop = useShopTarget();
  const remove = useDeleteDevice();
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2 });

  const deleteDevice = (device: Device) =>
    remove.mutateAsync(device.id).then(
      () => toast({ type: 'success', title: t('delete.success'), testid: 'toast-device-deleted' }),
      (error: unknown) =>
        toast({
          type: 'error',
          title: t('delete.error'),
          description: problems.reason(error),
          testid: 'toast-device-delete-error',
        }),
    );

  const allColumns: TableColumn<Device>[] = [
    {
      key: 'id',
      label: t('fields.id'),
      sortable: true,
      render: (device) => (
        <span className="inline-flex flex-wrap items-center gap-2">
          <span className="font-mono text-xs">{device.id}</span>
          <AlertIndicator subject={{ deviceId: device.id }} unitId={device.unitId} />
        </span>
      ),
    },
    {
      key: 'model',
      label: t('fields.model'),
      sortable: true,
      wrap: true,
      minScreen: 'md',
      render: (device) => t(`models.${device.model}`),
    },
    {
      key: 'unit',
      label: t('fields.unit'),
      sortable: true,
      wrap: true,
      render: (device) => (canOperate ? <DeviceUnitDialog device={device} /> : (device.unitName ?? '—')),
    },
    {
      key: 'createdAt',
      label: t('fields.createdAt'),
      sortable: true,
      minScreen: 'lg',
      render: (device) => formatDate(device.createdAt, i18n.language),
    },
    {
      key: 'lastSeen',
      label: t('fields.lastSeen'),
      sortable: true,
      render: (device) => (
        <RelativeTime iso={device.lastSeen} emptyText={t('never')} testid={`device-last-seen-${device.id}`} />
      ),
    },
    {
      key: 'downlink',
      label: t('fields.downlink'),
      render: (device) => <DownlinkStateBadge device={device} />,
    },
    {
      key: 'battery',
      label: t('fields.battery'),
      sortable: true,
      minScreen: 'md',
      align: 'right',
      render: (device) =>
        device.battery ? `${number.format(device.battery.value)} ${device.battery.unit}` : '—',
    },
    {
      key: 'actions',
      label: t('fields.actions'),
      render: (device) => (
        <ConfirmDeleteDialog
          triggerLabel={t('delete.label', { id: device.id })}
          triggerText={t('delete.open')}
          title={t('delete.title')}
          text={t('delete.text', { id: device.id })}
          confirmText={t('delete.confirm')}
          cancelText={t('cancel')}
          onConfirm={() => deleteDevice(device)}
          testid={`device-delete-${device.id}`}
        />
      ),
    },
  ];
  // Members who only read (ems) neither add, assign nor delete devices (decision 0022).
  const columns = canOperate ? allColumns : allColumns.filter((column) => column.key !== 'actions');

  return (
    <section className="mx-auto flex w-full max-w-6xl flex-col gap-4 p-4 sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">{t('title')}</h1>
        {canOperate && <AddDeviceDialog shop={shop} />}
      </div>
      <PagedList
        query={devices}
        list={list}
        label={t('title')}
        columns={columns}
        rowKey={(device) => device.id}
        texts={{ loadError: t('loadError'), emptyTitle: t('empty.title'), emptyText: t('empty.text') }}
        filtered={filtered}
        testid="devices"
        filters={
          <div className="grid gap-3 sm:grid-cols-3">
            <SearchInput
              value={list.search}
              onChange={list.setSearch}
              placeholder={t('filters.search')}
              testid="devices-search"
            />
            <Select
              aria-label={t('filters.model')}
              value={model}
              onChange={list.filter((id: string) => setModel(id as DeviceModel | typeof ALL))}
              testid="devices-model-filter"
              options={[
                { id: ALL, value: t('filters.allModels'), testid: 'devices-model-filter-all' },
                ...DEVICE_MODELS.map((id) => ({
                  id,
                  value: t(`models.${id}`),
                  testid: `devices-model-filter-${id}`,
                })),
              ]}
            />
            <Select
              aria-label={t('filters.unit')}
              value={unit}
              onChange={list.filter(setUnit)}
              testid="devices-unit-filter"
              options={[
                { id: ALL, value: t('filters.allUnits'), testid: 'devices-unit-filter-all' },
                { id: UNASSIGNED, value: t('filters.unassigned'), testid: 'devices-unit-filter-none' },
                ...units.options.map((option) => ({
                  id: option.id,
                  value: option.item,
                  testid: option.testid,
                })),
              ]}
            />
          </div>
        }
      />
    </section>
  );
}
