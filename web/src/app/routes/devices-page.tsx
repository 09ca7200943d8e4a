/**
 * `/devices` (spec §2 "Groups, devices, gateways", registry): the device table — id
 * (DevEUI), type (model), unit, created, last signal (relative, exact time in a tooltip),
 * setpoint delivery, battery; on a phone id, unit and actions, with last signal and delivery
 * under the id — with search, model, unit (searched on the server) and (once the company has buildings) building and
 * floor filters, the building starting at the navigation's current building; sorting and paging
 * done by the server; add a device, change its unit, delete it (409 'last device' → error toast);
 * download the filtered list for Excel or as The Things Stack's or ChirpStack's import file.
 * Composes the devices feature with the alert centre's indicators and billing's shop link.
 */
import { DEVICE_MODELS, type Device, type DeviceModel } from '@heizplan/contracts/devices';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BuildingFilterSelects } from '../../components/building-filter-selects.tsx';
import { BuildingGroupingToggle, useBuildingGrouping } from '../../components/building-grouping.tsx';
import { ConfirmDeleteDialog } from '../../components/confirm-delete-dialog.tsx';
import { ExportButtons } from '../../components/export-buttons.tsx';
import { LinkButton } from '../../components/link-button.tsx';
import { PagedList } from '../../components/paged-list/paged-list.tsx';
import { usePagedList } from '../../components/paged-list/use-paged-list.ts';
import { formatDate, formatRelative, RelativeTime } from '../../components/relative-time.tsx';
import { SearchInput } from '../../components/ui/search-input.tsx';
import { Select } from '../../components/ui/select.tsx';
import type { TableColumn } from '../../components/ui/table.tsx';
import { useToast } from '../../components/ui/toast-provider.tsx';
import { UnitSearchCombobox } from '../../components/unit-search-combobox.tsx';
import { AlertIndicator } from '../../features/alerts/components/alert-indicators.tsx';
import { useShopTarget } from '../../features/billing/components/subscription-notice.tsx';
import { useDeleteDevice } from '../../features/devices/api/delete-device.ts';
import { downloadDevices } from '../../features/devices/api/export-devices.ts';
import { type DeviceListParams, useDevices } from '../../features/devices/api/list-devices.ts';
import { AddDeviceDialog } from '../../features/devices/components/add-device-dialog.tsx';
import { BatteryCell } from '../../features/devices/components/battery-cell.tsx';
import { DeviceOwnSettings } from '../../features/devices/components/device-own-settings.tsx';
import { DeviceUnitDialog } from '../../features/devices/components/device-unit-dialog.tsx';
import { DownlinkStateBadge } from '../../features/devices/components/downlink-state-badge.tsx';
import { RecalibrateButton } from '../../features/devices/components/recalibrate-button.tsx';
import { useClock } from '../../lib/clock.tsx';
import { useHeatingFormat } from '../../lib/format.ts';
import { useBuildingFilter } from '../../lib/heating/current-building.ts';
import { usePageTitle } from '../../lib/page-title.tsx';
import { useProblemMessage } from '../../lib/problem-message.ts';
import { useCan } from '../../lib/use-can.ts';

const ALL = 'all';
const UNASSIGNED = 'none';

const NEWEST_FIRST = { key: 'createdAt', order: 'desc' } as const;
/** Import files for the network server, offered beside the list formats (never with AppKeys). */
const NETWORK_SERVER_FORMATS = ['tts', 'chirpstack'] as const;

