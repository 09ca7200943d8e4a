/**
 * Dialog (spec §2): the trigger toggles it open; while open the page does not scroll (restored
 * on close); the overlay, the close button and Escape close it; focus stays inside and returns
 * to the trigger afterwards. Built on Radix UI's Dialog primitive, which implements the WAI-ARIA
 * modal dialog pattern (focus trap, scroll lock, `aria-modal`, labelled by the title).
 *
 * Works controlled (`open` + `onOpenChange`) or uncontrolled (`defaultOpen`).
 */
import { Dialog as RadixDialog } from 'radix-ui';
import type { ReactElement, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from './icon.tsx';

export interface DialogProps {
  title: string;
  description?: string;
  /** An element (usually a `Button`) that opens the dialog. */
  trigger?: ReactElement;
  children?: ReactNode;
  /** Actions row at the bottom (confirm / cancel buttons). */
  footer?: ReactNode;
  open?: boolean;
  defaultOpen?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** `wide` for content that needs room, such as a chart; default fits a form. */
  size?: 'default' | 'wide';
  testid?: string;
}

export function Dialog({
  title,
  description,
  trigger,
  children,
  footer,
  open,
  defaultOpen,
  onOpenChange,
  size = 'default',
  testid = 'dialog',
}: DialogProps) {
  const { t } = useTranslation('ui');
  return (
    <RadixDialog.Root open={open} defaultOpen={defaultOpen} onOpenChange={onOpenChange}>
      {trigger && <RadixDialog.Trigger asChild>{trigger}</RadixDialog.Trigger>}
      <RadixDialog.Portal>
        <RadixDialog.Overlay data-testid={`${testid}-overlay`} className="fixed inset-0 z-40 bg-ink/50" />
        <RadixDialog.Content
          data-testid={testid}
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
          <div className="overflow-y-auto px-5 py-4 text-sm text-ink">{children}</div>
          {footer && (
            <div className="flex flex-wrap justify-end gap-2 border-t border-stone-200 px-5 py-3">
              {footer}
            </div>
          )}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/** Closes the surrounding dialog when the wrapped element (a cancel button) is clicked. */
export function DialogClose({ children }: { children: ReactElement }) {
  return <RadixDialog.Close asChild>{children}</RadixDialog.Close>;
}
