/**
 * A device's battery in the devices table: the value as it reports it (V or %) and, where 14
 * days of readings show it, how much it falls a week and the days left until the low-battery
 * threshold at that pace, on a line of its own so the column stays narrow ("steady" while it
 * does not fall).
 */
import type { Device } from '@heizplan/contracts/devices';
import { useTranslation } from 'react-i18next';

export function BatteryCell({ device }: { device: Device }) {
  const { t, i18n } = useTranslation('devices');
  const { battery, batteryTrend: trend } = device;
  if (!battery) return <>—</>;
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2 });
  // Whole percent, hundredths of a volt: what the devices resolve.
  const perWeek = new Intl.NumberFormat(i18n.language, {
    maximumFractionDigits: battery.unit === '%' ? 0 : 2,
  });
  const fall = trend && trend.perWeek < 0 ? perWeek.format(trend.perWeek) : null;
  return (
    <span className="flex flex-col items-end">
      <span>{`${number.format(battery.value)} ${battery.unit}`}</span>
      {trend && (
        <span
          className="flex flex-col items-end text-xs text-stone-600"
          data-testid={`device-battery-trend-${device.id}`}
        >
          <span>
            {fall === null ? t('battery.steady') : t('battery.perWeek', { fall, unit: battery.unit })}
          </span>
          {fall !== null && trend.daysLeft !== null && (
            <span>
              {trend.daysLeft === 0 ? t('battery.low') : t('battery.daysLeft', { count: trend.daysLeft })}
            </span>
          )}
        </span>
      )}
    </span>
  );
}