export function DevicesPage() {
  const canOperate = useCan('operate');
  const { t, i18n } = useTranslation('devices');
  usePageTitle(t('title'));
  const clock = useClock();
  const problems = useProblemMessage();
  const { toast } = useToast();
  const [model, setModel] = useState<DeviceModel | typeof ALL>(ALL);
  const [unit, setUnit] = useState<string>(ALL);
  const list = usePagedList(NEWEST_FIRST);
  const grouping = useBuildingGrouping<Device>(list, NEWEST_FIRST);
  const building = useBuildingFilter(() => list.table.onPageChange(1));
  const filtered = Boolean(list.q) || model !== ALL || unit !== ALL || building.filtered;
  const query = {
    ...list.params,
    ...building.params,
    ...(model === ALL ? {} : { model }),
    ...(unit === UNASSIGNED ? { unassigned: 'true' } : unit === ALL ? {} : { unitId: unit }),
  } as DeviceListParams;
  const devices = useDevices(query);
  const shop = useShopTarget();
  const remove = useDeleteDevice();
  const format = useHeatingFormat();
  const lang = i18n.language === 'en' ? 'en' : 'de';

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
      wrap: true,
      render: (device) => (
        <span className="inline-flex flex-wrap items-center gap-2">
          <span className="font-mono text-xs">{device.id}</span>
          <AlertIndicator subject={{ deviceId: device.id }} unitId={device.unitId} />
          {/* Phones: last signal and setpoint delivery have no columns of their own, they show here. */}
          <span
            className="flex basis-full flex-col text-xs text-stone-600 sm:hidden"
            data-testid={`device-phone-${device.id}`}
          >
            <span>
              {t('phone.lastSeen', {
                when: device.lastSeen ? formatRelative(device.lastSeen, clock(), i18n.language) : t('never'),
              })}
            </span>
            {device.downlink && (
              <span>
                {format.celsius(device.downlink.setpoint)} · {t(`downlink.states.${device.downlink.state}`)}
              </span>
            )}
          </span>
        </span>
      ),
    },
    {
      key: 'model',
      label: t('fields.model'),
      sortable: true,
      wrap: true,
      minScreen: 'md',
      render: (device) => (
        <span className="flex flex-col gap-0.5">
          <span>{t(`models.${device.model}`)}</span>
          <DeviceOwnSettings device={device} />
        </span>
      ),
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
      minScreen: '2xl',
      render: (device) => formatDate(device.createdAt, i18n.language),
    },
    {
      key: 'lastSeen',
      label: t('fields.lastSeen'),
      sortable: true,
      minScreen: 'sm',
      render: (device) => (
        <RelativeTime iso={device.lastSeen} emptyText={t('never')} testid={`device-last-seen-${device.id}`} />
      ),
    },
    {
      key: 'downlink',
      label: t('fields.downlink'),
      minScreen: 'sm',
      render: (device) => <DownlinkStateBadge device={device} />,
    },
    {
      key: 'battery',
      label: t('fields.battery'),
      sortable: true,
      minScreen: 'md',
      align: 'right',
      render: (device) => <BatteryCell device={device} />,
    },
    {
      key: 'actions',
      label: t('fields.actions'),
      render: (device) => (
        <span className="flex flex-col items-start gap-1">
          {/* On a phone the row keeps to deleting; the page's button recalibrates. */}
          <span className="hidden sm:inline">
            <RecalibrateButton devices={[device]} testid={`device-recalibrate-${device.id}`} />
          </span>
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
        </span>
      ),
    },
  ];
  // Members who only read (ems) neither add, assign nor delete devices (decision 0022).
  const columns = canOperate ? allColumns : allColumns.filter((column) => column.key !== 'actions');

  return (
    <section className="mx-auto flex w-full max-w-6xl flex-col gap-4 p-4 sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">{t('title')}</h1>
        <div className="flex flex-wrap items-center gap-2">
          <ExportButtons
            onExport={(format) => downloadDevices(query, format, lang)}
            labels={{ excel: t('export.csv'), xlsx: t('export.xlsx') }}
            title={t('export.hint')}
            errorText={t('export.error')}
            testid="devices-export"
          />
          <LinkButton to="/device-profiles" label={t('profiles')} testid="devices-profiles" />
          {canOperate && (
            <LinkButton to="/imports?kind=devices" label={t('import')} testid="devices-import" />
          )}
          {canOperate && (devices.data?.results.length ?? 0) > 1 && (
            <RecalibrateButton devices={devices.data?.results ?? []} testid="devices-recalibrate-page" />
          )}
          {canOperate && <AddDeviceDialog shop={shop} />}
        </div>
      </div>
      <ExportButtons
        formats={NETWORK_SERVER_FORMATS}
        onExport={(format) => downloadDevices(query, format, lang)}
        labels={{ tts: t('export.tts'), chirpstack: t('export.chirpstack') }}
        hint={t('export.networkHint')}
        errorText={t('export.error')}
        testid="devices-export"
      />
      <PagedList
        query={devices}
        list={list}
        label={t('title')}
        columns={columns}
        rowKey={(device) => device.id}
        texts={{ loadError: t('loadError'), emptyTitle: t('empty.title'), emptyText: t('empty.text') }}
        filtered={filtered}
        groupBy={grouping.groupBy}
        testid="devices"
        filters={
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
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
            <UnitSearchCombobox
              label={t('filters.unit')}
              labelHidden
              value={unit}
              onChange={list.filter((id: string | null) => setUnit(id ?? ALL))}
              leading={[
                { id: ALL, item: t('filters.allUnits'), testid: 'devices-unit-filter-all' },
                { id: UNASSIGNED, item: t('filters.unassigned'), testid: 'devices-unit-filter-none' },
              ]}
              testid="devices-unit-filter"
            />
            <BuildingFilterSelects filter={building} withFloor testid="devices" />
            <BuildingGroupingToggle
              grouping={grouping}
              shown={building.buildings.length > 0}
              testid="devices"
            />
          </div>
        }
      />
    </section>
  );
}
