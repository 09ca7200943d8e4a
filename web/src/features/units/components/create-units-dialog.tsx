/**
 * "Create units" dialog (spec §2 "Create multiple units"): one unit by name, or many at once
 * from a pattern ("Raum {n}") and a count, optionally in a group. The form is its own chunk
 * (`create-units-form.tsx`), fetched as the dialog opens. Server field messages show under the
 * fields; on success the dialog closes and a toast says how many were created.
 */
import { lazy, Suspense, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogClose } from '../../../components/ui/dialog.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { type CreateUnitsInput, useCreateUnits } from '../api/create-units.ts';

const loadForm = () => import('./create-units-form.tsx');
const CreateUnitsForm = lazy(loadForm);

export function CreateUnitsDialog() {
  const { t } = useTranslation('units');
  const { toast } = useToast();
  const [open, setOpen] = useState(false);
  const [valid, setValid] = useState(false);
  const create = useCreateUnits();
  const onValidChange = useCallback((next: boolean) => setValid(next), []);

  const submit = async (input: CreateUnitsInput) => {
    const units = await create.mutateAsync(input);
    toast({
      type: 'success',
      title: t('create.success', { count: units.length }),
      testid: 'toast-units-created',
    });
    setOpen(false);
    create.reset();
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) create.reset();
      }}
      title={t('create.title')}
      testid="create-units-dialog"
      // Fetched when the button is pointed at or focused, usually there by the click.
      trigger={
        <Button testid="create-units" onPointerEnter={() => void loadForm()} onFocus={() => void loadForm()}>
          {t('create.open')}
        </Button>
      }
      footer={
        <>
          <DialogClose>
            <Button variant="secondary">{t('cancel')}</Button>
          </DialogClose>
          <Button
            type="submit"
            form="create-units-form"
            disabled={!valid}
            loading={create.isPending}
            testid="create-units-submit"
          >
            {t('create.submit')}
          </Button>
        </>
      }
    >
      <Suspense fallback={<Spinner loading testid="create-units-loading" />}>
        <CreateUnitsForm create={submit} onValidChange={onValidChange} />
      </Suspense>
    </Dialog>
  );
}
