/**
 * Create/update dialog of a booking feed (decision 0053): name, kind (ICS address or CalDAV),
 * the room whose bookings these are and the rooms heated with it (searched on the server, so a
 * company with thousands of rooms can pick), the address, CalDAV user name and password (the
 * password is never shown: on edit an empty field keeps the stored one), and the rules — ignore
 * bookings shorter than N minutes or whose title contains a keyword, the pre-heat lead, and the
 * temperature (empty: the highest of the day's plan). Every message names its field and the limit
 * it broke; the server's field errors show under their fields, the rest above the buttons; a
 * failed save also shows a toast. Only members who operate open it.
 */
import {
  type BookingFeed,
  type BookingFeedKind,
  LINKED_UNITS_MAX,
  MIN_DURATION_MAX_MINUTES,
  PREHEAT_MAX_MINUTES,
} from '@heizplan/contracts/booking-feeds';
import { useTranslation } from 'react-i18next';
import type { Issue } from '../../../components/ui/form.tsx';
import {
  applyServerErrors,
  FormError,
  FormNumberInput,
  FormTextInput,
  useContractForm,
  useFormControl,
} from '../../../components/ui/form.tsx';
import { FormDialog } from '../../../components/ui/form-dialog.tsx';
import { RadioCards } from '../../../components/ui/radio-cards.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { UnitSearchCombobox } from '../../../components/unit-search-combobox.tsx';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { useChangeBookingFeed } from '../api/booking-feeds.ts';
import {
  type BookingFeedBody,
  type BookingFeedForm,
  bookingFeedFormSchema,
  updateOf,
} from '../booking-feed-form.ts';

export interface BookingFeedDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The feed to update; null creates a new one. */
  feed: BookingFeed | null;
  initial: BookingFeedForm;
}

/** The numeric fields' ranges, for messages that name them. */
const RANGES = {
  minDurationMinutes: { min: 0, max: MIN_DURATION_MAX_MINUTES },
  preheatMinutes: { min: 0, max: PREHEAT_MAX_MINUTES },
  temperature: { min: 0, max: 40 },
} as const;

/** Messages that name the field and its limit ("Vorheizzeit: eine ganze Zahl von 0 bis 240 Minuten"). */
function useWording() {
  const { t, i18n } = useTranslation('booking-feeds');
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2 });
  return (issue: Issue): string | undefined => {
    const field = String(issue.path[0] ?? '');
    if (field === 'unitId') return t('errors.unit');
    if (field === 'url')
      return issue.code === 'too_small'
        ? t('errors.urlRequired')
        : issue.code === 'too_big'
          ? t('errors.tooLong', { field: t('fields.url'), count: 2000 })
          : t('errors.url');
    if (field === 'name' && issue.code === 'too_small') return t('errors.nameRequired');
    if (field === 'linkedUnitIds' && issue.code === 'too_big')
      return t('errors.linkedMax', { count: LINKED_UNITS_MAX });
    if (field in RANGES) {
      const range = RANGES[field as keyof typeof RANGES];
      return t(`errors.range.${field}`, { min: number.format(range.min), max: number.format(range.max) });
    }
    if (issue.code === 'too_big' && issue.origin === 'string')
      return t('errors.tooLong', { field: t(`fields.${field}`), count: Number(issue.maximum) });
    return undefined;
  };
}

