/**
 * The 16 federal states by name in the UI language ("Bayern" / "Bavaria"), sorted as that
 * language sorts them, and a building's state with its holiday region ("Bayern (Augsburg)").
 */
import { FEDERAL_STATES, type FederalState, type HolidayRegions } from '@heizplan/contracts/buildings';
import { useTranslation } from 'react-i18next';

export type HolidayLanguage = 'de' | 'en';

/** The language the holiday names and regions are asked in. */
export const holidayLanguage = (language: string): HolidayLanguage =>
  language.startsWith('en') ? 'en' : 'de';

export function useFederalStates() {
  const { t, i18n } = useTranslation('buildings');
  const name = (state: FederalState) => t(`states.${state}`);
  const collator = new Intl.Collator(i18n.language);
  const sorted = [...FEDERAL_STATES].sort((a, b) => collator.compare(name(a), name(b)));
  return { name, sorted };
}

/** The name of `region` in `state` from the regions list, or the code while it loads. */
export function regionName(
  regions: HolidayRegions | undefined,
  state: FederalState,
  region: string | null,
): string | null {
  if (!region) return null;
  const entry = regions?.results.find((r) => r.state === state)?.regions.find((r) => r.code === region);
  return entry?.name ?? region;
}
