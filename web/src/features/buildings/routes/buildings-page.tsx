/**
 * `/buildings` (decision 0052): the company's buildings with address, federal state, floors,
 * units and how public holidays count; each building's public holidays of a year open from its
 * row. An empty list explains that buildings are optional and what they give (the holidays of
 * the state). Every member sees them; members who operate create, edit and delete them (the
 * dialog, and a confirmation saying the units stay).
 */
import type { Building } from '@heizplan/contracts/buildings';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { ListEmptyState } from '../../../components/ui/list-empty-state.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { useCompany } from '../../../lib/company/get-company.ts';
import { modeTemperatures } from '../../../lib/heating/heating-modes.ts';
import { useBuildings } from '../../../lib/heating/list-buildings.ts';
import { usePageTitle } from '../../../lib/page-title.tsx';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { useCan } from '../../../lib/use-can.ts';
import { useChangeBuilding, useHolidayRegions } from '../api/buildings.ts';
import { type BuildingForm, emptyForm, formOf } from '../building-form.ts';
import { BuildingDialog } from '../components/building-dialog.tsx';
import { BuildingsTable } from '../components/buildings-table.tsx';
import { HolidaysDialog } from '../components/holidays-dialog.tsx';
import { holidayLanguage } from '../federal-states.ts';

interface DialogState {
  building: Building | null;
  initial: BuildingForm;
}

export function BuildingsPage() {
  const { t, i18n } = useTranslation('buildings');
  usePageTitle(t('title'));
  const { toast } = useToast();
  const problems = useProblemMessage();
  const company = useCompany();
  const canOperate = useCan('operate');
  const zone = company.data?.time_zone ?? 'Europe/Berlin';
  const temperatures = modeTemperatures(company.data);
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(10);
  const [dialog, setDialog] = useState<DialogState | null>(null);
  const [holidaysOf, setHolidaysOf] = useState<Building | null>(null);
  const [deleting, setDeleting] = useState<Building | null>(null);
  const change = useChangeBuilding();
  const buildings = useBuildings({ page, size });
  const regions = useHolidayRegions(holidayLanguage(i18n.language));

  const openNew = () => setDialog({ building: null, initial: emptyForm() });
  const openBuilding = (building: Building) =>
    setDialog({ building, initial: formOf(building, i18n.language) });
  const remove = async (building: Building) => {
    try {
      await change.mutateAsync({ action: 'delete', buildingId: building.id });
      toast({ type: 'success', title: t('toast.deleted'), testid: 'toast-building-deleted' });
    } catch (error) {
      toast({
        type: 'error',
        title: t('toast.deleteError'),
        description: problems.reason(error),
        testid: 'toast-building-error',
      });
    }
  };

  const empty = buildings.data?.count === 0;

  return (
    <section className="mx-auto flex w-full max-w-6xl min-w-0 flex-col gap-4 p-4 sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">{t('title')}</h1>
        {canOperate && (
          <Button onClick={openNew} testid="building-new">
            {t('new')}
          </Button>
        )}
      </div>
      <p className="max-w-3xl text-sm text-stone-700">{t('intro')}</p>
      {buildings.isPending ? (
        <div className="flex justify-center py-16">
          <Spinner loading size="lg" testid="buildings-loading" />
        </div>
      ) : buildings.isError ? (
        <p role="alert" className="rounded-lg bg-red-50 p-4 text-red-800" data-testid="buildings-error">
          {t('loadError')}
        </p>
      ) : empty ? (
        <ListEmptyState
          title={t('empty.title')}
          paragraphs={[t('empty.optional'), t('empty.what'), t('empty.holidays')]}
          create={canOperate ? { label: t('empty.create'), onClick: openNew } : undefined}
          readOnlyText={t('readOnlyRole')}
          testid="buildings"
        />
      ) : (
        <BuildingsTable
          data={buildings.data}
          regions={regions.data}
          loading={buildings.isFetching && buildings.isPlaceholderData}
          onHolidays={setHolidaysOf}
          onEdit={canOperate ? openBuilding : undefined}
          onDelete={canOperate ? setDeleting : undefined}
          onPageChange={setPage}
          onSizeChange={(nextSize, nextPage) => {
            setSize(nextSize);
            setPage(nextPage);
          }}
        />
      )}
      {dialog && (
        <BuildingDialog
          open
          onOpenChange={(open) => {
            if (!open) setDialog(null);
          }}
          building={dialog.building}
          initial={dialog.initial}
          zone={zone}
          temperatures={temperatures}
        />
      )}
      {holidaysOf && (
        <HolidaysDialog
          building={holidaysOf}
          onClose={() => setHolidaysOf(null)}
          zone={zone}
          temperatures={temperatures}
          canOperate={canOperate}
        />
      )}
      {deleting && (
        <ConfirmDialog
          open
          onOpenChange={(open) => {
            if (!open) setDeleting(null);
          }}
          title={t('confirmDelete.title')}
          confirmText={t('confirmDelete.confirm')}
          onConfirm={() => remove(deleting)}
          testid="building-delete-dialog"
        >
          <p>{t('confirmDelete.text', { name: deleting.name })}</p>
          <p className="mt-2">
            {deleting.unitCount === 0
              ? t('confirmDelete.noUnits')
              : t('confirmDelete.units', { count: deleting.unitCount })}
          </p>
          {deleting.unitCount > 0 && deleting.publicHolidays === 'closure' && (
            <p className="mt-2">{t('confirmDelete.holidays')}</p>
          )}
        </ConfirmDialog>
      )}
    </section>
  );
}
