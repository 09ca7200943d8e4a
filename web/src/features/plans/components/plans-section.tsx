/**
 * The plans of one unit or group (spec §2): the list with kind, validity and state, buttons to
 * add a seasonal or a specific-days plan, and the plan editor for the chosen one. Used by the
 * unit detail and by the groups screen.
 *
 * A unit's own active plan overrides its group's plans for that unit only, and while it is
 * active no group plan of that group can be added or kept active (spec §2 "Groups"). So the
 * group's section names the units with their own plan, says which group plans still run the
 * other units and why nothing can be added; the unit's section says that its own plan
 * overrides the group's, and asks before saving the plan that starts blocking the group.
 */
import type { Plan } from '@heizplan/contracts/heating';
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { formatMonthDay } from '../../../lib/format.ts';
import { useCan } from '../../../lib/use-can.ts';
import { type PlanOwner, usePlans } from '../api/list-plans.ts';
import { draftOf, type PlanDraft, type PlanKind, templateDraft } from '../plan-draft.ts';
import { PlanEditor, type PlanEditorProps } from './plan-editor.tsx';

type Editing = { plan: Plan | null; initial: PlanDraft; key: string } | null;

export interface PlansSectionProps {
  owner: PlanOwner;
  preview: PlanEditorProps['preview'];
  /** A group's section: the names of its units with an own active plan (group plans then blocked). */
  blockedBy?: readonly string[];
  /** A unit's section: the unit's name and its group, null without one. */
  unit?: { name: string; group: string | null };
}

/** "„A“, „B“" in German, "“A”, “B”" in English. */
const quoted = (names: readonly string[], open: string, close: string) =>
  names.map((name) => `${open}${name}${close}`).join(', ');

/** React keys of new plans' editors: a fresh one per start remounts the editor (no time involved). */
let editorKeys = 0;
const nextEditorKey = () => ++editorKeys;

