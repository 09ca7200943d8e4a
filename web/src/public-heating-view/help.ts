/**
 * The help for a radiator that does not heat (spec §1), answered from the live values: the gap
 * between setpoint and room temperature must exceed 1.5 °C, the system state (valve opening)
 * must say the radiator should heat, and the heating plan must ask for warmth — otherwise the
 * occupant should contact the system administrator.
 */
import type { PublicHeatingView } from '@heizplan/contracts/public-heating-view';
import type { TextKey } from './dictionary.ts';

/** Spec §1: the gap (°C) between setpoint and room temperature a heating radiator needs. */
export const HEATING_GAP = 1.5;

export type CheckState = 'ok' | 'fail' | 'unknown';

export interface HelpCheck {
  state: CheckState;
  key: TextKey;
  values: Record<string, string | number>;
}

export interface Help {
  checks: HelpCheck[];
  verdict: TextKey;
}

type Formatters = { celsius: (value: number) => string; time: (iso: string) => string };

export function evaluateHelp(view: PublicHeatingView, format: Formatters): Help {
  const { setpoint, roomTemperature, valveOpening, nextChange } = view;
  const gap = setpoint !== null && roomTemperature !== null ? setpoint - roomTemperature : null;
  const gapCheck: HelpCheck =
    gap === null
      ? { state: 'unknown', key: 'gapUnknown', values: {} }
      : gap > HEATING_GAP
        ? { state: 'ok', key: 'gapOk', values: { gap: format.celsius(gap) } }
        : { state: 'fail', key: 'gapLow', values: { gap: format.celsius(Math.max(0, gap)) } };
  const valveCheck: HelpCheck =
    valveOpening === null
      ? { state: 'unknown', key: 'valveUnknown', values: {} }
      : valveOpening > 0
        ? { state: 'ok', key: 'valveOpen', values: { percent: Math.round(valveOpening) } }
        : { state: 'fail', key: 'valveClosed', values: {} };
  const planCheck: HelpCheck =
    setpoint === null
      ? { state: 'unknown', key: 'gapUnknown', values: {} }
      : nextChange
        ? {
            state: 'ok',
            key: 'planNext',
            values: {
              setpoint: format.celsius(setpoint),
              next: format.celsius(nextChange.setpoint),
              time: format.time(nextChange.at),
            },
          }
        : { state: 'ok', key: 'planNow', values: { setpoint: format.celsius(setpoint) } };
  const verdict: TextKey =
    gapCheck.state === 'unknown' || valveCheck.state === 'unknown'
      ? 'verdictUnknown'
      : gapCheck.state === 'fail'
        ? 'verdictNoNeed'
        : valveCheck.state === 'fail'
          ? 'verdictValve'
          : 'verdictHeat';
  return { checks: [gapCheck, valveCheck, planCheck], verdict };
}
