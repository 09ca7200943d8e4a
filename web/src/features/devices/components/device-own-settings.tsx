/**
 * What a valve runs by itself, under its model name: its firmware and the frost protection it
 * keeps without the network server (set by Heizplan where the model and firmware have it); the
 * tooltip explains the thresholds; its configuration against its device profile (in sync,
 * pending, differs and why, the settings in question in a tooltip), its spreading factor and airtime per day against the budget, and a
 * warning with the interval that fits where the profile's keep-alive would pass the budget.
 * Nothing for models without settings of their own.
 */
import type { Device } from '@heizplan/contracts/devices';
import { useTranslation } from 'react-i18next';
import { Tooltip } from '../../../components/ui/tooltip.tsx';
import { useHeatingFormat } from '../../../lib/format.ts';

export function DeviceOwnSettings({ device }: { device: Device }) {
  const { t } = useTranslation('devices');
  const format = useHeatingFormat();
  const { antiFreezeSupport: support, antiFreeze, firmware, config, airtime } = device;
  if (support === 'none' && config.status === 'none' && !config.recalibrating) return null;
  const lines = [
    firmware === null ? t('ownSettings.firmwareUnknown') : t('ownSettings.firmware', { version: firmware }),
  ];
  if (support === 'firmware_too_old') lines.push(t('ownSettings.antiFreezeTooOld'));
  if (support === 'supported' && !antiFreeze) lines.push(t('ownSettings.antiFreezePending'));
  // The narrow model column wraps: a temperature stays on one line with its unit.
  const celsius = (value: number) => format.celsius(value).replace(' ', '\u00a0');
  const temperatures = antiFreeze && {
    activation: celsius(antiFreeze.activation),
    deactivation: celsius(antiFreeze.deactivation),
    target: celsius(antiFreeze.target),
  };
  return (
    <span
      className="flex min-w-36 flex-col text-xs text-stone-600"
      data-testid={`device-own-settings-${device.id}`}
    >
      {lines.map((line) => (
        <span key={line}>{line}</span>
      ))}
      {config.status !== 'none' && <ConfigState device={device} />}
      {config.recalibrating && (
        <span data-testid={`device-recalibrating-${device.id}`}>{t('ownSettings.recalibrating')}</span>
      )}
      {airtime.spreadingFactor !== null && (
        <span>
          {t('ownSettings.airtime', {
            sf: airtime.spreadingFactor,
            used: format.plain(Math.round((airtime.uplinkPerDayS + airtime.downlinkTodayS) * 10) / 10),
            budget: format.plain(airtime.budgetS),
          })}
        </span>
      )}
      {airtime.keepAliveOverBudget && (
        <span className="text-amber-700" data-testid={`device-airtime-warning-${device.id}`}>
          {airtime.keepAliveOverBudget.fits === null
            ? t('ownSettings.keepAliveNoFit', { desired: airtime.keepAliveOverBudget.desired })
            : t('ownSettings.keepAliveOverBudget', airtime.keepAliveOverBudget)}
        </span>
      )}
      {support === 'supported' && temperatures && (
        <Tooltip
          content={t('ownSettings.antiFreezeDetails', temperatures)}
          width={280}
          testid={`device-anti-freeze-${device.id}-tooltip`}
        >
          <button type="button" className="text-left underline decoration-dotted underline-offset-2">
            {t('ownSettings.antiFreeze', temperatures)}
          </button>
        </Tooltip>
      )}
    </span>
  );
}

/** The profile line; where settings are still open, a tooltip names them. */
function ConfigState({ device }: { device: Device }) {
  const { t } = useTranslation('devices');
  const { config } = device;
  const text = `${t(`ownSettings.config.${config.status}`, { profile: config.profileName })}${
    config.reason ? ` (${t(`ownSettings.configReason.${config.reason}`)})` : ''
  }`;
  if (config.differs.length === 0) return <span data-testid={`device-config-${device.id}`}>{text}</span>;
  const fields = config.differs.map((field) => t(`ownSettings.configField.${field}`, field)).join(', ');
  return (
    <Tooltip
      content={t('ownSettings.configOpen', { fields })}
      width={280}
      testid={`device-config-${device.id}-tooltip`}
    >
      <button
        type="button"
        className="text-left underline decoration-dotted underline-offset-2"
        data-testid={`device-config-${device.id}`}
      >
        {text}
      </button>
    </Tooltip>
  );
}
