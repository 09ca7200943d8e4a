/**
 * How a commit that cannot go ahead is answered (decision 0063): problem+json whose `errors`
 * name every problem found (`rows.<row>.<field>`, `file` for the file as a whole) with its
 * code and params — the row among them — and an English sentence for API users and logs.
 */
import type { ImportProblem } from '@heizplan/contracts/imports';
import type { ProblemCode } from '@heizplan/contracts/problem-codes';
import { type FieldError, HttpError } from '../../http/errors.ts';
import type { ImportProblems } from './import-check.ts';

const ENGLISH: Partial<Record<ProblemCode, (p: Record<string, string | number>) => string>> = {
  import_licences_short: (p) => `The file holds ${p.needed} devices but only ${p.free} licences are free.`,
  import_field_unmapped: () => 'A required field has neither a column nor a default.',
  import_column_missing: (p) => `The file has no column "${p.column}".`,
  import_value_required: () => 'This field is required.',
  import_text_invalid: () => 'The text contains NUL characters or unpaired surrogates.',
  import_text_too_long: (p) => `At most ${p.max} characters.`,
  import_eui_invalid: (p) => `"${p.value}" is not 16 hex digits.`,
  import_app_key_invalid: () => 'An AppKey has exactly 32 hex digits.',
  import_model_unknown: (p) => `Unknown device model "${p.value}".`,
  import_number_invalid: (p) => `"${p.value}" is not a number.`,
  import_building_unknown: (p) => `No building named "${p.name}".`,
  import_group_unknown: (p) => `No group named "${p.name}".`,
  import_unit_unknown: (p) => `No unit named "${p.name}".`,
  import_floor_unknown: (p) => `The building "${p.building}" has no floor "${p.floor}".`,
  import_floor_without_building: (p) => `The floor "${p.floor}" needs a building.`,
  import_duplicate: (p) => `"${p.value}" is already on row ${p.row} of the file.`,
  import_device_exists: (p) => `The device ${p.id} is already registered in this company.`,
  import_device_taken: (p) =>
    `The device ${p.id} is already registered; a DevEUI can belong to one company only.`,
  unit_name_taken: (p) => `A unit named "${p.name}" already exists in this company.`,
  wall_control_order: () => 'The minimum must not be above the maximum.',
  out_of_range: (p) => `Above the company's temperature range (at most ${p.max} °C).`,
  below_range: (p) => `Below the company's temperature range (at least ${p.min} °C).`,
};

/** `problem` as a field error: `rows.12.devEui` with the row among the params. */
export function fieldErrorOf(problem: ImportProblem): FieldError {
  const params = problem.params ?? {};
  const word = ENGLISH[problem.code as ProblemCode];
  return {
    field: problem.row === null ? 'file' : `rows.${problem.row}.${problem.field ?? 'file'}`,
    message: word ? word(params) : problem.code,
    code: problem.code as ProblemCode,
    params: problem.row === null ? params : { ...params, row: problem.row },
  };
}

/**
 * Nothing when `problems` is empty; else the refusal: 409 `import_licences_short` when that is
 * the only problem, 400 `import_has_problems` (params count) otherwise. During the write itself
 * (`changed`), 409 `import_conflict`: the data changed since the check.
 * @throws HttpError
 */
export function refuseProblems(problems: ImportProblems, changed = false): void {
  if (problems.count === 0) return;
  const errors = problems.sorted().map(fieldErrorOf);
  const [only] = problems.list;
  if (changed)
    throw new HttpError(409, 'Conflict', 'Data changed while importing; nothing was imported.', errors, {
      code: 'import_conflict',
    });
  if (problems.count === 1 && only?.code === 'import_licences_short')
    throw new HttpError(409, 'Conflict', errors[0]?.message, errors, {
      code: 'import_licences_short',
      params: only.params ?? {},
    });
  throw new HttpError(
    400,
    'Bad Request',
    `Nothing was imported: the file has ${problems.count} problems.`,
    errors,
    { code: 'import_has_problems', params: { count: problems.count } },
  );
}

/**
 * `error` as the commit answers it: a unique violation (SQLSTATE 23505, raw or wrapped by
 * Drizzle) means another company registered one of the DevEUIs after the check — the lock held
 * is this company's — so 409 `import_conflict`; anything else unchanged.
 */
export function commitError(error: unknown): unknown {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  if (e?.code !== '23505' && e?.cause?.code !== '23505') return error;
  return new HttpError(409, 'Conflict', 'Data changed while importing; nothing was imported.', undefined, {
    code: 'import_conflict',
  });
}
