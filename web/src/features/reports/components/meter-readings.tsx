/**
 * A building's monthly meter readings (decision 0061): a form for one reading (month, energy
 * carrier, kWh; the contract's `MeterReadingSchema`, decision 0048) — sending the same month and
 * carrier again replaces it; a reading more than three times the same carrier's month before, or
 * under a third of it, is saved only after the user confirms it (reading-check.ts) — and the
 * readings entered so far, newest first, each deletable after a confirmation.
 */
import type { MeterReading } from '@heizplan/contracts/reports';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDeleteDialog } from '../../../components/confirm-delete-dialog.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import {
  applyServerErrors,
  Form,
  FormDecimalInput,
  FormError,
  FormField,
  FormTextInput,
  useContractForm,
  useFormControl,
} from '../../../components/ui/form.tsx';
import { Select } from '../../../components/ui/select.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { useDeleteMeterReading, useSaveMeterReading } from '../api/building-report-data.ts';
import { farFromPrevious } from '../reading-check.ts';
import { useReportFormat } from '../report-format.ts';
import { CARRIERS, MeterReadingSchema } from '../report-forms.ts';
import { MeterImport } from './meter-import.tsx';

function ReadingForm({
  buildingId,
  month,
  readings,
}: {
  buildingId: string;
  month: string;
  readings: MeterReading[];
}) {
  const { t } = useTranslation('reports');
  const { toast } = useToast();
  const format = useReportFormat();
  // A reading far from the month before, waiting for the user's "yes".
  const [unsure, setUnsure] = useState<MeterReading | null>(null);
  const problems = useProblemMessage();
  const save = useSaveMeterReading(buildingId);
  const form = useContractForm(MeterReadingSchema, {
    defaultValues: { month, carrier: 'gas' },
    units: { kwh: 'kWh' },
    wording: (issue) => (issue.path[0] === 'month' ? t('meters.readings.monthInvalid') : undefined),
  });
  const carrier = useFormControl('carrier', form.control);
  const far = unsure ? farFromPrevious(readings, unsure) : null;
  const submit = (body: MeterReading) => {
    if (farFromPrevious(readings, body)) {
      setUnsure(body);
      return;
    }
    store(body);
  };
  const store = (body: MeterReading) =>
    save.mutate(body, {
      onSuccess: () => {
        toast({ type: 'success', title: t('meters.readings.saved'), testid: 'toast-meter-reading-saved' });
        form.reset({ month: body.month, carrier: body.carrier });
      },
      onError: (error) => {
        applyServerErrors(form, error, problems, { fallback: t('meters.readings.error') });
        toast({ type: 'error', title: t('meters.readings.error'), testid: 'toast-meter-reading-error' });
      },
    });
  return (
    <Form form={form} onSubmit={submit} className="flex flex-col gap-3" testid="meter-reading-form">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <FormTextInput
          name="month"
          type="month"
          label={t('meters.readings.month')}
          testid="meter-reading-month"
        />
        <FormField name="carrier" label={t('meters.readings.carrier')} testid="meter-reading-carrier-field">
          {(wiring) => (
            <Select
              {...wiring}
              value={carrier.value ?? 'gas'}
              onChange={(id) => carrier.onChange(id as MeterReading['carrier'])}
              onBlur={carrier.onBlur}
              options={CARRIERS.map((id) => ({
                id,
                value: t(`carriers.${id}`),
                testid: `meter-reading-carrier-${id}`,
              }))}
              testid="meter-reading-carrier"
            />
          )}
        </FormField>
        <FormDecimalInput name="kwh" label={t('meters.readings.kwh')} testid="meter-reading-kwh" />
      </div>
      <FormError testid="meter-reading-error" />
      <div className="flex justify-end">
        <Button type="submit" loading={save.isPending} testid="meter-reading-save">
          {t('meters.readings.save')}
        </Button>
      </div>
      <ConfirmDialog
        open={unsure !== null}
        onOpenChange={(open) => {
          if (!open) setUnsure(null);
        }}
        title={t('meters.readings.farTitle')}
        confirmText={t('meters.readings.farConfirm')}
        cancelText={t('meters.readings.farCorrect')}
        confirmVariant="primary"
        onConfirm={async () => {
          if (unsure) store(unsure);
        }}
        testid="meter-reading-far"
      >
        {unsure && far && (
          <p>
            {t(far.direction === 'higher' ? 'meters.readings.farHigher' : 'meters.readings.farLower', {
              kwh: format.kwh(unsure.kwh),
              month: format.month(unsure.month),
              previousKwh: format.kwh(far.previous.kwh),
              previousMonth: format.month(far.previous.month),
              carrier: t(`carriers.${unsure.carrier}`),
            })}
          </p>
        )}
      </ConfirmDialog>
    </Form>
  );
}

