/**
 * Loading spinner (spec §2): rendered only while `loading` is true, announced as a status
 * with the translated "loading" text (or `label`).
 */
import { useTranslation } from 'react-i18next';
import { cx } from './cx.ts';

export interface SpinnerProps {
  loading: boolean;
  label?: string;
  size?: 'sm' | 'md' | 'lg';
  /** `current` takes the surrounding text colour (inside buttons). */
  tone?: 'brand' | 'current';
  testid?: string;
}

const sizeClass = { sm: 'size-4 border-2', md: 'size-6 border-2', lg: 'size-10 border-4' } as const;

export function Spinner({ loading, label, size = 'md', tone = 'brand', testid = 'spinner' }: SpinnerProps) {
  const { t } = useTranslation('ui');
  if (!loading) return null;
  return (
    <span role="status" data-testid={testid} className="inline-flex items-center justify-center">
      <span
        aria-hidden="true"
        className={cx(
          'animate-spin rounded-full motion-reduce:animate-[spin_2s_linear_infinite]',
          tone === 'brand' ? 'border-brand-200 border-t-brand-600' : 'border-current/30 border-t-current',
          sizeClass[size],
        )}
      />
      <span className="sr-only">{label ?? t('loading')}</span>
    </span>
  );
}
