/**
 * Decimal numbers as people type them: German with a decimal comma and dots between thousands
 * ("38.450,5"), English with a decimal point and commas between thousands ("38,450.5"). A number
 * input reads "38.450,5" as nothing or as something else; this reads it as the person meant, and
 * `understood` lets the field say what it read before anything is saved.
 */

/** Groups of three digits after the first one to three: "38.450" or "1,234,567". */
const grouped = (text: string, separator: '.' | ',') =>
  new RegExp(`^\\d{1,3}(\\${separator}\\d{3})+$`).test(text);

/**
 * `text` as a number for a reader of `locale` ("de…" or else English), NaN when it is none:
 * - German: "38.450,5" → 38450.5, "38450,5" → 38450.5, "38.450" → 38450 (dots between thousands);
 *   "38.5" (no comma, not in thousands) → 38.5, as typed on an English keyboard.
 * - English: "38,450.5" → 38450.5, "38,450" → 38450; "38,5" (not in thousands) → 38.5.
 * A sign in front is kept; spaces (also as thousands separators) are ignored; '' → NaN.
 */
export function parseDecimal(text: string, locale: string): number {
  const compact = text.trim().replace(/[\s\u00a0\u202f]/g, '');
  const match = /^([+\-−]?)(.*)$/.exec(compact);
  const sign = match?.[1] === '-' || match?.[1] === '−' ? -1 : 1;
  const body = match?.[2] ?? '';
  if (!/^[\d.,]+$/.test(body) || !/\d/.test(body)) return Number.NaN;
  const [decimal, thousands] = locale.startsWith('de') ? [',', '.'] : ['.', ','];
  let normal: string;
  if (body.includes(decimal)) {
    const [whole = '', fraction = '', ...more] = body.split(decimal);
    if (more.length > 0 || fraction.includes(thousands)) return Number.NaN;
    if (whole.includes(thousands) && !grouped(whole, thousands as '.' | ',')) return Number.NaN;
    normal = `${whole.replaceAll(thousands, '')}.${fraction}`;
  } else if (body.includes(thousands)) {
    normal = grouped(body, thousands as '.' | ',')
      ? body.replaceAll(thousands, '')
      : body.split(thousands).length === 2
        ? body.replace(thousands, '.')
        : 'x';
  } else normal = body;
  const value = Number(normal);
  return Number.isFinite(value) ? sign * value : Number.NaN;
}

/** What `parseDecimal` read, written back for `locale` ("38.450,5"); null for nothing to show. */
export function understood(text: string, locale: string): string | null {
  if (text.trim() === '') return null;
  const value = parseDecimal(text, locale);
  return Number.isNaN(value)
    ? null
    : new Intl.NumberFormat(locale, { maximumFractionDigits: 6 }).format(value);
}
