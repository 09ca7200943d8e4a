/**
 * `/heating-circuits`: the company's heating circuits (Heizkreise), optionally of one building,
 * each with what its heat generator should do now and why, the rooms that hold the supply
 * temperature up, and a chart. Every member reads them; admins create, change and delete them.
 * An empty list says what a circuit gives and that rooms keep working without one.
 */
import type { HeatingCircuit } from '@heizplan/contracts/heating-circuits';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { ListEmptyState } from '../../../components/ui/list-empty-state.tsx';
import { Select } from '../../../components/ui/select.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { useCompany } from '../../../lib/company/get-company.ts';
import { useAllBuildings } from '../../../lib/heating/list-buildings.ts';
import { usePageTitle } from '../../../lib/page-title.tsx';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { useCan } from '../../../lib/use-can.ts';
import { useChangeCircuit, useHeatingCircuits } from '../api/heating-circuits.ts';
import { type CircuitForm, emptyForm, formOf } from '../circuit-form.ts';
import { CircuitCard } from '../components/circuit-card.tsx';
import { CircuitDialog } from '../components/circuit-dialog.tsx';

interface DialogState {
  circuit: HeatingCircuit | null;
  initial: CircuitForm;
}

export function HeatingCircuitsPage() {
  const { t } = useTranslation('circuits');
  usePageTitle(t('title'));
  const { toast } = useToast();
  const problems = useProblemMessage();
  const company = useCompany();
  const canManage = useCan('manage');
  const zone = company.data?.time_zone ?? 'Europe/Berlin';
  const [buildingId, setBuildingId] = useState<string | null>(null);
  const [dialog, setDialog] = useState<DialogState | null>(null);
  const [deleting, setDeleting] = useState<HeatingCircuit | null>(null);
  const { buildings } = useAllBuildings();
  const circuits = useHeatingCircuits(buildingId);
  const change = useChangeCircuit();
  const buildingName = (id: string) => buildings.find((b) => b.id === id)?.name ?? '—';

  const openNew = () =>
    setDialog({ circuit: null, initial: emptyForm(buildingId ?? buildings[0]?.id ?? null) });
  const remove = async (circuit: HeatingCircuit) => {
    try {
      await change.mutateAsync({ action: 'delete', circuitId: circuit.id });
      toast({ type: 'success', title: t('toast.deleted'), testid: 'toast-circuit-deleted' });
    } catch (error) {
      toast({
        type: 'error',
        title: t('toast.deleteError'),
        description: problems.reason(error),
        testid: 'toast-circuit-error',
      });
    }
  };
  const list = circuits.data?.results ?? [];

  return (
    <section className="mx-auto flex w-full max-w-6xl min-w-0 flex-col gap-4 p-4 sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">{t('title')}</h1>
        {canManage && buildings.length > 0 && <Button onClick={openNew}>{t('new')}</Button>}
      </div>
      <p className="max-w-3xl text-sm text-stone-700">{t('intro')}</p>
      {buildings.length > 1 && (
        <div className="max-w-xs">
          <Field label={t('filter.building')}>
            {(control) => (
              <Select
                {...control}
                value={buildingId ?? ''}
                onChange={(next) => setBuildingId(next === '' ? null : next)}
                options={[
                  { id: '', value: t('filter.all'), testid: 'circuits-building-all' },
                  ...buildings.map((b) => ({ id: b.id, value: b.name, testid: `circuits-building-${b.id}` })),
                ]}
                testid="circuits-building"
              />
            )}
          </Field>
        </div>
      )}
      {circuits.isPending ? (
        <div className="flex justify-center py-16">
          <Spinner loading size="lg" />
        </div>
      ) : circuits.isError ? (
        <p role="alert" className="rounded-lg bg-red-50 p-4 text-red-800">
          {t('loadError')}
        </p>
      ) : list.length === 0 ? (
        <ListEmptyState
          title={t('empty.title')}
          paragraphs={[
            t('empty.what'),
            t('empty.shadow'),
            buildings.length === 0 ? t('empty.noBuildings') : t('empty.optional'),
          ]}
          create={
            canManage && buildings.length > 0 ? { label: t('empty.create'), onClick: openNew } : undefined
          }
          readOnlyText={t('readOnlyRole')}
          testid="circuits"
        />
      ) : (
        <div className="flex flex-col gap-4">
          {list.map((circuit) => (
            <CircuitCard
              key={circuit.id}
              circuit={circuit}
              buildingName={buildingName(circuit.buildingId)}
              timeZone={zone}
              onEdit={canManage ? () => setDialog({ circuit, initial: formOf(circuit) }) : undefined}
              onDelete={canManage ? () => setDeleting(circuit) : undefined}
            />
          ))}
        </div>
      )}
      {dialog && (
        <CircuitDialog
          open
          onOpenChange={(open) => {
            if (!open) setDialog(null);
          }}
          circuit={dialog.circuit}
          initial={dialog.initial}
        />
      )}
      {deleting && (
        <ConfirmDialog
          open
          onOpenChange={(open) => {
            if (!open) setDeleting(null);
          }}
          title={t('delete.title', { name: deleting.name })}
          confirmText={t('delete.confirm')}
          confirmVariant="danger"
          cancelText={t('dialog.cancel')}
          onConfirm={() => remove(deleting)}
          testid="circuit-delete"
        >
          <p>{t('delete.description')}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
