/**
 * `/closures` (decision 0051): the company's upcoming and running closures — past ones on
 * request — with name, period in the company's time zone (and how a recurring one repeats, with
 * its next occurrence), heating mode, what they cover and status; an empty list explains what a
 * closure is. Once the company has buildings, a building filter (starting at the navigation's
 * current building, or at a link's `?building=`) lists the closures reaching it. Every member
 * sees them; members who operate create, edit and delete them (the dialog, and a confirmation
 * before deleting).
 */
import type { Closure, ClosureListQuery } from '@heizplan/contracts/closures';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { BuildingFilterSelects } from '../../../components/building-filter-selects.tsx';
import { Button } from '../../../components/ui/button.tsx';
import type { ComboboxOption } from '../../../components/ui/combobox.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { ListEmptyState } from '../../../components/ui/list-empty-state.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { useClock } from '../../../lib/clock.tsx';
import { useCompany } from '../../../lib/company/get-company.ts';
import { useBuildingFilter } from '../../../lib/heating/current-building.ts';
import { modeTemperatures } from '../../../lib/heating/heating-modes.ts';
import { useAllBuildings } from '../../../lib/heating/list-buildings.ts';
import { useAllGroups } from '../../../lib/heating/list-groups.ts';
import { usePageTitle } from '../../../lib/page-title.tsx';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { useCan } from '../../../lib/use-can.ts';
import { useChangeClosure, useClosures } from '../api/closures.ts';
import { type ClosureForm, emptyForm, formOf } from '../closure-form.ts';
import { ClosureDialog } from '../components/closure-dialog.tsx';
import { ClosuresTable } from '../components/closures-table.tsx';

interface DialogState {
  closure: Closure | null;
  initial: ClosureForm;
}

export function ClosuresPage() {
  const { t } = useTranslation('closures');
  usePageTitle(t('title'));
  const clock = useClock();
  const { toast } = useToast();
  const problems = useProblemMessage();
  const company = useCompany();
  const canOperate = useCan('operate');
  const zone = company.data?.time_zone ?? 'Europe/Berlin';
  const temperatures = modeTemperatures(company.data);
  const [includePast, setIncludePast] = useState(false);
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(10);
  const [dialog, setDialog] = useState<DialogState | null>(null);
  const [deleting, setDeleting] = useState<Closure | null>(null);
  const change = useChangeClosure();
  const [search] = useSearchParams();
  const building = useBuildingFilter(() => setPage(1), search.get('building'));

  const query: ClosureListQuery = {
    includePast,
    page,
    size,
    ...(building.buildingId ? { buildingId: building.buildingId } : {}),
  };
  const closures = useClosures(query, { enabled: !building.resolving });
  const groups = useAllGroups();
  const { buildings } = useAllBuildings();
  const groupOptions: ComboboxOption[] = (groups.data?.results ?? []).map((g) => ({
    id: g.id,
    item: g.name,
    testid: `closure-group-${g.id}`,
  }));

  const openNew = () => setDialog({ closure: null, initial: emptyForm(zone, clock()) });
  const openClosure = (closure: Closure) => setDialog({ closure, initial: formOf(closure, zone) });
  const remove = async (closure: Closure) => {
    try {
      await change.mutateAsync({ action: 'delete', closureId: closure.id });
      toast({ type: 'success', title: t('toast.deleted'), testid: 'toast-closure-deleted' });
    } catch (error) {
      toast({
        type: 'error',
        title: t('toast.deleteError'),
        description: problems.reason(error),
        testid: 'toast-closure-error',
      });
    }
  };

  const newButton = canOperate && (
    <Button onClick={openNew} disabled={!company.data} testid="closure-new">
      {t('new')}
    </Button>
  );
  // Filtered by a building, an empty list is that building's, not the company's first.
  const empty = closures.data?.count === 0 && !building.filtered;

  return (
    <section className="mx-auto flex w-full max-w-6xl min-w-0 flex-col gap-4 p-4 sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">{t('title')}</h1>
        {newButton}
      </div>
      <p className="max-w-3xl text-sm text-stone-700">{t('intro')}</p>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:gap-6">
        {building.buildings.length > 0 && (
          <div className="w-full sm:w-72">
            <BuildingFilterSelects filter={building} testid="closures" />
          </div>
        )}
        <label className="flex items-center gap-2 self-start text-sm sm:self-auto">
          <input
            type="checkbox"
            checked={includePast}
            onChange={(e) => {
              setIncludePast(e.target.checked);
              setPage(1);
            }}
            data-testid="closures-filter-past"
            className="size-4 accent-brand-600"
          />
          {t('showPast')}
        </label>
      </div>
      {closures.isPending || !company.data ? (
        <div className="flex justify-center py-16">
          <Spinner loading size="lg" testid="closures-loading" />
        </div>
      ) : closures.isError ? (
        <p role="alert" className="rounded-lg bg-red-50 p-4 text-red-800" data-testid="closures-error">
          {t('loadError')}
        </p>
      ) : empty ? (
        <ListEmptyState
          title={includePast ? t('empty.titleAll') : t('empty.title')}
          paragraphs={[t('empty.what'), t('empty.modes')]}
          create={canOperate ? { label: t('empty.create'), onClick: openNew } : undefined}
          readOnlyText={t('readOnlyRole')}
          testid="closures"
        />
      ) : (
        <ClosuresTable
          data={closures.data}
          zone={zone}
          temperatures={temperatures}
          loading={closures.isFetching && closures.isPlaceholderData}
          emptyText={building.filtered ? t(includePast ? 'emptyBuildingAll' : 'emptyBuilding') : undefined}
          onEdit={canOperate ? openClosure : undefined}
          onDelete={canOperate ? setDeleting : undefined}
          onPageChange={setPage}
          onSizeChange={(nextSize, nextPage) => {
            setSize(nextSize);
            setPage(nextPage);
          }}
        />
      )}
      {dialog && (
        <ClosureDialog
          open
          onOpenChange={(open) => {
            if (!open) setDialog(null);
          }}
          closure={dialog.closure}
          initial={dialog.initial}
          zone={zone}
          temperatures={temperatures}
          groupOptions={groupOptions}
          buildings={buildings}
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
          testid="closure-delete-dialog"
        >
          <p>{t('confirmDelete.text', { name: deleting.name })}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
