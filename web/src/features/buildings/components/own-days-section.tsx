/**
 * The company's own days of a building in one year, in the holidays dialog (decision 0052):
 * bridge days and movable days off with their dates and names, and what they do (the holiday
 * mode all day, or the Sunday switch points). A member who may operate adds a day (date and
 * name, on react-hook-form with the contract's schema), imports the days of an ICS file and
 * deletes a day; a member who only reads sees the list.
 */
import {
  type Building,
  type BuildingDayImportResult,
  BuildingDayInputSchema,
} from '@heizplan/contracts/buildings';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import {
  applyServerErrors,
  Form,
  FormError,
  FormTextInput,
  useContractForm,
} from '../../../components/ui/form.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { useBuildingDays, useChangeBuildingDays } from '../api/building-days.ts';
import { formatHolidayDate } from '../holiday-dates.ts';

export interface OwnDaysSectionProps {
  building: Building;
  year: number;
  /** The building's holiday mode in words with its °C. */
  mode: string;
  canOperate: boolean;
}

export function OwnDaysSection({ building, year, mode, canOperate }: OwnDaysSectionProps) {
  const { t, i18n } = useTranslation('buildings');
  const days = useBuildingDays(building.id, year);
  const change = useChangeBuildingDays(building.id);
  const problems = useProblemMessage();
  const { toast } = useToast();
  const file = useRef<HTMLInputElement>(null);
  const form = useContractForm(BuildingDayInputSchema, { defaultValues: { date: '', name: '' } });
  const effect =
    building.publicHolidays === 'sunday' ? t('holidays.effectSunday') : t('holidays.effectClosure', { mode });
  const list = days.data?.results ?? [];

  const failed = (title: string) => (error: unknown) =>
    toast({ type: 'error', title, description: problems.reason(error), testid: 'toast-days-error' });

  const add = (body: { date: string; name: string }) =>
    change.mutate(
      { action: 'add', body },
      {
        onSuccess: () => {
          form.reset({ date: '', name: '' });
          toast({ type: 'success', title: t('ownDays.added'), testid: 'toast-day-added' });
        },
        onError: (error) => applyServerErrors(form, error, problems, { fallback: t('ownDays.addError') }),
      },
    );

  const importFile = async (chosen: File | undefined) => {
    if (!chosen) return;
    const ics = await chosen.text();
    change.mutate(
      { action: 'import', ics },
      {
        onSuccess: (result) => {
          const { imported, skipped } = result as BuildingDayImportResult;
          toast({
            type: 'success',
            title: t('ownDays.imported', { count: imported }),
            description: skipped > 0 ? t('ownDays.skipped', { count: skipped }) : undefined,
            testid: 'toast-days-imported',
          });
        },
        onError: failed(t('ownDays.importError')),
      },
    );
    if (file.current) file.current.value = '';
  };

  return (
    <section className="flex flex-col gap-2" aria-labelledby="own-days-title" data-testid="own-days">
      <h3 id="own-days-title" className="text-sm font-semibold text-ink">
        {t('ownDays.title', { year })}
      </h3>
      <p className="text-xs text-stone-600">{t('ownDays.explain')}</p>
      {list.length === 0 ? (
        <p className="text-sm text-stone-600" data-testid="own-days-none">
          {days.isPending ? t('ownDays.loading') : t('ownDays.none', { year })}
        </p>
      ) : (
        <ul className="flex flex-col divide-y divide-stone-200" aria-label={t('ownDays.title', { year })}>
          {list.map((day) => (
            <li
              key={day.id}
              className="grid items-center gap-x-3 gap-y-0.5 py-2 text-sm sm:grid-cols-[9.5rem_1fr_auto]"
              data-testid={`own-day-${day.date}`}
            >
              <span className="text-stone-700 tabular-nums">
                {formatHolidayDate(day.date, i18n.language)}
              </span>
              <span className="flex flex-col gap-0.5">
                <span className="font-medium text-ink">{day.name}</span>
                <span className="text-sky-800">{effect}</span>
              </span>
              {canOperate && (
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={t('ownDays.deleteLabel', {
                    name: day.name,
                    date: formatHolidayDate(day.date, i18n.language),
                  })}
                  onClick={() =>
                    change.mutate(
                      { action: 'delete', dayId: day.id },
                      {
                        onSuccess: () =>
                          toast({
                            type: 'success',
                            title: t('ownDays.deleted'),
                            testid: 'toast-day-deleted',
                          }),
                        onError: failed(t('ownDays.deleteError')),
                      },
                    )
                  }
                  testid={`own-day-delete-${day.date}`}
                >
                  {t('ownDays.delete')}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {canOperate && (
        <Form form={form} onSubmit={add} className="flex flex-col gap-2" testid="own-day-form">
          <div className="grid gap-2 sm:grid-cols-[10rem_1fr_auto] sm:items-end">
            <FormTextInput name="date" type="date" label={t('ownDays.date')} required testid="own-day-date" />
            <FormTextInput
              name="name"
              label={t('ownDays.name')}
              placeholder={t('ownDays.namePlaceholder')}
              required
              testid="own-day-name"
            />
            <Button type="submit" variant="secondary" loading={change.isPending} testid="own-day-add">
              {t('ownDays.add')}
            </Button>
          </div>
          <FormError testid="own-day-error" />
          <div className="flex flex-wrap items-center gap-2 text-xs text-stone-600">
            <input
              ref={file}
              type="file"
              accept=".ics,text/calendar"
              className="sr-only"
              id={`own-days-ics-${building.id}`}
              onChange={(event) => void importFile(event.target.files?.[0])}
              data-testid="own-days-file"
            />
            <Button variant="ghost" size="sm" onClick={() => file.current?.click()} testid="own-days-import">
              {t('ownDays.import')}
            </Button>
            <span>{t('ownDays.importHint')}</span>
          </div>
        </Form>
      )}
    </section>
  );
}
