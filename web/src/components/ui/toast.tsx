/**
 * One toast (spec §2 "Toasts", §3): title, description, type (info | warning | error |
 * success, default info), duration in ms (default 3000), testid. A progress bar shrinks in
 * 100 ms ticks; hovering (or focusing) the toast pauses the countdown and leaving resumes it;
 * at zero, or at once when the close button is pressed, the toast disappears and `onClose`
 * runs. Toasts are shown through `ToastProvider`'s live region (toast-provider.tsx).
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cx } from './cx.ts';
import { Icon } from './icon.tsx';

export type ToastType = 'info' | 'warning' | 'error' | 'success';

export const TOAST_DEFAULT_DURATION_MS = 3000;
/** The progress bar advances in steps of this many ms (spec §2). */
export const TOAST_TICK_MS = 100;

export interface ToastProps {
  title: string;
  description?: string;
  type?: ToastType;
  duration?: number;
  testid?: string;
  onClose?: () => void;
}

const typeStyle: Record<ToastType, { accent: string; icon: string; bar: string }> = {
  info: { accent: 'border-l-sky-600', icon: 'text-sky-700', bar: 'bg-sky-600' },
  warning: { accent: 'border-l-amber-500', icon: 'text-amber-700', bar: 'bg-amber-500' },
  error: { accent: 'border-l-red-600', icon: 'text-red-700', bar: 'bg-red-600' },
  success: { accent: 'border-l-emerald-600', icon: 'text-emerald-700', bar: 'bg-emerald-600' },
};

export function Toast({
  title,
  description,
  type = 'info',
  duration = TOAST_DEFAULT_DURATION_MS,
  testid = 'toast',
  onClose,
}: ToastProps) {
  const { t } = useTranslation('ui');
  const [remaining, setRemaining] = useState(duration);
  const [paused, setPaused] = useState(false);
  const [open, setOpen] = useState(true);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  const close = () => {
    setOpen(false);
    onCloseRef.current?.();
  };

  useEffect(() => {
    if (paused || !open) return;
    const timer = setInterval(() => setRemaining((ms) => Math.max(0, ms - TOAST_TICK_MS)), TOAST_TICK_MS);
    return () => clearInterval(timer);
  }, [paused, open]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: closes once, when the countdown reaches zero
  useEffect(() => {
    if (remaining === 0) close();
  }, [remaining]);

  if (!open) return null;
  const style = typeStyle[type];
  return (
    // Pausing on hover/focus keeps the message readable (WCAG 2.2.1 timing adjustable).
    // biome-ignore lint/a11y/noStaticElementInteractions: the pause is a courtesy; the close button is the control
    <div
      data-testid={testid}
      data-type={type}
      data-paused={paused}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
      className={cx(
        'pointer-events-auto relative flex w-full flex-col overflow-hidden rounded-lg border border-l-4 border-stone-200 bg-white shadow-lg',
        style.accent,
      )}
    >
      <div className="flex flex-1 items-start gap-3 p-3 pr-2">
        <span className={style.icon}>
          <Icon name={type} className="mt-0.5 size-5" />
        </span>
        <div className="min-w-0 flex-1">
          <p className="text-sm font-semibold text-ink" data-testid={`${testid}-title`}>
            <span className="sr-only">{t(`toast.types.${type}`)}: </span>
            {title}
          </p>
          {description && <p className="mt-0.5 text-sm text-stone-600">{description}</p>}
        </div>
        <button
          type="button"
          onClick={close}
          aria-label={t('close')}
          data-testid={`${testid}-close`}
          className="rounded-md p-1 text-stone-500 hover:bg-stone-100 hover:text-ink"
        >
          <Icon name="close" />
        </button>
      </div>
      <div className="h-1 bg-stone-100" aria-hidden="true">
        <div
          data-testid={`${testid}-progress`}
          className={cx('h-full transition-[width] duration-100 ease-linear', style.bar)}
          style={{ width: `${(remaining / duration) * 100}%` }}
        />
      </div>
    </div>
  );
}
