/**
 * Acknowledging (with an optional note, in a dialog) and muting an open alert. Only
 * offered to members who operate the heating; the row shows who acknowledged and until when it
 * is muted.
 */
import { AcknowledgeSchema, type Alert } from '@heizplan/contracts/alerts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Form, FormTextInput, useContractForm } from '../../../components/ui/form.tsx';
import { MenuButton } from '../../../components/ui/menu-button.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { useClock } from '../../../lib/clock.tsx';
import { useAcknowledge, useMute } from '../api/alerts.ts';
import { isMuted } from '../muted.ts';

const MUTE_HOURS = ['0', '8', '24', '168'] as const;

export function AlertActions({ alert, title }: { alert: Alert; title: string }) {
  const { t } = useTranslation('alerts');
  const clock = useClock();
  const { toast } = useToast();
  const acknowledge = useAcknowledge();
  const mute = useMute();
  const [open, setOpen] = useState(false);
  const form = useContractForm(AcknowledgeSchema, { defaultValues: { note: '' } });
  if (alert.state !== 'open') return null;
  const muted = isMuted(alert, clock());
  return (
    <div className="flex flex-wrap items-center gap-2">
      {!alert.acknowledgedAt && (
        <Button
          size="sm"
          variant="secondary"
          aria-label={t('acknowledge.label', { kind: title })}
          onClick={() => setOpen(true)}
          testid={`alert-ack-${alert.id}`}
        >
          {t('acknowledge.open')}
        </Button>
      )}
      <MenuButton
        label={muted ? t('mute.muted') : t('mute.label')}
        // "Stummgeschaltet" alone does not say that the button changes it.
        ariaLabel={muted ? t('mute.mutedLabel') : undefined}
        onAction={(hours) =>
          mute.mutate(
            { id: alert.id, hours: Number(hours) },
            {
              onSuccess: () => {
                toast({ type: 'success', title: t('mute.done'), testid: 'toast-alert-muted' });
              },
              onError: () =>
                toast({ type: 'error', title: t('mute.error'), testid: 'toast-alert-mute-error' }),
            },
          )
        }
        actions={MUTE_HOURS.filter((h) => muted || h !== '0').map((h) => ({
          id: h,
          label: t(`mute.options.${h}`),
          testid: `alert-mute-${alert.id}-${h}`,
        }))}
        // Wide enough for "Stummgeschaltet" next to the chevron; narrower on a phone, where it
        // shares the row with the alert's first column without making the table scroll.
        className="w-40 sm:w-44"
        testid={`alert-mute-${alert.id}`}
      />
      <ConfirmDialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (!next) form.reset();
        }}
        title={t('acknowledge.title')}
        confirmText={t('acknowledge.confirm')}
        confirmVariant="primary"
        // The note's limit is its maxLength, so the form is valid; its output is the trimmed note.
        onConfirm={() =>
          form.handleSubmit(({ note }) =>
            acknowledge.mutateAsync({ id: alert.id, note: note || undefined }).then(
              () =>
                toast({ type: 'success', title: t('acknowledge.done'), testid: 'toast-alert-acknowledged' }),
              () => toast({ type: 'error', title: t('acknowledge.error'), testid: 'toast-alert-ack-error' }),
            ),
          )()
        }
        testid="alert-ack-dialog"
      >
        <p className="mb-3 font-medium">{title}</p>
        {/* Enter does not acknowledge: the dialog's button does, and closes the dialog. */}
        <Form form={form} onSubmit={() => undefined}>
          <FormTextInput name="note" label={t('acknowledge.note')} testid="alert-ack-note" />
        </Form>
      </ConfirmDialog>
    </div>
  );
}
