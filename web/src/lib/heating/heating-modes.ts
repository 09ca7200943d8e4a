/**
 * The heating modes a closure or a building's public holidays keep (decision 0051): frost
 * protection, economy, standby — named with the temperature each really keeps from the company's
 * settings ("Absenkbetrieb (16 °C)") once the company has loaded. The mode names live in each
 * screen's namespace under `modes.<mode>` and `modeWithTemperature`.
 */
import type { Company } from '@heizplan/contracts/account';
import type { HeatingMode } from '@heizplan/contracts/closures';
import { useTranslation } from 'react-i18next';
import { useHeatingFormat } from '../format.ts';

export const HEATING_MODES: readonly HeatingMode[] = ['frost', 'economy', 'standby'];

/** °C of the modes the company sets; undefined while the company loads. */
export interface ModeTemperatures {
  frost?: number;
  economy?: number;
  standby?: number;
}

/**
 * What each mode really keeps: the company's setpoint clamped to its range, as the heating engine
 * does (a frost protection of 8 °C in a company whose minimum is 12 °C keeps 12 °C).
 */
export function modeTemperatures(company: Company | undefined): ModeTemperatures {
  if (!company) return {};
  const clamp = (celsius: number) =>
    Math.min(Math.max(celsius, company.min_temperature), company.max_temperature);
  return {
    frost: clamp(company.frost_protection),
    economy: clamp(company.economy_temperature),
    standby: clamp(company.standby_temperature),
  };
}

/** "Frostschutz (8 °C)": the mode's name from `namespace`, with its temperature when known. */
export function useModeLabel(temperatures: ModeTemperatures, namespace: string) {
  const { t } = useTranslation(namespace);
  const format = useHeatingFormat();
  return (mode: HeatingMode): string => {
    const celsius = temperatures[mode];
    return celsius === undefined
      ? t(`modes.${mode}`)
      : t('modeWithTemperature', { mode: t(`modes.${mode}`), temperature: `${format.plain(celsius)} °C` });
  };
}
