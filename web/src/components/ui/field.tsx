/**
 * Form field: a label above the control and, when set, an error message under it (spec §2
 * setup screens: "an error message string is shown under the active field"). The control is
 * linked to both (`htmlFor`, `aria-describedby`, `aria-invalid`).
 *
 * `Field` wraps any control through a render function receiving the ids to wire;
 * `TextInput` is the common case of a labelled `<input>`.
 */
import { type ComponentProps, type ReactNode, useId } from 'react';
import { cx } from './cx.ts';

export interface FieldControlProps {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
}

export interface FieldProps {
  label: string;
  error?: string | null;
  hint?: string;
  /** The label is read by screen readers but not shown (a filter row whose neighbours show none). */
  labelHidden?: boolean;
  testid?: string;
  children: (control: FieldControlProps) => ReactNode;
}

export function Field({ label, error, hint, labelHidden = false, testid = 'field', children }: FieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className="flex flex-col gap-1.5" data-testid={testid}>
      <label htmlFor={id} className={labelHidden ? 'sr-only' : 'text-sm font-medium text-ink'}>
        {label}
      </label>
      {children({ id, 'aria-describedby': describedBy, 'aria-invalid': error ? true : undefined })}
      {hint && (
        <p id={hintId} className="text-xs text-stone-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-sm text-red-700" data-testid={`${testid}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * Shared look of text-like controls (input, select, combobox), with the invalid state. The border
 * is what shows where a field is (WCAG 1.4.11 asks 3:1 against what is around it): stone-500 has
 * 4.8:1 on white and 4.6:1 on the page's stone-50 (stone-300 had 1.5:1), hover darkens it to
 * stone-600. A disabled control, exempt from the rule, keeps the light border that sets it apart.
 */
export const controlClass =
  'h-10 w-full rounded-lg border border-stone-500 bg-white px-3 text-sm text-ink placeholder:text-stone-500 hover:border-stone-600 focus-visible:border-brand-600 disabled:border-stone-300 disabled:cursor-not-allowed disabled:bg-stone-100 disabled:text-stone-500 aria-[invalid=true]:border-red-600';

export interface TextInputProps extends Omit<ComponentProps<'input'>, 'id'> {
  label: string;
  error?: string | null;
  hint?: string;
  testid?: string;
}

export function TextInput({ label, error, hint, testid = 'text-input', className, ...rest }: TextInputProps) {
  return (
    <Field label={label} error={error} hint={hint} testid={`${testid}-field`}>
      {(control) => (
        <input {...rest} {...control} data-testid={testid} className={cx(controlClass, className)} />
      )}
    </Field>
  );
}
