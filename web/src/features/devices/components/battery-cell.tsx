/**
 * A device's battery in the devices table: the value as it reports it (V or %) and, where 14
 * days of readings show it, how much it falls a week and the days left until the low-battery
 * threshold at that pace ("steady" while it does not fall).
 */
import type { Device } from '@heizplan/contracts/devices';
import { useTranslation } from 'react-i18next';

export function BatteryCell({ device }: { device: Device }) {
  const { t, i18n } = useTranslation('devices');
  const { battery, batteryTrend: trend } = device;
  if (!battery) return <>—</>;
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2 });
  const fall = trend && trend.perWeek < 0 ? number.format(trend.perWeek) : null;
  return (
    <span className="flex flex-col items-end">
      <span>{`${number.format(battery.value)} ${battery.unit}`}</span>
      {trend && (
        <span className="text-xs text-stone-600" data-testid={`device-battery-trend-${device.id}`}>
          {fall === null
            ? t('battery.steady')
            : trend.daysLeft === null
              ? t('battery.perWeek', { fall, unit: battery.unit })
              : trend.daysLeft === 0
                ? t('battery.low', { fall, unit: battery.unit })
                : t('battery.daysLeft', { fall, unit: battery.unit, count: trend.daysLeft })}
        </span>
      )}
    </span>
  );
}
