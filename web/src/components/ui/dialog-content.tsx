/**
 * The open dialog (spec §2 Dialog) on Radix UI's Dialog primitive, which implements the WAI-ARIA
 * modal dialog pattern: focus trap, scroll lock, `aria-modal`, labelled by its title, closed by
 * the overlay, the close button and Escape. Loaded only when a dialog first opens (`dialog.tsx`):
 * Radix is ≈ 13 KiB gzipped that a screen's first render does not need (decision 0045).
 */
import { Dialog as RadixDialog } from 'radix-ui';
import { type ReactNode, type RefObject, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from './icon.tsx';

export interface DialogContentProps {
  title: string;
  description?: string;
  children?: ReactNode;
  footer?: ReactNode;
  onOpenChange: (open: boolean) => void;
  size: 'default' | 'wide';
  testid: string;
  /** Where focus returns on close: the trigger, which lives outside Radix's tree. */
  returnFocus: RefObject<HTMLElement | null>;
}

/**
 * Radix hears Escape on the document in the capture phase, before the focused control does, so
 * a combobox inside the dialog could never keep the key for its list: the whole dialog closed
 * and its input was lost. A control that announces an open popup (`aria-expanded="true"`) owns
 * that Escape; the dialog stays and the control closes its popup.
 */
function keepOpenForExpandedControl(event: KeyboardEvent) {
  const target = event.target;
  if (target instanceof Element && target.getAttribute('aria-expanded') === 'true') event.preventDefault();
}

/**
 * Toasts live outside the dialog, so Radix takes a press on a toast's close button for a click
 * outside and would close the dialog, and the input in it with it.
 */
function keepOpenForToast(event: { target: EventTarget | null; preventDefault(): void }) {
  const target = event.target;
  if (target instanceof Element && target.closest('[data-toast-region]')) event.preventDefault();
}

const TABBABLE =
  'input:not([type="hidden"]):not([disabled]), select:not([disabled]), textarea:not([disabled]), button:not([disabled]), a[href], [tabindex]:not([tabindex="-1"])';

/**
 * Opening puts focus on the dialog's first control — the first field of a form, else the first
 * action of the footer ("Abbrechen" before "Löschen") — instead of Radix's first tabbable element,
 * the close button in the title row, which a keyboard user would have to Tab past every time.
 */
function focusFirstControl(event: Event) {
  const content = event.currentTarget;
  if (!(content instanceof HTMLElement)) return;
  const first = [
    ...content.querySelectorAll<HTMLElement>(`[data-dialog-body] :is(${TABBABLE})`),
    ...content.querySelectorAll<HTMLElement>(`[data-dialog-footer] :is(${TABBABLE})`),
  ].find(
    (element) =>
      element.tabIndex >= 0 && (typeof element.checkVisibility !== 'function' || element.checkVisibility()),
  );
  if (!first) return;
  event.preventDefault();
  first.focus();
}

/** `opener` when it is still on the page and can take focus, else the main region (`#content`). */
function focusAfterClose(opener: HTMLElement | null) {
  if (opener?.isConnected && opener !== document.body) {
    opener.focus();
    if (document.activeElement === opener) return;
  }
  const main = document.getElementById('content');
  if (!main) return;
  if (!main.hasAttribute('tabindex')) main.setAttribute('tabindex', '-1');
  main.focus();
}

export function DialogContent({
  title,
  description,
  children,
  footer,
  onOpenChange,
  size,
  testid,
  returnFocus,
}: DialogContentProps) {
  const { t } = useTranslation('ui');
  // Read before Radix moves focus into the dialog (its focus scope does so in an effect): the
  // control that opened a dialog without a trigger of its own, such as a list row's "Bearbeiten".
  const [opener] = useState(() =>
    document.activeElement instanceof HTMLElement ? document.activeElement : null,
  );
  return (
    <RadixDialog.Root open onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay data-testid={`${testid}-overlay`} className="fixed inset-0 z-40 bg-ink/50" />
        <RadixDialog.Content
          data-testid={testid}
          onOpenAutoFocus={focusFirstControl}
          onEscapeKeyDown={keepOpenForExpandedControl}
          onInteractOutside={keepOpenForToast}
          onCloseAutoFocus={(event) => {
            // Radix would focus its own trigger; this dialog's trigger is outside its tree. Without
            // one, the control that opened the dialog; when that is gone too (a menu that closed, a
            // row saved away), the screen's main region — never the page's body (WCAG 2.4.3).
            event.preventDefault();
            returnFocus.current?.isConnected ? returnFocus.current.focus() : focusAfterClose(opener);
          }}
          // Without a description Radix must not point aria-describedby at a missing element.
          {...(description ? {} : { 'aria-describedby': undefined })}
          className={`fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] ${size === 'wide' ? 'max-w-4xl' : 'max-w-lg'} -translate-x-1/2 -translate-y-1/2 flex-col rounded-xl bg-white shadow-xl`}
        >
          <div className="flex items-start gap-4 border-b border-stone-200 px-5 py-4">
            <div className="min-w-0 flex-1">
              <RadixDialog.Title className="text-lg font-semibold text-ink">{title}</RadixDialog.Title>
              {description && (
                <RadixDialog.Description className="mt-1 text-sm text-stone-600">
                  {description}
                </RadixDialog.Description>
              )}
            </div>
            <RadixDialog.Close
              aria-label={t('close')}
              data-testid={`${testid}-close`}
              className="rounded-md p-1.5 text-stone-500 hover:bg-stone-100 hover:text-ink"
            >
              <Icon name="close" className="size-5" />
            </RadixDialog.Close>
          </div>
          <div data-dialog-body className="overflow-y-auto px-5 py-4 text-sm text-ink">
            {children}
          </div>
          {footer && (
            <div
              data-dialog-footer
              className="flex flex-wrap justify-end gap-2 border-t border-stone-200 px-5 py-3"
            >
              {footer}
            </div>
          )}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
