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

/**
 * The gap check, worded by its sign: a room warmer than the setpoint is "warmer",
 * not "only 0.0 °C below". The gap is rounded to the 0.1 °C the page shows before comparing.
 */
function gapCheckOf(gap: number | null, format: Formatters): HelpCheck {
  if (gap === null) return { state: 'unknown', key: 'gapUnknown', values: {} };
  const shown = Math.round(gap * 10) / 10;
  if (shown > HEATING_GAP) return { state: 'ok', key: 'gapOk', values: { gap: format.celsius(shown) } };
  if (shown > 0) return { state: 'fail', key: 'gapLow', values: { gap: format.celsius(shown) } };
  if (shown === 0) return { state: 'fail', key: 'gapNone', values: {} };
  return { state: 'fail', key: 'gapAbove', values: { gap: format.celsius(-shown) } };
}

/**
 * Where the setpoint in force comes from, as the help words it: the plan's keys only for the
 * plan, so a manual, occupant, event, closure or booking value is never presented as "the heating plan".
 */
function sourceKeys(source: PublicHeatingView['setpointSource']): { now: TextKey; next: TextKey } {
  switch (source) {
    case 'one_time_start':
      return { now: 'eventNow', next: 'eventNext' };
    case 'web_change':
      return { now: 'manualNow', next: 'manualNext' };
    case 'qr_change':
      return { now: 'occupantNow', next: 'occupantNext' };
    case 'paused':
      return { now: 'pausedNow', next: 'pausedNow' };
    case 'closure':
      return { now: 'closureNow', next: 'closureNext' };
    case 'booking':
      return { now: 'bookingNow', next: 'bookingNext' };
    default:
      return { now: 'planNow', next: 'planNext' };
  }
}

export function evaluateHelp(view: PublicHeatingView, format: Formatters): Help {
  const keys = sourceKeys(view.setpointSource);
  const { setpoint, roomTemperature, valveOpening, nextChange } = view;
  const gap = setpoint !== null && roomTemperature !== null ? setpoint - roomTemperature : null;
  const gapCheck = gapCheckOf(gap, format);
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
            key: keys.next,
            values: {
              setpoint: format.celsius(setpoint),
              next: format.celsius(nextChange.setpoint),
              time: format.time(nextChange.at),
            },
          }
        : { state: 'ok', key: keys.now, values: { setpoint: format.celsius(setpoint) } };
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