export function PlansSection({ owner, preview, blockedBy = [], unit }: PlansSectionProps) {
  const { t, i18n } = useTranslation('plans');
  const plans = usePlans(owner);
  const [editing, setEditingState] = useState<Editing>(null);
  const sectionRef = useRef<HTMLDivElement>(null);
  const editorTitle = useRef<HTMLHeadingElement>(null);
  /** The control the editor was opened from (its test id): focus goes back there on close. */
  const openedFrom = useRef<string | null>(null);
  const setEditing = (next: Editing, from?: string) => {
    if (next && from) openedFrom.current = from;
    setEditingState(next);
  };
  // The open editor takes focus at its title; closed (saved, cancelled, Escape), focus goes back to
  // the button that opened it, rendered anew meanwhile — not to the page's body (WCAG 2.4.3).
  useEffect(() => {
    if (editing) {
      editorTitle.current?.focus();
      return;
    }
    const from = openedFrom.current;
    openedFrom.current = null;
    if (from) sectionRef.current?.querySelector<HTMLElement>(`[data-testid="${from}"]`)?.focus();
  }, [editing]);
  /** Escape closes the editor as "Abbrechen" does, unless a popup or dialog inside it owns the key. */
  const escapeCloses = (event: KeyboardEvent) => {
    const target = event.target as Element;
    if (event.key !== 'Escape' || event.defaultPrevented) return;
    // A combobox's open list, or a dialog opened from the editor (a portal: its keys reach the
    // editor through React, though it is not inside it), keeps its Escape.
    if (target.getAttribute('aria-expanded') === 'true') return;
    const dialog = target.closest('[role="dialog"]');
    if (dialog && !dialog.contains(event.currentTarget)) return;
    event.preventDefault();
    setEditing(null);
  };
  // Members who only read see the plans without editing them (decision 0022).
  const canOperate = useCan('operate');
  const nameOf = (plan: Plan) => plan.name || t(`kinds.${plan.kind}`);
  const activePlans = (plans.data ?? []).filter((plan) => plan.active);

  const blocked = blockedBy.length > 0;
  const blockedReason = blocked
    ? [
        t('group.ownPlans', { count: blockedBy.length, units: blockedBy.join(', ') }),
        plans.data === undefined
          ? null
          : activePlans.length > 0
            ? t('group.stillApplies', {
                count: activePlans.length,
                plans: quoted(activePlans.map(nameOf), t('quote.open'), t('quote.close')),
              })
            : t('group.noneActive'),
        t('group.why'),
      ]
        .filter(Boolean)
        .join(' ')
    : null;
  const group = unit?.group ?? null;
  // This unit's own active plan is what overrides the group's plans (and blocks new ones).
  const overrideNote =
    group !== null && activePlans.length > 0 ? t('unit.overrides', { group, unit: unit?.name }) : null;
  // Saving an active plan while none is active yet starts blocking the group's plans.
  const activationWarning =
    group !== null && plans.data !== undefined && activePlans.length === 0
      ? { title: t('unit.confirmTitle'), text: t('unit.confirmText', { group, unit: unit?.name }) }
      : null;

  const startNew = (kind: PlanKind) =>
    setEditing(
      {
        plan: null,
        initial: templateDraft(kind, t(`defaultName.${kind}`), i18n.language),
        key: `new-${kind}-${nextEditorKey()}`,
      },
      kind === 'seasonal' ? 'plan-new-seasonal' : 'plan-new-specific-days',
    );
  const coverage = (plan: Plan) =>
    plan.kind === 'seasonal'
      ? t('coverageSeasonal', {
          from: formatMonthDay(plan.validFrom ?? '', i18n.language),
          to: formatMonthDay(plan.validTo ?? '', i18n.language),
        })
      : t('coverageDays', { count: plan.dates?.length ?? 0 });

  return (
    <div ref={sectionRef} className="flex flex-col gap-4" data-testid="plans-section">
      {blockedReason && !editing && (
        <p
          role="status"
          className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900"
          data-testid="plans-disabled-reason"
        >
          {blockedReason}
        </p>
      )}
      {overrideNote && (
        <p role="status" className="rounded-lg bg-brand-50 p-3 text-sm text-ink" data-testid="plans-override">
          {overrideNote}
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
                <p className="font-medium">{nameOf(plan)}</p>
                <p className="text-sm text-stone-600">
                  {t(`kinds.${plan.kind}`)} · {coverage(plan)} ·{' '}
                  {t(plan.active ? 'activeState' : 'inactiveState')}
                </p>
              </div>
              {canOperate && (
                <Button
                  variant="secondary"
                  size="sm"
                  onClick={() =>
                    setEditing(
                      { plan, initial: draftOf(plan, i18n.language), key: plan.id },
                      `plan-edit-${plan.id}`,
                    )
                  }
                  aria-label={t('editLabel', { name: nameOf(plan) })}
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
            disabled={blocked}
            testid="plan-new-seasonal"
          >
            {t('newSeasonal')}
          </Button>
          {/* Its label may wrap: on one line it is 4 px wider than a 320 px screen (WCAG 1.4.10). */}
          <Button
            variant="secondary"
            onClick={() => startNew('specific_days')}
            disabled={blocked}
            multiline
            testid="plan-new-specific-days"
          >
            {t('newSpecificDays')}
          </Button>
        </div>
      )}
      {editing && (
        // biome-ignore lint/a11y/noStaticElementInteractions: Escape from any field of the editor closes it, as "Abbrechen" does
        <div
          className="-mx-2 rounded-xl border border-brand-200 bg-stone-50 p-3 sm:mx-0 sm:p-4"
          onKeyDown={escapeCloses}
        >
          <h3 ref={editorTitle} tabIndex={-1} className="mb-3 font-semibold focus:outline-none">
            {editing.plan ? t('editTitle') : t('newTitle')}
          </h3>
          <PlanEditor
            key={editing.key}
            owner={owner}
            plan={editing.plan}
            initial={editing.initial}
            preview={preview}
            disabledReason={blockedReason}
            activationWarning={activationWarning}
            onClose={() => setEditing(null)}
          />
        </div>
      )}
    </div>
  );
}