/** Mount it when opening (the page does): each opening starts from `initial`. */
export function BookingFeedDialog({ open, onOpenChange, feed, initial }: BookingFeedDialogProps) {
  const { t } = useTranslation('booking-feeds');
  const problems = useProblemMessage();
  const { toast } = useToast();
  const change = useChangeBookingFeed();
  const form = useContractForm(bookingFeedFormSchema, { defaultValues: initial, wording: useWording() });
  const kind = useFormControl('kind', form.control);
  const unit = useFormControl('unitId', form.control);
  const linked = useFormControl('linkedUnitIds', form.control);
  const known = feed ? [feed.unit, ...feed.linkedUnits] : [];

  const submit = (body: BookingFeedBody) => {
    change.mutate(
      feed ? { action: 'update', feedId: feed.id, body: updateOf(feed, body) } : { action: 'create', body },
      {
        onSuccess: () => {
          toast({
            type: 'success',
            title: feed ? t('toast.saved') : t('toast.created'),
            testid: 'toast-booking-feed-saved',
          });
          onOpenChange(false);
        },
        onError: (error) => {
          applyServerErrors(form, error, problems, { fallback: t('errors.generic') });
          toast({
            type: 'error',
            title: feed ? t('toast.saveError') : t('toast.createError'),
            testid: 'toast-booking-feed-error',
          });
        },
      },
    );
  };

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={feed ? t('dialog.editTitle') : t('dialog.createTitle')}
      form={form}
      onSubmit={submit}
      cancelText={t('dialog.cancel')}
      submitText={feed ? t('dialog.save') : t('dialog.create')}
      pending={change.isPending}
      testid="booking-feed"
    >
      <FormTextInput
        name="name"
        label={t('fields.name')}
        placeholder={t('fields.namePlaceholder')}
        required
        testid="booking-feed-name"
      />
      <RadioCards<BookingFeedKind>
        legend={t('fields.kind')}
        name="booking-feed-kind"
        columns={2}
        value={kind.value}
        onChange={(next) => kind.onChange(next)}
        options={(['ics', 'caldav'] as const).map((k) => ({
          id: k,
          title: t(`kinds.${k}.title`),
          description: t(`kinds.${k}.description`),
          testid: `booking-feed-kind-${k}`,
        }))}
        testid="booking-feed-kind"
      />
      <FormTextInput
        name="url"
        label={t('fields.url')}
        hint={kind.value === 'ics' ? t('fields.urlHintIcs') : t('fields.urlHintCaldav')}
        type="url"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        placeholder="https://…"
        required
        testid="booking-feed-url"
      />
      {kind.value === 'caldav' && (
        <div className="grid gap-3 sm:grid-cols-2">
          <FormTextInput
            name="username"
            label={t('fields.username')}
            autoComplete="off"
            testid="booking-feed-username"
          />
          <FormTextInput
            name="password"
            label={t('fields.password')}
            type="password"
            autoComplete="new-password"
            placeholder={feed?.hasPassword ? t('fields.passwordUnchanged') : undefined}
            hint={feed?.hasPassword ? t('fields.passwordHint') : undefined}
            testid="booking-feed-password"
          />
        </div>
      )}
      <UnitSearchCombobox
        label={t('fields.unit')}
        placeholder={t('fields.unitPlaceholder')}
        value={unit.value || null}
        onChange={(id) => {
          unit.onChange(id ?? '');
          unit.onBlur();
        }}
        error={unit.error}
        known={known}
        testid="booking-feed-unit"
      />
      <div className="flex flex-col gap-1">
        <UnitSearchCombobox
          multiple
          label={t('fields.linkedUnits')}
          placeholder={t('fields.linkedUnitsPlaceholder')}
          value={linked.value}
          onChange={linked.onChange}
          error={linked.error}
          known={known}
          exclude={unit.value ? [unit.value] : []}
          testid="booking-feed-linked"
        />
        <p className="text-xs text-stone-600">{t('fields.linkedUnitsHint', { count: LINKED_UNITS_MAX })}</p>
      </div>
      <fieldset className="flex flex-col gap-3 rounded-lg border border-stone-200 p-3">
        <legend className="px-1 text-sm font-medium text-ink">{t('fields.rules')}</legend>
        <div className="grid gap-3 sm:grid-cols-2">
          <FormNumberInput
            name="minDurationMinutes"
            label={t('fields.minDuration')}
            hint={t('fields.minDurationHint')}
            inputMode="numeric"
            testid="booking-feed-min-duration"
          />
          <FormTextInput
            name="ignoreKeyword"
            label={t('fields.ignoreKeyword')}
            hint={t('fields.ignoreKeywordHint')}
            testid="booking-feed-keyword"
          />
          <FormNumberInput
            name="preheatMinutes"
            label={t('fields.preheat')}
            hint={t('fields.preheatHint')}
            inputMode="numeric"
            testid="booking-feed-preheat"
          />
          <FormNumberInput
            name="temperature"
            optional
            label={t('fields.temperature')}
            hint={t('fields.temperatureHint')}
            placeholder={t('fields.temperaturePlaceholder')}
            inputMode="decimal"
            step={0.5}
            testid="booking-feed-temperature"
          />
        </div>
      </fieldset>
      <FormError testid="booking-feed-error" />
    </FormDialog>
  );
}
