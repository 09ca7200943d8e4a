/**
 * The app's one form layer: react-hook-form validated by the contracts' zod schemas.
 *
 * - `useContractForm(schema, …)` is `useForm` with a resolver over `schema`; by default a field
 *   shows its message once it was left or the form was submitted, never while first typed in.
 * - Every zod issue is worded here, in the user's language, from its code and limit ("Höchstens
 *   120 Zeichen", "Mindestens 12 °C"); a contract's own English message never reaches a screen.
 *   Rules that carry a problem code (`params: { code }`) read like the server's answer.
 * - `Form`, `FormTextInput`, `FormNumberInput`, `FormField` and `useFormControl` wire label, hint, error message,
 *   `aria-invalid` and `aria-describedby` through `Field`; text and number inputs get the
 *   schema's limits as HTML attributes (maxLength, min, max, step).
 * - `applyServerErrors` puts a problem+json answer's `errors[]` under the fields they name and
 *   the rest into the form's own error (`FormError`).
 */
import { toNestErrors, validateFieldsNatively } from '@hookform/resolvers';
import type { ComponentProps, ReactNode } from 'react';
import {
  type Control,
  type FieldError,
  type FieldValues,
  FormProvider,
  get,
  type Path,
  type PathValue,
  type RegisterOptions,
  type Resolver,
  type SubmitErrorHandler,
  type SubmitHandler,
  type UseFormProps,
  type UseFormReturn,
  useController,
  useForm,
  useFormContext,
  useFormState,
  useWatch,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { ApiError, type ProblemParams } from '../../lib/api-client.ts';
import { parseDecimal } from '../../lib/decimal.ts';
import { type ProblemMessages, useProblemMessage } from '../../lib/problem-message.ts';
import { cx } from './cx.ts';
import { controlClass, Field, type FieldControlProps } from './field.tsx';

/** A zod 4 issue as the resolver sees it (code, path and the limit it broke). */
export type Issue = z.core.$ZodIssue;

/** A form's own wording of an issue (e.g. "16 hex digits" for a pattern); undefined keeps the layer's. */
export type IssueWording = (issue: Issue) => string | undefined;

/** Any zod schema a form validates with; its input is the form's values. */
type FormSchema = z.ZodType<unknown, FieldValues>;

export interface ContractFormOptions<S extends FormSchema>
  extends Omit<UseFormProps<z.input<S>, unknown, z.output<S>>, 'resolver'> {
  /** Words issues the generic texts say too vaguely (patterns, a field's own sentence). */
  wording?: IssueWording;
  /** Unit shown with a numeric limit, by field name or its last path segment: `{ temperature: '°C' }`. */
  units?: Readonly<Record<string, string>>;
}

/** Numbers in the UI language: "0,5" in German. */
const numberFormat = (language: string) => new Intl.NumberFormat(language, { maximumFractionDigits: 2 });

/**
 * The text of one issue in the user's language; `units` names the unit of a field's numeric
 * limit (by dotted path or last segment), `wording` lets a form say it its own way first.
 */
export function useIssueText(units: Readonly<Record<string, string>> = {}, wording?: IssueWording) {
  const { t, i18n } = useTranslation('ui');
  const problems = useProblemMessage();
  const format = numberFormat(i18n.language);
  return (issue: Issue): string => {
    const own = wording?.(issue);
    if (own) return own;
    const path = issue.path.map(String);
    const unit = units[path.join('.')] ?? units[path.at(-1) ?? ''];
    const limit = (value: number | bigint) => `${format.format(value)}${unit ? ` ${unit}` : ''}`;
    switch (issue.code) {
      case 'custom': {
        const params = issue.params as { code?: string; params?: ProblemParams } | undefined;
        return params?.code
          ? // Worded by its code (and the limit it names), as the server's answer would be; the
            // rule's English text is not read.
            problems.fieldText({
              field: path.join('.'),
              message: '',
              code: params.code,
              params: params.params,
            })
          : t('form.invalid');
      }
      case 'too_small':
        if (issue.origin === 'string') {
          return Number(issue.minimum) <= 1
            ? t('form.required')
            : t('form.minLength', { count: Number(issue.minimum) });
        }
        if (issue.origin === 'array' || issue.origin === 'set')
          return t('form.minItems', { count: Number(issue.minimum) });
        return t(issue.inclusive === false ? 'form.above' : 'form.min', { limit: limit(issue.minimum) });
      case 'too_big':
        if (issue.origin === 'string') return t('form.maxLength', { count: Number(issue.maximum) });
        if (issue.origin === 'array' || issue.origin === 'set')
          return t('form.maxItems', { count: Number(issue.maximum) });
        return t(issue.inclusive === false ? 'form.below' : 'form.max', { limit: limit(issue.maximum) });
      case 'not_multiple_of':
        return t('form.step', { step: limit(Number(issue.divisor)) });
      case 'invalid_type': {
        if (issue.expected === 'int') return t('form.integer');
        const received = (issue as { received?: string }).received;
        if (received === 'undefined' || received === 'null') return t('form.required');
        return issue.expected === 'number' ? t('form.number') : t('form.invalid');
      }
      case 'invalid_format':
        if (issue.format === 'email') return t('form.email');
        if (issue.format === 'datetime' || issue.format === 'date') return t('form.dateTime');
        return t('form.invalid');
      case 'invalid_value':
        return t('form.choose');
      default:
        return t('form.invalid');
    }
  };
}

/**
 * A react-hook-form resolver over `schema` that words every issue with `word` (zodResolver would
 * keep each issue's own message, and a contract's English text outranks any zod error map).
 * The first issue of a field is its message.
 */
export function contractResolver<S extends FormSchema>(
  schema: S,
  word: (issue: Issue) => string,
): Resolver<z.input<S>, unknown, z.output<S>> {
  return async (values, _context, options) => {
    const result = await schema.safeParseAsync(values);
    if (result.success) {
      if (options.shouldUseNativeValidation) validateFieldsNatively({}, options);
      return { values: result.data, errors: {} };
    }
    const errors: Record<string, FieldError> = {};
    for (const issue of result.error.issues) {
      // An issue of the whole form (no path) is the form's own error.
      const name = issue.path.join('.') || 'root.schema';
      errors[name] ??= { type: issue.code, message: word(issue) };
    }
    return { values: {}, errors: toNestErrors(errors, options) };
  };
}

/** Schemas of the forms made here, so inputs can read their limits. */
const schemas = new WeakMap<object, FormSchema>();

/**
 * `useForm` validated by `schema` (a contract's, or a form's own built from the contracts'),
 * first when a field is left or the form submitted, then on every change.
 */
export function useContractForm<S extends FormSchema>(schema: S, options: ContractFormOptions<S> = {}) {
  const { wording, units, ...formOptions } = options;
  const word = useIssueText(units, wording);
  const form = useForm<z.input<S>, unknown, z.output<S>>({
    mode: 'onTouched',
    ...formOptions,
    resolver: contractResolver(schema, word),
  });
  schemas.set(form.control, schema);
  return form;
}

type AnyDef = {
  type: string;
  innerType?: z.core.$ZodType;
  in?: z.core.$ZodType;
  out?: z.core.$ZodType;
  shape?: Record<string, z.core.$ZodType>;
  element?: z.core.$ZodType;
  options?: z.core.$ZodType[];
  checks?: Array<{ _zod: { def: unknown } }>;
};

/**
 * The schemas the value at `path` (`switchPoints.2.hour`) passes through: optional, nullable and
 * default layers unwrapped, both sides of a pipe (a form's own fields, then the contract's),
 * every option of a union.
 */
function fieldSchemas(schema: z.core.$ZodType | undefined, path: readonly string[]): z.core.$ZodType[] {
  if (!schema) return [];
  const def = schema._zod.def as AnyDef;
  if (def.innerType) return fieldSchemas(def.innerType, path);
  if (def.type === 'pipe') return [...fieldSchemas(def.in, path), ...fieldSchemas(def.out, path)];
  if (def.type === 'union') return (def.options ?? []).flatMap((option) => fieldSchemas(option, path));
  const [segment, ...rest] = path;
  if (segment === undefined) return [schema];
  if (def.type === 'object') return fieldSchemas(def.shape?.[segment], rest);
  if (def.type === 'array') return fieldSchemas(def.element, rest);
  return [];
}

export interface InputLimits {
  maxLength?: number;
  min?: number;
  max?: number;
  step?: number;
}

const lower = (a: number | undefined, b: number | undefined) =>
  a === undefined ? b : b === undefined ? a : Math.min(a, b);
const higher = (a: number | undefined, b: number) => (a === undefined ? b : Math.max(a, b));

/** The HTML attributes of a field's limits in `schema`: maxLength of text, min/max/step of numbers. */
export function inputLimits(schema: FormSchema | undefined, path: string): InputLimits {
  const limits: InputLimits = {};
  for (const field of fieldSchemas(schema, path.split('.'))) {
    const def = field._zod.def as AnyDef;
    for (const check of def.checks ?? []) {
      const c = check._zod.def as {
        check: string;
        value?: unknown;
        maximum?: number;
        inclusive?: boolean;
        format?: string;
      };
      // Several checks of one kind (a contract's limit narrowed by a form): the strictest holds.
      if (def.type === 'string' && c.check === 'max_length')
        limits.maxLength = lower(limits.maxLength, c.maximum);
      if (def.type !== 'number') continue;
      if (c.check === 'greater_than' && c.inclusive) limits.min = higher(limits.min, Number(c.value));
      if (c.check === 'less_than' && c.inclusive) limits.max = lower(limits.max, Number(c.value));
      if (c.check === 'multiple_of') limits.step ??= Number(c.value);
      if (c.check === 'number_format' && c.format?.includes('int')) limits.step ??= 1;
    }
  }
  return limits;
}

/**
 * The message a field shows: set once it was left, the form submitted, or the server named it.
 * For a field array's own message (too many rows) ask for `<name>.root`.
 */
export function useFieldError(name: string, control?: Control): string | undefined {
  const { errors } = useFormState({ name, exact: true, control });
  return (get(errors, name) as FieldError | undefined)?.message;
}

export type FormProps<TIn extends FieldValues, TOut> = Omit<ComponentProps<'form'>, 'onSubmit'> & {
  form: UseFormReturn<TIn, unknown, TOut>;
  /** Runs with the schema's output once every field is valid. */
  onSubmit: SubmitHandler<TOut>;
  /** Runs instead when a field is not. */
  onInvalid?: SubmitErrorHandler<TIn>;
  testid?: string;
};

/**
 * The `<form>` of a contract form: the browser's own bubbles are off (`noValidate`) so the
 * layer's messages show under the fields; the fields below reach the form through context.
 */
export function Form<TIn extends FieldValues, TOut>({
  form,
  onSubmit,
  onInvalid,
  testid,
  children,
  ...rest
}: FormProps<TIn, TOut>) {
  return (
    <FormProvider {...form}>
      <form
        noValidate
        {...rest}
        data-testid={testid}
        onSubmit={(event) => void form.handleSubmit(onSubmit, onInvalid)(event)}
      >
        {children}
      </form>
    </FormProvider>
  );
}

export interface FormFieldProps {
  name: string;
  label: string;
  hint?: string;
  testid?: string;
  /** Renders the control with the ids and states to wire (`id`, `aria-describedby`, `aria-invalid`). */
  children: (control: FieldControlProps) => ReactNode;
}

/** `Field` for the form field `name`: its label, hint and message linked to the control. */
export function FormField({ name, label, hint, testid, children }: FormFieldProps) {
  const error = useFieldError(name);
  return (
    <Field label={label} hint={hint} error={error} testid={testid}>
      {children}
    </Field>
  );
}

export interface FormTextInputProps extends Omit<ComponentProps<'input'>, 'id' | 'name'> {
  name: string;
  label: string;
  hint?: string;
  testid?: string;
  /** react-hook-form's options, e.g. `deps` to check another field again when this one changes. */
  rules?: RegisterOptions;
}

/**
 * A labelled `<input>` of the form field `name`, with the schema's limits as attributes
 * (props given here win). Test ids as `TextInput`'s: `testid`, `${testid}-field`(-error).
 */
export function FormTextInput({
  name,
  label,
  hint,
  testid = 'text-input',
  rules,
  className,
  ref,
  ...rest
}: FormTextInputProps) {
  const { register, control } = useFormContext();
  const limits = inputLimits(schemas.get(control), name);
  const registration = register(name, rules);
  // The caller's ref (to focus the input at once) beside react-hook-form's own.
  const refs = (element: HTMLInputElement | null) => {
    registration.ref(element);
    if (typeof ref === 'function') ref(element);
    else if (ref) ref.current = element;
  };
  return (
    <FormField name={name} label={label} hint={hint} testid={`${testid}-field`}>
      {(wiring) => (
        <input
          {...limits}
          {...rest}
          {...registration}
          ref={refs}
          {...wiring}
          data-testid={testid}
          className={cx(controlClass, className)}
        />
      )}
    </FormField>
  );
}

export interface FormNumberInputProps extends Omit<FormTextInputProps, 'type'> {
  /** An empty field means none (null), instead of a number still to enter. */
  optional?: boolean;
}

/**
 * A number `<input>` of the form field `name`: the typed text as a number ("21,5" too), an
 * empty one as NaN ("please enter a number") or, when `optional`, as null.
 */
export function FormNumberInput({ optional = false, rules, ...props }: FormNumberInputProps) {
  return (
    <FormTextInput
      type="number"
      {...props}
      rules={{ setValueAs: optional ? numberOrNull : numberValue, ...rules }}
    />
  );
}

/**
 * A decimal `<input>` for figures people write with thousands (a meter reading in kWh, an area):
 * typed as a reader of the UI language writes them ("38.450,5" in German, "38,450.5" in English;
 * `parseDecimal`), and said back under the field as read ("Gelesen als 38.450,5") before anything
 * is saved. An empty field is NaN ("please enter a number") or, when `optional`, null.
 */
export function FormDecimalInput({
  optional = false,
  rules,
  name,
  testid = 'decimal-input',
  ...props
}: FormNumberInputProps) {
  const { t, i18n } = useTranslation('ui');
  const { control } = useFormContext();
  const value: unknown = useWatch({ control, name });
  const read =
    typeof value === 'number' && Number.isFinite(value)
      ? new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 6 }).format(value)
      : null;
  const setValueAs = (typed: unknown) => {
    if (typeof typed === 'number') return typed;
    const text = String(typed ?? '').trim();
    if (text === '') return optional ? null : Number.NaN;
    return parseDecimal(text, i18n.language);
  };
  return (
    <div className="flex flex-col gap-1">
      <FormTextInput
        type="text"
        inputMode="decimal"
        autoComplete="off"
        {...props}
        name={name}
        testid={testid}
        rules={{ setValueAs, ...rules }}
      />
      <p className="text-xs text-stone-600" aria-live="polite" data-testid={`${testid}-read`}>
        {read === null ? '' : t('form.readAs', { value: read })}
      </p>
    </div>
  );
}

