/**
 * Plan editor (spec §2 "Heating plans") for a unit's or a group's plan: a seasonal
 * plan (valid from/to 'MM-DD', may cross New Year) with switch points per weekday, or a
 * specific-days plan (dates) with one day's switch points. Form based, so every part is
 * reachable by keyboard. While editing, the draft is sent to the preview call (debounced) and
 * the 7-day curve shows what the plan will do before it is saved; the engine's refusals
 * ('Invalid schedule!', 'Invalid time!', a temperature above or below the company's range with
 * its limit) appear, translated by their codes, next to the fields they concern — the preview's
 * only once the user changed something, so a new plan does not open with an error. A plan needs
 * a name. The week editor copies Monday to the other weekdays in one step.
 */
import type { Plan } from '@heizplan/contracts/heating';
import { type ReactNode, useEffect, useState } from 'react';
import { useFieldArray } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import {
  applyServerErrors,
  Form,
  FormTextInput,
  useContractForm,
  useFormControl,
} from '../../../components/ui/form.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { formatMonthDay } from '../../../lib/format.ts';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { useDebounced } from '../../../lib/use-debounced.ts';
import type { PlanOwner } from '../api/list-plans.ts';
import { usePlanPreview } from '../api/preview-plan.ts';
import { useChangePlan } from '../api/save-plan.ts';
import {
  copyDayTo,
  inputOf,
  newRow,
  type PlanDraft,
  PlanDraftSchema,
  problemsFor,
  WEEKDAYS,
  WORKDAYS,
} from '../plan-draft.ts';
import { DatesEditor } from './dates-editor.tsx';
import { PreviewChart } from './preview-chart.tsx';
import { PreviewWeekPicker, usePreviewWeek } from './preview-week-picker.tsx';
import { SwitchPointEditor } from './switch-point-row.tsx';

export interface PlanEditorProps {
  owner: PlanOwner;
  /** The stored plan being edited; null for a new one. */
  plan: Plan | null;
  initial: PlanDraft;
  /** The unit whose curve is previewed, and whether the draft is its own or its group's plan. */
  preview: { unitId: string; scope: 'unit' | 'group' } | null;
  /** Why the plan cannot be edited now (e.g. group plans unavailable); null when it can. */
  disabledReason?: string | null;
  /** Asked before saving the plan as active (what an active plan blocks); null saves at once. */
  activationWarning?: { title: string; text: string } | null;
  onClose: () => void;
}

