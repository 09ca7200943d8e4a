/**
 * Delete confirmation for a registry row (device or gateway): a small danger button opens a
 * dialog naming what goes; confirming calls `onConfirm`, and the dialog closes whether the call
 * succeeds or fails (spec §4, as for removing a user) — the caller reports the outcome in a toast.
 */
import { useState } from 'react';
import { Button } from './ui/button.tsx';
import { Dialog, DialogClose } from './ui/dialog.tsx';

export interface ConfirmDeleteDialogProps {
  /** Accessible name of the trigger, e.g. "Delete device 70b3…". */
  triggerLabel: string;
  triggerText: string;
  title: string;
  text: string;
  confirmText: string;
  cancelText: string;
  /** Runs the deletion and reports its outcome itself; must not reject. */
  onConfirm: () => Promise<unknown>;
  testid: string;
}

export function ConfirmDeleteDialog({
  triggerLabel,
  triggerText,
  title,
  text,
  confirmText,
  cancelText,
  onConfirm,
  testid,
}: ConfirmDeleteDialogProps) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
      setOpen(false);
    }
  };
  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      title={title}
      testid={testid}
      trigger={
        <Button variant="ghost" size="sm" aria-label={triggerLabel} testid={`${testid}-open`}>
          {triggerText}
        </Button>
      }
      footer={
        <>
          <DialogClose>
            <Button variant="secondary">{cancelText}</Button>
          </DialogClose>
          <Button variant="danger" loading={busy} onClick={() => void confirm()} testid={`${testid}-confirm`}>
            {confirmText}
          </Button>
        </>
      }
    >
      <p>{text}</p>
    </Dialog>
  );
}
