/**
 * A heating mode as the closures screen names it: with the temperature it keeps from the
 * company's settings — "Absenkbetrieb (16 °C)" — once the company has loaded.
 */
import type { HeatingMode } from '@heizplan/contracts/closures';
import { useTranslation } from 'react-i18next';
import { useHeatingFormat } from '../../lib/format.ts';

/** °C of the modes the company sets; undefined while the company loads. */
export interface ModeTemperatures {
  frost?: number;
  economy?: number;
  standby?: number;
}

export function useModeLabel(temperatures: ModeTemperatures) {
  const { t } = useTranslation('closures');
  const format = useHeatingFormat();
  return (mode: HeatingMode): string => {
    const celsius = temperatures[mode];
    return celsius === undefined
      ? t(`modes.${mode}`)
      : t('modeWithTemperature', { mode: t(`modes.${mode}`), temperature: `${format.plain(celsius)} °C` });
  };
}