export function PlanEditor({
  owner,
  plan,
  initial,
  preview,
  disabledReason = null,
  activationWarning = null,
  onClose,
}: PlanEditorProps) {
  const { t, i18n } = useTranslation('plans');
  const { toast } = useToast();
  const problems = useProblemMessage();
  const form = useContractForm(PlanDraftSchema, {
    defaultValues: initial,
    wording: (issue) =>
      issue.path[0] === 'name' && issue.code === 'too_small' ? t('nameRequired') : undefined,
  });
  // The preview checks the draft from the start; its refusals wait until the user changed something.
  const [typed, setTyped] = useState(false);
  const [confirming, setConfirming] = useState<PlanDraft | null>(null);
  const rows = useFieldArray({ control: form.control, name: 'switchPoints' });
  const dates = useFormControl('dates', form.control);
  const draft = form.watch();
  const change = useChangePlan();
  const input = inputOf(draft);
  // Debounced as text: a fresh object every render would restart the timer forever.
  const debouncedInput = JSON.parse(useDebounced(JSON.stringify(input), 500)) as typeof input;
  const week = usePreviewWeek();
  const previewQuery = usePlanPreview(
    preview && !disabledReason
      ? { ...preview, planId: plan?.id ?? null, plan: debouncedInput, from: week.from }
      : null,
  );
  // Saving answers first; otherwise the live preview's validation of the same draft.
  const problem = [change.error, typed || plan !== null ? previewQuery.error : null].find(
    (e) => e instanceof ApiError,
  ) as ApiError | undefined;
  const errors = problem?.errors ?? [];
  const fieldMessage = (field: string) =>
    problemsFor(errors, field).map(problems.fieldText).join(' ') || null;
  // The engine's refusals (of the save or the live preview) stand under the fields they name.
  // biome-ignore lint/correctness/useExhaustiveDependencies: follows the latest answer only
  useEffect(() => {
    form.clearErrors();
    if (problem) applyServerErrors(form, problem, problems, { root: false });
  }, [problem]);
  // A change makes the last save's refusal stale: the preview checks the draft again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: one subscription for the editor's life
  useEffect(() => {
    const subscription = form.watch(() => {
      change.reset();
      setTyped(true);
    });
    return () => subscription.unsubscribe();
  }, []);

  const addRow = (day: number) => {
    const last = draft.switchPoints.filter((r) => r.day === day).at(-1);
    rows.append(newRow(day, last ? Math.min(23, Number(last.hour) + 1) : 6, 0, 21));
  };

  const store = (values: PlanDraft) =>
    change
      .mutateAsync({ action: 'save', owner, planId: plan?.id ?? null, plan: inputOf(values) })
      .then(() => {
        toast({ type: 'success', title: t('saved'), testid: 'toast-plan-saved' });
        onClose();
      });
  // A refusal stays in `change.error` and shows under the fields.
  const save = (values: PlanDraft) =>
    activationWarning && values.active ? setConfirming(values) : void store(values).catch(() => undefined);
  const copyMonday = () => rows.replace(copyDayTo(form.getValues('switchPoints'), 1, WORKDAYS));
  const remove = () =>
    plan &&
    change.mutate(
      { action: 'delete', planId: plan.id },
      {
        onSuccess: () => {
          toast({ type: 'success', title: t('deleted') });
          onClose();
        },
      },
    );

  // Rows stay in the order they were added while typing (re-sorting would move the focused input).
  const rowsOf = (day: number | null) =>
    rows.fields.map((row, index) => ({ row, index })).filter(({ row }) => day === null || row.day === day);
  const rowList = (day: number | null, title: ReactNode) => (
    <fieldset
      className="rounded-lg border border-stone-200 p-2 sm:p-3"
      data-testid={`plan-day-${day ?? 'all'}`}
    >
      <legend className="px-1 text-sm font-semibold">{title}</legend>
      <ul className="divide-y divide-stone-100">
        {rowsOf(day).map(({ row, index }) => (
          <SwitchPointEditor key={row.id} index={index} errors={errors} onRemove={() => rows.remove(index)} />
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="ghost"
          size="sm"
          onClick={() => addRow(day ?? 1)}
          testid={`plan-add-${day ?? 'all'}`}
        >
          {t('switchPoint.add')}
        </Button>
        {day === 1 && (
          <Button variant="ghost" size="sm" onClick={copyMonday} testid="plan-copy-monday">
            {t('copyMonday')}
          </Button>
        )}
      </div>
    </fieldset>
  );

  const previewSection = preview && !disabledReason && (
    <section aria-labelledby="plan-preview-title" className="flex flex-col gap-2">
      <h3 id="plan-preview-title" className="text-sm font-semibold">
        {t('preview.title')}
      </h3>
      <PreviewWeekPicker week={week} />
      <PreviewChart
        preview={previewQuery.data}
        loading={previewQuery.isFetching}
        stale={previewQuery.isError}
      />
    </section>
  );

  return (
    <>
      {/* The engine's messages (spec §5) are shown, not the browser's own bubbles (Form sets noValidate). */}
      <Form form={form} onSubmit={save} className="flex flex-col gap-4" testid="plan-editor">
        {disabledReason && (
          <p
            role="status"
            className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900"
            data-testid="plan-disabled-reason"
          >
            {disabledReason}
          </p>
        )}
        {problem && (
          <div
            role="alert"
            className="rounded-lg bg-red-50 p-3 text-sm text-red-800"
            data-testid="plan-error"
          >
            <p>{problems.message(problem)}</p>
          </div>
        )}
        <fieldset disabled={disabledReason !== null} className="flex min-w-0 flex-col gap-4">
          <div className="grid gap-3 sm:grid-cols-2">
            <FormTextInput name="name" label={t('name')} testid="plan-name" />
            <label className="flex items-center gap-2 self-end pb-2 text-sm">
              <input
                type="checkbox"
                {...form.register('active')}
                data-testid="plan-active"
                className="size-4 accent-brand-600"
              />
              {t('active')}
            </label>
          </div>
          {draft.kind === 'seasonal' ? (
            <>
              <div className="grid grid-cols-2 gap-3">
                <FormTextInput
                  name="validFrom"
                  label={t('validFrom')}
                  hint={t('monthDayHint')}
                  placeholder={formatMonthDay('10-01', i18n.language)}
                  testid="plan-valid-from"
                />
                <FormTextInput
                  name="validTo"
                  label={t('validTo')}
                  hint={t('monthDayHint')}
                  placeholder={formatMonthDay('04-30', i18n.language)}
                  testid="plan-valid-to"
                />
              </div>
              {previewSection}
              {fieldMessage('switchPoints') && draft.switchPoints.length === 0 && (
                <p className="text-sm text-red-700">{fieldMessage('switchPoints')}</p>
              )}
              <div className="grid gap-3 lg:grid-cols-2">
                {WEEKDAYS.map((day) => (
                  <div key={day}>{rowList(day, t(`weekdays.${day}`))}</div>
                ))}
              </div>
            </>
          ) : (
            <>
              <DatesEditor dates={dates.value} onChange={dates.onChange} error={fieldMessage('dates')} />
              {previewSection}
              {rowList(null, t('daySwitchPoints'))}
            </>
          )}
        </fieldset>
        <div className="flex flex-wrap justify-end gap-2">
          {plan && (
            <Button variant="danger" onClick={remove} disabled={change.isPending} testid="plan-delete">
              {t('delete')}
            </Button>
          )}
          <Button variant="secondary" onClick={onClose} testid="plan-cancel">
            {t('cancel')}
          </Button>
          <Button
            type="submit"
            loading={change.isPending}
            disabled={disabledReason !== null}
            testid="plan-save"
          >
            {t('save')}
          </Button>
        </div>
      </Form>
      {activationWarning && (
        <ConfirmDialog
          open={confirming !== null}
          onOpenChange={(open) => !open && setConfirming(null)}
          title={activationWarning.title}
          confirmText={t('save')}
          confirmVariant="primary"
          onConfirm={() => (confirming ? store(confirming) : Promise.resolve())}
          testid="plan-activation-confirm"
        >
          <p>{activationWarning.text}</p>
        </ConfirmDialog>
      )}
    </>
  );
}
