/**
 * The app's temporary toast list (spec §2 "Toasts"): `const { toast } = useToast();
 * toast({ title, description, type })` shows a toast that the list removes after 5 s
 * (`TOAST_LIST_LIFETIME_MS`; the countdown pauses while the toast is hovered). Toasts are
 * rendered in a polite ARIA live region that exists before any toast, so screen readers
 * announce each new one.
 *
 * Where they show: 5 rem above the bottom edge (and a phone's home indicator), so the buttons at
 * the bottom of a dialog and a table's paging stay uncovered; on wide screens at the left of
 * the content, beside the navigation. At the right they covered the very controls people had
 * just pressed: the units table's − and +, a dialog's right-aligned buttons, the page buttons.
 * The region lets clicks through; only a toast itself takes them.
 */
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Toast, type ToastType } from './toast.tsx';

export const TOAST_LIST_LIFETIME_MS = 5000;

export interface ToastInput {
  title: string;
  description?: string;
  type?: ToastType;
  testid?: string;
}

interface ToastApi {
  /** Shows a toast; returns its id for `dismiss`. */
  toast: (input: ToastInput) => string;
  dismiss: (id: string) => void;
}

const ToastContext = createContext<ToastApi | null>(null);

let nextId = 0;

export function ToastProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation('ui');
  const [toasts, setToasts] = useState<Array<ToastInput & { id: string }>>([]);

  const dismiss = useCallback((id: string) => setToasts((list) => list.filter((item) => item.id !== id)), []);
  const toast = useCallback((input: ToastInput) => {
    nextId += 1;
    const id = `toast-${nextId}`;
    setToasts((list) => [...list, { ...input, id }]);
    return id;
  }, []);
  const api = useMemo(() => ({ toast, dismiss }), [toast, dismiss]);

  return (
    <ToastContext value={api}>
      {children}
      <section
        aria-label={t('toast.region')}
        data-testid="toast-region"
        data-toast-region
        className="pointer-events-none fixed inset-x-0 bottom-[calc(5rem+env(safe-area-inset-bottom))] z-[60] flex justify-center px-4 sm:right-auto sm:justify-start md:left-60"
      >
        <ol
          aria-live="polite"
          data-testid="toast-list"
          className="flex w-full max-w-sm flex-col gap-2 sm:w-80"
        >
          {toasts.map(({ id, testid, ...rest }) => (
            <li key={id}>
              <Toast
                {...rest}
                testid={testid ?? 'app-toast'}
                duration={TOAST_LIST_LIFETIME_MS}
                onClose={() => dismiss(id)}
              />
            </li>
          ))}
        </ol>
      </section>
    </ToastContext>
  );
}

/** The toast list of the nearest `ToastProvider`; throws outside one (a wiring mistake). */
export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToast() must be used inside <ToastProvider>');
  return api;
}
