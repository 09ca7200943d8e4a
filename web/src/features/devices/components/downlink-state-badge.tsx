/**
 * How far a device's latest setpoint downlink got: queued → sent → acknowledged, or
 * failed, as a coloured badge; the tooltip tells the setpoint and when it was queued and last
 * changed state, so an operator sees what has really arrived at the valve.
 */
import type { Device } from '@heizplan/contracts/devices';
import { useTranslation } from 'react-i18next';
import { formatExact } from '../../../components/relative-time.tsx';
import { cx } from '../../../components/ui/cx.ts';
import { Tooltip } from '../../../components/ui/tooltip.tsx';
import { useHeatingFormat } from '../../../lib/format.ts';

const TONES: Record<NonNullable<Device['downlink']>['state'], string> = {
  queued: 'bg-amber-100 text-amber-900',
  sent: 'bg-sky-100 text-sky-900',
  acknowledged: 'bg-green-100 text-green-800',
  failed: 'bg-red-100 text-red-800',
};

export function DownlinkStateBadge({ device }: { device: Device }) {
  const { t, i18n } = useTranslation('devices');
  const format = useHeatingFormat();
  const { downlink } = device;
  if (!downlink) return <span className="text-stone-500">—</span>;
  const details = t('downlink.details', {
    setpoint: format.celsius(downlink.setpoint),
    queued: formatExact(downlink.queuedAt, i18n.language),
    updated: formatExact(downlink.updatedAt, i18n.language),
  });
  return (
    <Tooltip content={details} width={240} testid={`device-downlink-${device.id}-tooltip`}>
      <button
        type="button"
        className={cx('rounded-full px-2 py-0.5 text-xs font-medium', TONES[downlink.state])}
        data-testid={`device-downlink-${device.id}`}
      >
        {format.celsius(downlink.setpoint)} · {t(`downlink.states.${downlink.state}`)}
      </button>
    </Tooltip>
  );
}
