/**
 * A refused change in the page's own words: the server's problem `code` and
 * `params` pick and fill a dictionary text; its English `detail` is never shown. A code this
 * page does not know yet gets a general sentence.
 */
import { type Language, type TextKey, text } from './dictionary.ts';

export interface Notice {
  key: TextKey;
  values: Record<string, string | number>;
}

/** °C with one decimal in the page's language: "18,0 °C". */
export function celsiusIn(lang: Language): (value: number) => string {
  const number = new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return (value) => `${number.format(value)} °C`;
}

export function refusalNotice(
  lang: Language,
  code: string | null,
  params: Record<string, string | number>,
): Notice {
  const celsius = celsiusIn(lang);
  switch (code) {
    case 'setpoint_outside_limits':
      return {
        key: 'refusedLimits',
        values: { min: celsius(Number(params.min)), max: celsius(Number(params.max)) },
      };
    case 'setpoint_step':
      return { key: 'refusedStep', values: { step: celsius(Number(params.step)) } };
    case 'unit_paused':
      return { key: 'paused', values: {} };
    case 'unit_closed':
      return { key: 'closed', values: {} };
    default:
      return { key: 'refused', values: {} };
  }
}

export const noticeText = (lang: Language, notice: Notice) => text(lang, notice.key, notice.values);
