/**
 * A labelled checkbox (with an optional hint below the label), and a list of them choosing ids
 * out of a set — the buildings a token or a device profile applies to. Works with
 * react-hook-form's `register` (a single box) or a controlled value (`CheckboxList`).
 */
import type { InputHTMLAttributes, Ref } from 'react';

export interface CheckboxProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  hint?: string;
  testid: string;
  ref?: Ref<HTMLInputElement>;
}

export function Checkbox({ label, hint, testid, ...input }: CheckboxProps) {
  return (
    <label className="flex items-start gap-2 text-sm">
      <input
        type="checkbox"
        {...input}
        data-testid={testid}
        className="mt-0.5 size-4 shrink-0 accent-brand-600"
      />
      <span>
        <span className="font-medium">{label}</span>
        {hint && <span className="block text-xs text-stone-600">{hint}</span>}
      </span>
    </label>
  );
}

/** One box per item; `value` holds the ids checked. Test ids `${testid}-${id}`. */
export function CheckboxList({
  items,
  value,
  onChange,
  testid,
}: {
  items: { id: string; label: string }[];
  value: readonly string[] | undefined;
  onChange: (ids: string[]) => void;
  testid: string;
}) {
  const checked = value ?? [];
  return (
    <>
      {items.map((item) => (
        <Checkbox
          key={item.id}
          label={item.label}
          checked={checked.includes(item.id)}
          onChange={(event) =>
            onChange(event.target.checked ? [...checked, item.id] : checked.filter((id) => id !== item.id))
          }
          testid={`${testid}-${item.id}`}
        />
      ))}
    </>
  );
}
