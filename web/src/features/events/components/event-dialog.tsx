/**
 * Create/update dialog of an event (spec §2 "Events screen", §5): start, optional end,
 * temperature, units (multi-select, searched on the server) or group mode (groups), the mode preventing regular events
 * (the end becomes required and the reason is shown), title and note. The contracts' rules
 * (`event-form.ts`) are checked before sending; the server's field errors show under their
 * fields in the user's language; a failed save shows the toast 'Error creating event'.
 * A running event can only be shortened or ended now; a past one is shown read-only, and so is
 * every event to a member who only reads (ems): titled "Termin", every field disabled, no save,
 * delete or end.
 */
import type { HeatingEvent } from '@heizplan/contracts/events';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Combobox, type ComboboxOption } from '../../../components/ui/combobox.tsx';
import { Dialog, DialogClose } from '../../../components/ui/dialog.tsx';
import {
  applyServerErrors,
  Form,
  FormError,
  FormTextInput,
  useContractForm,
  useFormControl,
} from '../../../components/ui/form.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { UnitSearchCombobox } from '../../../components/unit-search-combobox.tsx';
import { useClock } from '../../../lib/clock.tsx';
import { useHeatingFormat } from '../../../lib/format.ts';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { useCan } from '../../../lib/use-can.ts';
import { useChangeEvent } from '../api/events.ts';
import { type EventBody, type EventForm, eventFormSchema } from '../event-form.ts';

export interface EventDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The event to update; null creates a new one. */
  event: HeatingEvent | null;
  initial: EventForm;
  /** Company IANA zone the times are typed in. */
  zone: string;
  /** Company range, °C. */
  range?: { min: number; max: number };
  groupOptions: ComboboxOption[];
}

