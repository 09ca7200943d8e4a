/**
 * The app's button, so screens never restyle raw `<button>`s. `variant` picks the emphasis,
 * `loading` shows a spinner and disables the button; `type` defaults to "button" so a button
 * inside a form submits only when asked to.
 */
import type { ComponentProps } from 'react';
import { cx } from './cx.ts';
import { Spinner } from './spinner.tsx';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';

export interface ButtonProps extends ComponentProps<'button'> {
  variant?: ButtonVariant;
  size?: 'sm' | 'md';
  loading?: boolean;
  /**
   * Let a long label wrap onto more lines (a unit name in a table cell) instead of widening what
   * holds it. A prop rather than a `className` override: two classes for one property compete.
   */
  multiline?: boolean;
  testid?: string;
}

const variantClass: Record<ButtonVariant, string> = {
  primary: 'bg-brand-600 text-white hover:bg-brand-700',
  secondary: 'border border-stone-300 bg-white text-ink hover:bg-stone-100',
  ghost: 'text-brand-700 hover:bg-brand-50',
  danger: 'bg-red-700 text-white hover:bg-red-800',
};

// A loading button keeps its colours (it is busy, not unavailable); a disabled one greys out.
const disabledClass: Record<ButtonVariant, string> = {
  primary: 'bg-stone-200 text-stone-500',
  secondary: 'border border-stone-200 bg-stone-50 text-stone-400',
  ghost: 'text-stone-400',
  danger: 'bg-stone-200 text-stone-500',
};

export function Button({
  variant = 'primary',
  size = 'md',
  loading = false,
  multiline = false,
  testid,
  type = 'button',
  className,
  disabled,
  children,
  ...rest
}: ButtonProps) {
  return (
    <button
      {...rest}
      type={type}
      data-testid={testid}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      className={cx(
        'inline-flex items-center justify-center gap-2 rounded-lg font-medium transition-colors',
        multiline
          ? `${size === 'sm' ? 'min-h-8' : 'min-h-10'} px-3 py-1 text-left text-sm`
          : `whitespace-nowrap ${size === 'sm' ? 'h-8 px-3 text-sm' : 'h-10 px-4 text-sm'}`,
        disabled ? `cursor-not-allowed ${disabledClass[variant]}` : variantClass[variant],
        loading && 'cursor-progress',
        className,
      )}
    >
      <Spinner loading={loading} size="sm" tone="current" testid={testid ? `${testid}-spinner` : undefined} />
      {children}
    </button>
  );
}
