/**
 * Progress steps (spec §2 "Progress steps", §3 step item): steps before `current` are done,
 * `current` is in progress, later ones are pending. Clicking an earlier step calls
 * `onStepClick(index)` only when back navigation is allowed (`allowBack`, default true); later
 * steps are never clickable. The /setup step indicator is this widget.
 *
 * `current` and the callback index are zero-based positions in `items`.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { cx } from './cx.ts';
import { Icon } from './icon.tsx';

/** Spec §3 step item. `icon` is shown inside the marker of pending and current steps. */
export interface StepItem {
  title: string;
  description?: string;
  icon?: ReactNode;
  testid: string;
}

export type StepState = 'done' | 'current' | 'pending';

export function stepState(index: number, current: number): StepState {
  if (index < current) return 'done';
  return index === current ? 'current' : 'pending';
}

export interface ProgressStepsProps {
  items: StepItem[];
  current: number;
  onStepClick?: (index: number) => void;
  allowBack?: boolean;
  testid?: string;
}

const markerClass: Record<StepState, string> = {
  done: 'border-brand-600 bg-brand-600 text-white',
  current: 'border-brand-600 bg-white text-brand-700 ring-4 ring-brand-100',
  pending: 'border-stone-300 bg-white text-stone-500',
};

export function ProgressSteps({
  items,
  current,
  onStepClick,
  allowBack = true,
  testid = 'progress-steps',
}: ProgressStepsProps) {
  const { t } = useTranslation('ui');
  return (
    <nav aria-label={t('steps.label')} data-testid={testid}>
      <ol className="flex flex-col gap-3 sm:flex-row sm:gap-0">
        {items.map((item, index) => {
          const state = stepState(index, current);
          const clickable = state === 'done' && allowBack && onStepClick !== undefined;
          const content = (
            <>
              <span
                className={cx(
                  'flex size-9 shrink-0 items-center justify-center rounded-full border-2 text-sm font-semibold',
                  markerClass[state],
                )}
              >
                {state === 'done' ? <Icon name="check" className="size-5" /> : (item.icon ?? index + 1)}
              </span>
              <span className="flex min-w-0 flex-col text-left">
                <span
                  className={cx('text-sm font-semibold', state === 'pending' ? 'text-stone-500' : 'text-ink')}
                >
                  {item.title}
                </span>
                {item.description && <span className="text-xs text-stone-600">{item.description}</span>}
                <span className="sr-only">{t(`steps.${state}`)}</span>
              </span>
            </>
          );
          return (
            <li
              key={item.testid}
              data-testid={item.testid}
              data-state={state}
              aria-current={state === 'current' ? 'step' : undefined}
              className="flex flex-1 items-center gap-3 sm:after:mx-3 sm:after:h-0.5 sm:after:flex-1 sm:after:bg-stone-200 sm:last:after:hidden"
            >
              {clickable ? (
                <button
                  type="button"
                  onClick={() => onStepClick(index)}
                  aria-label={t('steps.goBack', { step: index + 1, title: item.title })}
                  data-testid={`${item.testid}-button`}
                  className="flex items-center gap-3 rounded-lg p-1 hover:bg-brand-50"
                >
                  {content}
                </button>
              ) : (
                <div className="flex items-center gap-3 p-1">{content}</div>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