/**
 * A controlled form field for widgets without a DOM input of their own (Combobox, Select):
 * its value, `onChange`, `onBlur` and the message to show. Outside `Form` pass the form's `control`.
 */
export function useFormControl<
  TValues extends FieldValues = FieldValues,
  TName extends Path<TValues> = Path<TValues>,
  TOut = TValues,
>(name: TName, control?: Control<TValues, unknown, TOut>) {
  const { field } = useController<TValues, TName, TOut>({ name, control });
  const error = useFieldError(name, control as Control | undefined);
  return {
    value: field.value,
    onChange: (value: PathValue<TValues, TName>) => field.onChange(value),
    onBlur: field.onBlur,
    error,
  };
}

/** The form's own error (what the server refused beyond its fields), as an alert; nothing without one. */
export function FormError({ testid, className }: { testid: string; className?: string }) {
  const { errors } = useFormState();
  const message = (errors.root?.server as FieldError | undefined)?.message;
  if (!message) return null;
  return (
    <p role="alert" className={cx('text-sm text-red-700', className)} data-testid={testid}>
      {message}
    </p>
  );
}

export interface ServerErrorOptions {
  /** Text of a failed call without a known code; default a generic one for its status. */
  fallback?: string;
  /** Set the form's own error (`FormError`) for what no field takes. Default true. */
  root?: boolean;
  /** The field that shows what no field takes, instead of the form's own error (a one-field form). */
  restOn?: string;
  /** Server field name → form field, where they differ. */
  rename?: Readonly<Record<string, string>>;
}

