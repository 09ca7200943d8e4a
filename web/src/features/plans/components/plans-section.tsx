/**
 * The plans of one unit or group (spec §2): the list with kind, validity and state, buttons to
 * add a seasonal or a specific-days plan, and the plan editor for the chosen one. Used by the
 * unit detail and by the groups screen; `disabledReason` (group plans unavailable while a
 * member unit has its own active plan) disables adding and editing and is shown.
 */
import type { Plan } from '@heizplan/contracts/heating';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useCan } from '../../../lib/use-can.ts';
import { type PlanOwner, usePlans } from '../api/list-plans.ts';
import { draftOf, type PlanDraft, type PlanKind, templateDraft } from '../plan-draft.ts';
import { PlanEditor, type PlanEditorProps } from './plan-editor.tsx';

type Editing = { plan: Plan | null; initial: PlanDraft; key: string } | null;

export interface PlansSectionProps {
  owner: PlanOwner;
  preview: PlanEditorProps['preview'];
  disabledReason?: string | null;
}

export function PlansSection({ owner, preview, disabledReason = null }: PlansSectionProps) {
  const { t } = useTranslation('plans');
  const plans = usePlans(owner);
  const [editing, setEditing] = useState<Editing>(null);
  // Members who only read see the plans without editing them (decision 0022).
  const canOperate = useCan('operate');

  const startNew = (kind: PlanKind) =>
    setEditing({
      plan: null,
      initial: templateDraft(kind, t(`defaultName.${kind}`)),
      key: `new-${kind}-${Date.now()}`,
    });
  const coverage = (plan: Plan) =>
    plan.kind === 'seasonal'
      ? t('coverageSeasonal', { from: plan.validFrom, to: plan.validTo })
      : t('coverageDays', { count: plan.dates?.length ?? 0 });

  return (
    <div className="flex flex-col gap-4" data-testid="plans-section">
      {disabledReason && !editing && (
        <p
          role="status"
          className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900"
          data-testid="plans-disabled-reason"
        >
          {disabledReason}
        </p>
      )}
      {plans.isPending ? (
        <Spinner loading testid="plans-loading" />
      ) : (
        <ul
          className="flex flex-col divide-y divide-stone-100 rounded-lg border border-stone-200"
          data-testid="plans-list"
        >
          {plans.data?.length === 0 && <li className="p-3 text-sm text-stone-600">{t('none')}</li>}
          {plans.data?.map((plan) => (
            <li
              key={plan.id}
              className="flex flex-wrap items-center justify-between gap-2 p-3"
              data-testid={`plan-${plan.id}`}
            >
              <div className="min-w-0">
                <p className="font-medium">{plan.name || t(`kinds.${plan.kind}`)}</p>
                <p className="text-sm text-stone-600">
                  {t(`kinds.${plan.kind}`)} · {coverage(plan)} ·{' '}
                  {t(plan.active ? 'activeState' : 'inactiveState')}
                </p>
              </div>
              {canOperate && (
                <Button
                  variant="secondary"
                  size="sm"
                  onClick={() => setEditing({ plan, initial: draftOf(plan), key: plan.id })}
                  aria-label={t('editLabel', { name: plan.name || t(`kinds.${plan.kind}`) })}
                  testid={`plan-edit-${plan.id}`}
                >
                  {t('edit')}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {!editing && canOperate && (
        <div className="flex flex-wrap gap-2">
          <Button
            variant="secondary"
            onClick={() => startNew('seasonal')}
            disabled={disabledReason !== null}
            testid="plan-new-seasonal"
          >
            {t('newSeasonal')}
          </Button>
          <Button
            variant="secondary"
            onClick={() => startNew('specific_days')}
            disabled={disabledReason !== null}
            testid="plan-new-specific-days"
          >
            {t('newSpecificDays')}
          </Button>
        </div>
      )}
      {editing && (
        <div className="-mx-2 rounded-xl border border-brand-200 bg-stone-50 p-3 sm:mx-0 sm:p-4">
          <h3 className="mb-3 font-semibold">{editing.plan ? t('editTitle') : t('newTitle')}</h3>
          <PlanEditor
            key={editing.key}
            owner={owner}
            plan={editing.plan}
            initial={editing.initial}
            preview={preview}
            disabledReason={disabledReason}
            onClose={() => setEditing(null)}
          />
        </div>
      )}
    </div>
  );
}
