/**
 * Search input (spec §2): a `type="search"` field with a magnifier icon; the placeholder
 * defaults to 'Suchen...' (translated). The label is visually hidden but read out.
 */
import type { ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import { cx } from './cx.ts';
import { controlClass } from './field.tsx';
import { Icon } from './icon.tsx';

export interface SearchInputProps extends Omit<ComponentProps<'input'>, 'type' | 'onChange'> {
  value: string;
  onChange: (value: string) => void;
  label?: string;
  testid?: string;
}

export function SearchInput({
  value,
  onChange,
  label,
  placeholder,
  testid = 'search-input',
  className,
  ...rest
}: SearchInputProps) {
  const { t } = useTranslation('ui');
  return (
    <div className={cx('relative', className)}>
      <span className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-stone-500">
        <Icon name="search" />
      </span>
      <input
        {...rest}
        type="search"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-label={label ?? t('search.label')}
        placeholder={placeholder ?? t('search.placeholder')}
        data-testid={testid}
        className={cx(controlClass, 'pl-9')}
      />
    </div>
  );
}
