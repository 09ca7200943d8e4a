/**
 * Server problems in the user's language: a problem+json `code` is translated from
 * the `problems` namespace (`locales/<lng>/problems.json`) with its `params`. A problem without
 * a code the web knows falls back to the caller's own text or a generic sentence for its
 * status; the server's English `detail` and `message` are never shown. Numbers among the params
 * (a limit in °C) are written the language's way ("12,5" in German).
 */
import { useTranslation } from 'react-i18next';
import { ApiError, type FieldError, type ProblemParams } from './api-client.ts';
import { formatMonthDay } from './format.ts';

export interface ProblemMessages {
  /** The text for a failed call, or `fallback` (else a generic one) when it has no known code. */
  message(error: unknown, fallback?: string): string;
  /** The text for a known code with extra `params` (e.g. a name the web formats itself), else null. */
  coded(code: string | undefined, params?: ProblemParams): string | null;
  /** The specific text of a failed call when it has a known code (a toast's description), else undefined. */
  reason(error: unknown): string | undefined;
  /** The text for one field error: its code's translation, else "this value was not accepted". */
  fieldText(error: FieldError): string;
  /**
   * The text for `field` of a failed call — the server names request fields `body.<field>` or
   * plain `<field>` — or undefined when it named no problem there.
   */
  field(error: unknown, field: string): string | undefined;
}

/** The server's field errors of `error` for `field` (named `field` or `body.field`). */
export function fieldErrorsOf(error: unknown, field: string): FieldError[] {
  if (!(error instanceof ApiError)) return [];
  return error.errors.filter((e) => e.field === field || e.field === `body.${field}`);
}

/** Params that carry a season bound "MM-DD" (a plan overlap's `from` and `to`), not a name. */
const SEASON_BOUNDS = new Set(['from', 'to']);

/**
 * `params` with its numbers and season bounds ("MM-DD") as text in `language`; `count` stays a
 * number for plurals.
 */
export function localParams(params: ProblemParams, language: string): ProblemParams {
  const number = new Intl.NumberFormat(language, { maximumFractionDigits: 2 });
  return Object.fromEntries(
    Object.entries(params).map(([key, value]) => [
      key,
      typeof value === 'number' && key !== 'count'
        ? number.format(value)
        : typeof value === 'string' && SEASON_BOUNDS.has(key)
          ? formatMonthDay(value, language)
          : value,
    ]),
  );
}

export function useProblemMessage(): ProblemMessages {
  const { t, i18n } = useTranslation('problems');
  const local = (params: ProblemParams = {}) => localParams(params, i18n.language);
  const coded = (code: string | undefined, params: ProblemParams = {}) =>
    code && i18n.exists(`problems:codes.${code}`) ? t(`codes.${code}`, local(params)) : null;
  const generic = (error: unknown) => {
    if (!(error instanceof ApiError)) return t('status.network');
    if (error.status >= 500) return t('status.server');
    return i18n.exists(`problems:status.${error.status}`) ? t(`status.${error.status}`) : t('status.other');
  };
  // A field shows the short form where the spec has one (§5: 'Invalid time!' beside the field,
  // 'Invalid time! The time is not valid.' for the whole form).
  const fieldText = (error: FieldError) =>
    (error.code && i18n.exists(`problems:fieldCodes.${error.code}`)
      ? t(`fieldCodes.${error.code}`, local(error.params))
      : null) ??
    coded(error.code, error.params) ??
    t('field.invalid');
  return {
    coded,
    fieldText,
    reason: (error) =>
      error instanceof ApiError ? (coded(error.code, error.params) ?? undefined) : undefined,
    message: (error, fallback) =>
      (error instanceof ApiError ? coded(error.code, error.params) : null) ?? fallback ?? generic(error),
    field: (error, field) => {
      const [first] = fieldErrorsOf(error, field);
      return first ? fieldText(first) : undefined;
    },
  };
}
