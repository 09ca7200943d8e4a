/**
 * Account deletion request (spec §2, §4): after confirming in a dialog the account is
 * deactivated at once, so the user is signed out.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { SettingsCard } from '../../../components/settings-card.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogClose } from '../../../components/ui/dialog.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { useRequestDeletion } from '../../../lib/account/request-deletion.ts';

export function DeleteAccount() {
  const { t } = useTranslation('settings');
  const { toast } = useToast();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const requestDeletion = useRequestDeletion();

  const confirm = () =>
    requestDeletion.mutate(undefined, {
      onSuccess: () => void navigate('/logout'),
      onError: () => {
        setOpen(false);
        toast({ type: 'error', title: t('toasts.errorDeleting'), description: t('toasts.deletionError') });
      },
    });

  return (
    <SettingsCard
      title={t('deletion.title')}
      description={t('deletion.text')}
      tone="danger"
      testid="settings-deletion"
    >
      <Dialog
        title={t('deletion.confirmTitle')}
        open={open}
        onOpenChange={setOpen}
        testid="deletion-dialog"
        trigger={
          <Button variant="danger" testid="deletion-open">
            {t('deletion.request')}
          </Button>
        }
        footer={
          <>
            <DialogClose>
              <Button variant="secondary" testid="deletion-cancel">
                {t('cancel')}
              </Button>
            </DialogClose>
            <Button
              variant="danger"
              loading={requestDeletion.isPending}
              onClick={confirm}
              testid="deletion-confirm"
            >
              {t('deletion.confirm')}
            </Button>
          </>
        }
      >
        <p>{t('deletion.confirmText')}</p>
      </Dialog>
    </SettingsCard>
  );
}