/** Mount it when opening (the events page does): each opening starts from `initial`. */
export function EventDialog({
  open,
  onOpenChange,
  event,
  initial,
  zone,
  range,
  groupOptions,
}: EventDialogProps) {
  const { t } = useTranslation('events');
  const problems = useProblemMessage();
  const { toast } = useToast();
  const format = useHeatingFormat();
  const change = useChangeEvent();
  const clock = useClock();
  const schema = useMemo(
    () => eventFormSchema(zone, clock, range, event ? initial.end : undefined),
    [zone, clock, range, event, initial],
  );
  const form = useContractForm(schema, {
    defaultValues: initial,
    units: { temperature: '°C' },
    // The dialog's own sentences for an empty start or temperature.
    wording: (issue) =>
      issue.path[0] === 'start' && issue.code === 'invalid_format'
        ? t('errors.startRequired')
        : issue.path[0] === 'temperature' && issue.code === 'invalid_type'
          ? t('errors.temperatureRequired')
          : undefined,
  });
  const [groupMode, preventRegular] = form.watch(['groupMode', 'preventRegular']);
  const units = useFormControl('units', form.control);
  const groups = useFormControl('groups', form.control);
  const status = event?.status ?? 'upcoming';
  // Past events stay as they were; members who only read (ems) change no event (decision 0022).
  const canOperate = useCan('operate');
  const readOnly = status === 'past' || !canOperate;
  // Spec: a running event can still be shortened or ended, nothing else about it changes.
  const locked = status !== 'upcoming' || readOnly;

  const failed = () =>
    toast({
      type: 'error',
      title: event ? t('toast.saveError') : t('toast.createError'),
      testid: 'toast-event-error',
    });
  const done = (title: string) => {
    toast({ type: 'success', title, testid: 'toast-event-saved' });
    onOpenChange(false);
  };

  const submit = (body: EventBody) => {
    if (readOnly) return;
    change.mutate(
      event
        ? {
            action: 'update',
            eventId: event.id,
            body: locked ? { title: body.title, note: body.note, end: body.end } : body,
          }
        : { action: 'create', body },
      {
        onSuccess: () => done(event ? t('toast.saved') : t('toast.created')),
        onError: (error) => {
          applyServerErrors(form, error, problems, { fallback: t('errors.generic') });
          failed();
        },
      },
    );
  };
  const act = (action: 'end' | 'delete') => {
    if (!event) return;
    change.mutate(
      { action, eventId: event.id },
      { onSuccess: () => done(t(action === 'end' ? 'toast.ended' : 'toast.deleted')), onError: failed },
    );
  };

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={readOnly ? t('dialog.viewTitle') : event ? t('dialog.editTitle') : t('dialog.createTitle')}
      testid="event-dialog"
      footer={
        <>
          {event && !readOnly && (
            <Button
              variant="danger"
              className="mr-auto"
              onClick={() => act('delete')}
              disabled={change.isPending}
              testid="event-delete"
            >
              {t('dialog.delete')}
            </Button>
          )}
          {status === 'running' && canOperate && (
            <Button
              variant="secondary"
              onClick={() => act('end')}
              disabled={change.isPending}
              testid="event-end-now"
            >
              {t('dialog.endNow')}
            </Button>
          )}
          <DialogClose>
            <Button variant="secondary" testid="event-cancel">
              {readOnly ? t('dialog.close') : t('dialog.cancel')}
            </Button>
          </DialogClose>
          {!readOnly && (
            <Button type="submit" form="event-form" loading={change.isPending} testid="event-save">
              {event ? t('dialog.save') : t('dialog.create')}
            </Button>
          )}
        </>
      }
    >
      <Form form={form} onSubmit={submit} id="event-form" className="flex flex-col gap-4" testid="event-form">
        {readOnly && (
          <p className="rounded-lg bg-stone-100 p-3 text-stone-700" data-testid="event-read-only">
            {canOperate ? t('dialog.readOnly') : t('dialog.readOnlyRole')}
          </p>
        )}
        {event && (
          <p className="text-xs text-stone-600" data-testid="event-created">
            {t('dialog.created', {
              name: event.createdBy?.name ?? t('dialog.unknownCreator'),
              date: format.dateTime(event.createdAt, zone),
            })}
          </p>
        )}
        {status === 'running' && canOperate && (
          <p className="rounded-lg bg-amber-50 p-3 text-amber-900" data-testid="event-running">
            {t('dialog.running')}
          </p>
        )}
        <FormTextInput name="title" label={t('fields.title')} disabled={readOnly} testid="event-title" />
        <div className="grid gap-3 sm:grid-cols-2">
          <FormTextInput
            name="start"
            label={t('fields.start')}
            type="datetime-local"
            rules={{ deps: ['end'] }}
            disabled={locked}
            required
            testid="event-start"
          />
          <FormTextInput
            name="end"
            label={preventRegular ? t('fields.endRequired') : t('fields.end')}
            type="datetime-local"
            hint={preventRegular ? undefined : t('fields.endHint')}
            disabled={readOnly}
            required={preventRegular}
            testid="event-end"
          />
        </div>
        <FormTextInput
          name="temperature"
          label={t('fields.temperature')}
          type="number"
          inputMode="decimal"
          step={0.5}
          min={range?.min}
          max={range?.max}
          hint={range ? t('fields.temperatureHint', { min: range.min, max: range.max }) : undefined}
          disabled={locked}
          required
          testid="event-temperature"
        />
        <div className="flex flex-col gap-2">
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              {...form.register('groupMode', { deps: ['units', 'groups'] })}
              disabled={locked}
              data-testid="event-group-mode"
              className="size-4 accent-brand-600"
            />
            {t('fields.groupMode')}
          </label>
          {groupMode ? (
            <Combobox
              multiple
              label={t('fields.groups')}
              placeholder={t('fields.groupsPlaceholder')}
              value={groups.value}
              onChange={groups.onChange}
              options={groupOptions}
              error={groups.error}
              disabled={locked}
              testid="event-groups"
            />
          ) : (
            <UnitSearchCombobox
              multiple
              label={t('fields.units')}
              placeholder={t('fields.unitsPlaceholder')}
              value={units.value}
              onChange={units.onChange}
              known={event?.units ?? []}
              error={units.error}
              disabled={locked}
              required
              testid="event-units"
            />
          )}
          {groupMode && <p className="text-xs text-stone-600">{t('fields.groupModeHint')}</p>}
        </div>
        <div className="flex flex-col gap-1">
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              {...form.register('preventRegular', { deps: ['end'] })}
              disabled={locked}
              data-testid="event-prevent-regular"
              className="size-4 accent-brand-600"
            />
            {t('fields.preventRegular')}
          </label>
          {preventRegular && (
            <p className="text-xs text-stone-600" data-testid="event-prevent-reason">
              {t('fields.preventRegularReason')}
            </p>
          )}
        </div>
        <FormTextInput name="note" label={t('fields.note')} disabled={readOnly} testid="event-note" />
        <FormError testid="event-error" />
      </Form>
    </Dialog>
  );
}
