/**
 * "Kalibrieren / Recalibrate": asks for a motor recalibration of one valve, or of every valve
 * given (the devices on screen), after a confirmation; a toast says how many were asked for. For
 * members who may operate devices; the caller decides who sees it.
 */
import type { Device } from '@heizplan/contracts/devices';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { useRecalibrateDevices } from '../api/recalibrate-devices.ts';

export function RecalibrateButton({ devices, testid }: { devices: Device[]; testid: string }) {
  const { t } = useTranslation('devices');
  const { toast } = useToast();
  const problems = useProblemMessage();
  const recalibrate = useRecalibrateDevices();
  const [open, setOpen] = useState(false);
  const able = devices.filter((device) => device.config.canRecalibrate);
  if (able.length === 0) return null;
  const one = able.length === 1 ? able[0] : undefined;
  return (
    <>
      <Button variant="ghost" size="sm" onClick={() => setOpen(true)} testid={testid}>
        {one ? t('recalibrate.one') : t('recalibrate.many', { count: able.length })}
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={
          one ? t('recalibrate.titleOne', { id: one.id }) : t('recalibrate.titleMany', { count: able.length })
        }
        confirmText={t('recalibrate.confirm')}
        confirmVariant="primary"
        onConfirm={async () => {
          try {
            const result = await recalibrate.mutateAsync(able.map((device) => device.id));
            toast({
              type: 'success',
              title: t('recalibrate.done', { count: result.requested }),
              testid: 'toast-recalibrate',
            });
          } catch (error) {
            toast({
              type: 'error',
              title: problems.message(error, t('recalibrate.error')),
              testid: 'toast-recalibrate-error',
            });
          }
        }}
        testid={`${testid}-confirm`}
      >
        <p className="text-sm">{t('recalibrate.text')}</p>
      </ConfirmDialog>
    </>
  );
}