function ReadingsList({ buildingId, readings }: { buildingId: string; readings: MeterReading[] }) {
  const { t } = useTranslation('reports');
  const { toast } = useToast();
  const format = useReportFormat();
  const remove = useDeleteMeterReading(buildingId);
  if (readings.length === 0)
    return (
      <p className="text-sm text-stone-600" data-testid="meter-readings-none">
        {t('meters.readings.none')}
      </p>
    );
  const sorted = [...readings].sort(
    (a, b) => b.month.localeCompare(a.month) || a.carrier.localeCompare(b.carrier),
  );
  return (
    <ul
      className="flex flex-col divide-y divide-stone-100"
      aria-label={t('meters.readings.list')}
      data-testid="meter-readings"
    >
      {sorted.map((reading) => {
        const id = `${reading.month}-${reading.carrier}`;
        const names = {
          month: format.month(reading.month),
          carrier: t(`carriers.${reading.carrier}`),
          kwh: format.kwh(reading.kwh),
        };
        return (
          <li
            key={id}
            className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm"
            data-testid={`meter-reading-${id}`}
          >
            <span className="flex min-w-0 flex-col sm:flex-row sm:gap-3">
              <span className="font-medium">{names.month}</span>
              <span className="text-stone-700">{names.carrier}</span>
            </span>
            <span className="flex items-center gap-3">
              <span className="tabular-nums">{names.kwh}</span>
              <ConfirmDeleteDialog
                triggerLabel={t('meters.readings.deleteLabel', names)}
                triggerText={t('meters.readings.delete')}
                title={t('meters.readings.deleteTitle')}
                text={t('meters.readings.deleteText', names)}
                confirmText={t('meters.readings.delete')}
                cancelText={t('meters.readings.cancel')}
                onConfirm={async () => {
                  try {
                    await remove.mutateAsync(reading);
                    toast({
                      type: 'success',
                      title: t('meters.readings.deleted'),
                      testid: 'toast-meter-reading-deleted',
                    });
                  } catch {
                    toast({
                      type: 'error',
                      title: t('meters.readings.deleteError'),
                      testid: 'toast-meter-reading-delete-error',
                    });
                  }
                }}
                testid={`meter-reading-delete-${id}`}
              />
            </span>
          </li>
        );
      })}
    </ul>
  );
}

export function MeterReadings({
  buildingId,
  month,
  readings,
}: {
  buildingId: string;
  month: string;
  readings: MeterReading[];
}) {
  const { t } = useTranslation('reports');
  return (
    <div className="flex flex-col gap-3" data-testid="meter-readings-section">
      <div>
        <h3 className="text-sm font-semibold">{t('meters.readings.title')}</h3>
        <p className="text-xs text-stone-600">{t('meters.readings.hint')}</p>
      </div>
      <ReadingForm buildingId={buildingId} month={month} readings={readings} />
      <MeterImport buildingId={buildingId} />
      <ReadingsList buildingId={buildingId} readings={readings} />
    </div>
  );
}
