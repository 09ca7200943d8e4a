/**
 * A choice of one among a few options shown as cards (native radio inputs in a fieldset, so
 * arrow keys move between them and screen readers announce the group), each with a title and
 * an optional description — e.g. the billing interval or the payment method.
 */
import type { ReactNode } from 'react';
import { cx } from './cx.ts';

export interface RadioCardOption<T extends string> {
  id: T;
  title: string;
  description?: ReactNode;
  testid: string;
}

export interface RadioCardsProps<T extends string> {
  legend: string;
  name: string;
  options: RadioCardOption<T>[];
  value: T;
  onChange: (value: T) => void;
  /** Cards side by side from the tablet width up (default 3). */
  columns?: 2 | 3;
  testid?: string;
}

export function RadioCards<T extends string>({
  legend,
  name,
  options,
  value,
  onChange,
  columns = 3,
  testid = 'radio-cards',
}: RadioCardsProps<T>) {
  return (
    <fieldset className="flex flex-col gap-2" data-testid={testid}>
      <legend className="mb-2 text-sm font-medium text-ink">{legend}</legend>
      <div className={cx('grid gap-2', columns === 2 ? 'sm:grid-cols-2' : 'sm:grid-cols-3')}>
        {options.map((option) => (
          <label
            key={option.id}
            className={cx(
              'flex cursor-pointer flex-col gap-1 rounded-lg border p-3 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600',
              value === option.id
                ? 'border-brand-600 bg-brand-50'
                : 'border-stone-300 bg-white hover:border-stone-400',
            )}
          >
            <span className="flex items-center gap-2 font-medium text-ink">
              <input
                type="radio"
                name={name}
                value={option.id}
                checked={value === option.id}
                onChange={() => onChange(option.id)}
                className="size-4 accent-brand-600"
                data-testid={option.testid}
              />
              {option.title}
            </span>
            {option.description && <span className="text-stone-700">{option.description}</span>}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
