/**
 * Changes which unit a device belongs to (registry). The trigger is the unit cell itself
 * (the unit's name, or "assign" when there is none); the dialog offers a room picker searching
 * the company's units on the server (the current one named from the start), save, or unassign. The server's 404 'Unknown unit' (unit deleted meanwhile) shows under the
 * Combobox; other failures show as an error toast.
 */
import type { Device } from '@heizplan/contracts/devices';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { Form, useContractForm, useFormControl } from '../../../components/ui/form.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useUpdateDevice } from '../api/update-device.ts';
import { AssignSchema, currentUnit, UnitChoice } from './assign-device.tsx';

export function DeviceUnitDialog({ device }: { device: Device }) {
  const { t } = useTranslation('devices');
  const { toast } = useToast();
  const [open, setOpen] = useState(false);
  const form = useContractForm(AssignSchema, { defaultValues: { unitId: device.unitId ?? '' } });
  const unit = useFormControl('unitId', form.control);
  const formId = `device-unit-form-${device.id}`;
  const update = useUpdateDevice();
  const unknownUnit = update.error instanceof ApiError && update.error.status === 404;

  const save = (next: string | null) =>
    update.mutate(
      { deviceId: device.id, patch: { unitId: next } },
      {
        onSuccess: () => {
          toast({ type: 'success', title: t('edit.success'), testid: 'toast-device-unit-saved' });
          setOpen(false);
        },
        onError: (error) => {
          if (!(error instanceof ApiError && error.status === 404)) {
            toast({ type: 'error', title: t('edit.error'), testid: 'toast-device-unit-error' });
          }
        },
      },
    );

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        form.reset({ unitId: device.unitId ?? '' });
        update.reset();
      }}
      title={t('edit.title')}
      description={t('edit.description', { id: device.id })}
      testid={`device-unit-dialog-${device.id}`}
      trigger={
        <Button
          variant="ghost"
          size="sm"
          // The name starts with what the button shows (WCAG 2.5.3 "Label in Name"), so "Büro 1.01"
          // spoken to voice control finds it.
          aria-label={t('edit.label', { id: device.id, unit: device.unitName ?? t('edit.open') })}
          // Text-aligned with the column header: the ghost padding hangs into the cell margin.
          className="-mx-3"
          // Long unit names wrap instead of widening the table.
          multiline
          testid={`device-unit-open-${device.id}`}
        >
          {device.unitName ?? t('edit.open')}
        </Button>
      }
      footer={
        <>
          <Button
            variant="secondary"
            disabled={device.unitId === null || update.isPending}
            onClick={() => save(null)}
            testid={`device-unit-clear-${device.id}`}
          >
            {t('edit.unassign')}
          </Button>
          <Button
            type="submit"
            form={formId}
            loading={update.isPending}
            disabled={!unit.value || unit.value === device.unitId}
            testid={`device-unit-save-${device.id}`}
          >
            {t('edit.submit')}
          </Button>
        </>
      }
    >
      <Form form={form} onSubmit={({ unitId }) => save(unitId)} id={formId}>
        <UnitChoice
          label={t('fields.unit')}
          placeholder={t('noUnit')}
          unit={unit}
          current={currentUnit(device)}
          unknownUnit={unknownUnit ? t('unknownUnit') : null}
          onPick={update.reset}
          testid={`device-unit-${device.id}`}
        />
      </Form>
    </Dialog>
  );
}
