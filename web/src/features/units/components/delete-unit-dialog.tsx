/** Deleting a unit, confirmed in a dialog that says plans and log go with it; back to the units list afterwards. */
import type { Unit } from '@heizplan/contracts/heating';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogClose } from '../../../components/ui/dialog.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { useDeleteUnit } from '../api/delete-unit.ts';

export function DeleteUnitDialog({ unit }: { unit: Unit }) {
  const { t } = useTranslation('units');
  const { toast } = useToast();
  const problems = useProblemMessage();
  const navigate = useNavigate();
  const remove = useDeleteUnit();
  return (
    <Dialog
      title={t('delete.title', { name: unit.name })}
      description={t('delete.text')}
      testid="unit-delete-dialog"
      trigger={
        <Button variant="danger" testid="unit-delete">
          {t('delete.open')}
        </Button>
      }
      footer={
        <>
          <DialogClose>
            <Button variant="secondary">{t('cancel')}</Button>
          </DialogClose>
          <Button
            variant="danger"
            loading={remove.isPending}
            testid="unit-delete-confirm"
            onClick={() =>
              remove.mutate(unit.id, {
                onSuccess: () => {
                  toast({ type: 'success', title: t('delete.done', { name: unit.name }) });
                  void navigate('/units');
                },
                onError: (error) =>
                  toast({
                    type: 'error',
                    title: t('delete.error'),
                    description: problems.reason(error),
                  }),
              })
            }
          >
            {t('delete.open')}
          </Button>
        </>
      }
    />
  );
}
