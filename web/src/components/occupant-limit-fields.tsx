/**
 * The occupant limits a building or a group sets for its rooms (decision 0066): the highest °C an
 * occupant may choose on the public room page and the leeway in K around the plan. Empty takes
 * the next level's (a group's rooms: their building's, then the company's); the hint says what
 * that is. Typed as a German or an English reader types ("22,5" / "22.5"). Only rooms without
 * wall-control limits of their own follow them. Render it inside a form whose values have
 * `occupantMaxTemperature` and `occupantBand` as strings (see `occupantLimitFormFields`).
 */
import { OCCUPANT_BAND_LIMITS } from '@heizplan/contracts/account';
import { OccupantCeilingSchema, OccupantLeewaySchema } from '@heizplan/contracts/occupant-limits';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useCompany } from '../lib/company/get-company.ts';
import { useHeatingFormat } from '../lib/format.ts';
import { FormTextInput, numberOrNull } from './ui/form.tsx';

/** The two fields' form schema: '' = the next level's (null), else a number in its bounds. */
export const occupantLimitFormFields = {
  occupantMaxTemperature: z.string().transform(numberOrNull).pipe(OccupantCeilingSchema),
  occupantBand: z.string().transform(numberOrNull).pipe(OccupantLeewaySchema),
};

/** The message of an issue on one of the two fields, naming the limit; undefined for others. */
export function useOccupantLimitWording() {
  const { t } = useTranslation('ui');
  const company = useCompany().data;
  const format = useHeatingFormat();
  return (field: unknown): string | undefined => {
    if (field === 'occupantMaxTemperature')
      return t('occupantLimits.ceilingRange', {
        min: format.plain(company?.min_temperature ?? 0),
        max: format.plain(company?.max_temperature ?? 40),
      });
    if (field === 'occupantBand')
      return t('occupantLimits.bandRange', {
        min: format.plain(OCCUPANT_BAND_LIMITS.min),
        max: format.plain(OCCUPANT_BAND_LIMITS.max),
      });
    return undefined;
  };
}

export function OccupantLimitFields({
  inherits,
  testid,
  legendHidden = false,
}: {
  /** Whose limits an empty field takes: a building's rooms the company's, a group's their building's. */
  inherits: 'company' | 'building';
  testid: string;
  /** Inside a card whose heading says the same: the legend only for screen readers. */
  legendHidden?: boolean;
}) {
  const { t } = useTranslation('ui');
  const company = useCompany().data;
  const format = useHeatingFormat();
  const ceiling = format.celsius(company?.occupant_max_temperature);
  const band =
    company?.occupant_band === null || company?.occupant_band === undefined
      ? t('occupantLimits.noBand')
      : `${format.plain(company.occupant_band)} K`;
  return (
    <fieldset className="grid gap-3 sm:grid-cols-2" data-testid={testid}>
      <legend className={legendHidden ? 'sr-only' : 'mb-1 text-sm font-medium'}>
        {t('occupantLimits.legend')}
      </legend>
      <p className="text-xs text-stone-600 sm:col-span-2">
        {t(inherits === 'company' ? 'occupantLimits.hintCompany' : 'occupantLimits.hintBuilding', {
          ceiling,
          band,
        })}
      </p>
      <FormTextInput
        name="occupantMaxTemperature"
        label={t('occupantLimits.ceiling')}
        inputMode="decimal"
        testid={`${testid}-ceiling`}
      />
      <FormTextInput
        name="occupantBand"
        label={t('occupantLimits.band')}
        inputMode="decimal"
        testid={`${testid}-band`}
      />
    </fieldset>
  );
}
