/**
 * Select (spec §3 select option `{id, value, testid}`): `id` is what `onChange` reports and
 * `value` is the text shown. A native `<select>`, so keyboard, screen readers and phones get
 * their platform behaviour for free.
 */
import type { ComponentProps } from 'react';
import { cx } from './cx.ts';
import { controlClass } from './field.tsx';
import { Icon } from './icon.tsx';

export interface SelectOption {
  id: string;
  value: string;
  testid: string;
}

export interface SelectProps extends Omit<ComponentProps<'select'>, 'value' | 'onChange' | 'children'> {
  options: SelectOption[];
  value: string;
  onChange: (id: string) => void;
  testid?: string;
}

export function Select({ options, value, onChange, testid = 'select', className, ...rest }: SelectProps) {
  return (
    <div className={cx('relative', className)}>
      <select
        {...rest}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        data-testid={testid}
        className={cx(controlClass, 'appearance-none pr-9')}
      >
        {options.map((option) => (
          <option key={option.id} value={option.id} data-testid={option.testid}>
            {option.value}
          </option>
        ))}
      </select>
      <span className="pointer-events-none absolute inset-y-0 right-3 flex items-center text-stone-500">
        <Icon name="chevronDown" />
      </span>
    </div>
  );
}
