/**
 * The holiday region a building's postcode points to, as a suggestion for the building form
 * (the regions are date-holidays' for Germany: Bavaria's Stadt Augsburg with the Augsburger
 * Friedensfest, Saxony's Landkreis Bautzen and Thuringia's Eichsfeld, Unstrut-Hainich-Kreis and
 * Wartburgkreis with Fronleichnam). Postcode areas follow Deutsche Post's postcode map; a postcode
 * area can cross a district border, so the form offers the region and the person decides.
 * Bavaria's "überwiegend katholische Gemeinden" (Mariä Himmelfahrt) cannot be told from a
 * postcode: the form asks for it instead.
 */

/** Postcode ranges (inclusive, five digits as numbers) → region code, per federal state. */
const RANGES: Record<string, [number, number, string][]> = {
  BY: [[86150, 86199, 'A']],
  SN: [
    [1896, 1936, 'BZ'],
    [2625, 2699, 'BZ'],
    [2977, 2999, 'BZ'],
  ],
  TH: [
    [37308, 37359, 'EIC'],
    [99947, 99998, 'UH'],
    [36404, 36469, 'WAK'],
    [99817, 99848, 'WAK'],
  ],
};

/** The region code `postcode` (five digits) lies in within `state`, or null when it points to none. */
export function regionByPostcode(state: string, postcode: string): string | null {
  if (!/^\d{5}$/.test(postcode)) return null;
  const code = Number(postcode);
  return RANGES[state]?.find(([from, to]) => code >= from && code <= to)?.[2] ?? null;
}
