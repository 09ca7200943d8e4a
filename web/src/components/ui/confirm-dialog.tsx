/**
 * Confirmation dialog (spec §4 "Removing a user"): opened by the caller (controlled `open`),
 * it names what happens; confirming runs `onConfirm` with a loading state, and the dialog
 * closes whether the call succeeds or fails — the caller reports the outcome, e.g. in a toast.
 * Closing in any way calls `onOpenChange(false)`, so the caller can clear its selection.
 */
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, type ButtonVariant } from './button.tsx';
import { Dialog, DialogClose } from './dialog.tsx';

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  children: ReactNode;
  confirmText: string;
  /** Default: the UI kit's "Cancel". */
  cancelText?: string;
  /** `danger` (default) for deletions. */
  confirmVariant?: ButtonVariant;
  /** Runs the action; the dialog closes when it settles. */
  onConfirm: () => Promise<unknown>;
  testid: string;
}

export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  children,
  confirmText,
  cancelText,
  confirmVariant = 'danger',
  onConfirm,
  testid,
}: ConfirmDialogProps) {
  const { t } = useTranslation('ui');
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
    } catch {
      // The caller reports failures itself (its toast); the dialog only has to close.
    } finally {
      setBusy(false);
      onOpenChange(false);
    }
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!busy) onOpenChange(next);
      }}
      title={title}
      testid={testid}
      footer={
        <>
          <DialogClose>
            <Button variant="secondary" disabled={busy} testid={`${testid}-cancel`}>
              {cancelText ?? t('confirm.cancel')}
            </Button>
          </DialogClose>
          <Button
            variant={confirmVariant}
            loading={busy}
            onClick={() => void confirm()}
            testid={`${testid}-confirm`}
          >
            {confirmText}
          </Button>
        </>
      }
    >
      {children}
    </Dialog>
  );
}
