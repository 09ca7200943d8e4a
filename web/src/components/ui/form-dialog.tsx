/**
 * A dialog around one contract form (decision 0048): the title, the fields, and a footer with
 * "cancel" and a submit button bound to the form by id (the footer sits outside the `<form>`),
 * showing the save's progress. Test ids derive from `testid`: `<testid>-dialog`, `-form`,
 * `-cancel`, `-save`.
 */
import type { ReactNode } from 'react';
import type { FieldValues } from 'react-hook-form';
import { Button } from './button.tsx';
import { Dialog, DialogClose } from './dialog.tsx';
import { Form, type FormProps } from './form.tsx';

export interface FormDialogProps<TIn extends FieldValues, TOut> {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  form: FormProps<TIn, TOut>['form'];
  onSubmit: FormProps<TIn, TOut>['onSubmit'];
  cancelText: string;
  submitText: string;
  /** The save is running: the submit button shows it and cannot be pressed again. */
  pending: boolean;
  /** Prefix of the test ids, e.g. `closure`. */
  testid: string;
  children: ReactNode;
}

export function FormDialog<TIn extends FieldValues, TOut>({
  open,
  onOpenChange,
  title,
  form,
  onSubmit,
  cancelText,
  submitText,
  pending,
  testid,
  children,
}: FormDialogProps<TIn, TOut>) {
  const formId = `${testid}-form`;
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      testid={`${testid}-dialog`}
      footer={
        <>
          <DialogClose>
            <Button variant="secondary" testid={`${testid}-cancel`}>
              {cancelText}
            </Button>
          </DialogClose>
          <Button type="submit" form={formId} loading={pending} testid={`${testid}-save`}>
            {submitText}
          </Button>
        </>
      }
    >
      <Form form={form} onSubmit={onSubmit} id={formId} className="flex flex-col gap-4" testid={formId}>
        {children}
      </Form>
    </Dialog>
  );
}