/**
 * Shows a failed call's field errors under the form's fields — the server names them `name`,
 * `body.name` or `switchPoints.2.hour` — translated by their codes; the rest (or the whole
 * problem, when it names no field) becomes the form's own error. True when a field took one.
 */
export function applyServerErrors<T extends FieldValues>(
  form: Pick<UseFormReturn<T>, 'setError' | 'getValues'>,
  error: unknown,
  problems: ProblemMessages,
  { fallback, root = true, restOn, rename = {} }: ServerErrorOptions = {},
): boolean {
  const fieldErrors = error instanceof ApiError ? error.errors : [];
  const values = form.getValues() as Record<string, unknown>;
  const rest: string[] = [];
  let placed = false;
  for (const fieldError of fieldErrors) {
    const stripped = fieldError.field.replace(/^(body|query|params)\./, '');
    const name = rename[stripped] ?? stripped;
    const text = problems.fieldText(fieldError);
    if ((name.split('.')[0] as string) in values) {
      form.setError(name as Path<T>, { type: 'server', message: text });
      placed = true;
    } else rest.push(text);
  }
  if ((root || restOn) && (rest.length > 0 || fieldErrors.length === 0)) {
    const message = rest.length > 0 ? rest.join(' ') : problems.message(error, fallback);
    form.setError((restOn ?? 'root.server') as Path<T>, { type: 'server', message });
    return restOn !== undefined || placed;
  }
  return placed;
}

/** `setValueAs` of a number input: '' → null, "21,5" → 21.5, anything else → NaN (refused as "not a number"). */
export function numberOrNull(value: unknown): number | null {
  if (typeof value === 'number') return value;
  const text = String(value ?? '').trim();
  return text === '' ? null : Number(text.replace(',', '.'));
}

/** `setValueAs` of a required number input: '' and words → NaN ("please enter a number"). */
export function numberValue(value: unknown): number {
  return numberOrNull(value) ?? Number.NaN;
}
