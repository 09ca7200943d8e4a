/**
 * What a valve runs by itself, under its model name: its firmware and the frost protection it
 * keeps without the network server (set by Heizplan where the model and firmware have it); the
 * tooltip explains the thresholds. Nothing for models without settings of their own.
 */
import type { Device } from '@heizplan/contracts/devices';
import { useTranslation } from 'react-i18next';
import { Tooltip } from '../../../components/ui/tooltip.tsx';
import { useHeatingFormat } from '../../../lib/format.ts';

export function DeviceOwnSettings({ device }: { device: Device }) {
  const { t } = useTranslation('devices');
  const format = useHeatingFormat();
  const { antiFreezeSupport: support, antiFreeze, firmware } = device;
  if (support === 'none') return null;
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
    <span className="flex flex-col text-xs text-stone-600" data-testid={`device-own-settings-${device.id}`}>
      {lines.map((line) => (
        <span key={line}>{line}</span>
      ))}
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
