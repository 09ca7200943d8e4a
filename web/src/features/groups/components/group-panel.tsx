/**
 * One group on the groups screen: rename, delete, its rooms' occupant limits, members and group
 * plans. No group plan can
 * be added while a member unit has its own active plan (spec §2 "Groups"); the plans slot gets
 * those units' names to say so. The preview runs on the group's first unit. The plan editor
 * belongs to the plans feature, so the screen renders it through `renderPlans`.
 */
import { type Group, GroupUpdateSchema } from '@heizplan/contracts/heating';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import {
  OccupantLimitFields,
  occupantLimitFormFields,
  useOccupantLimitWording,
} from '../../../components/occupant-limit-fields.tsx';
import { SettingsCard } from '../../../components/settings-card.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogClose } from '../../../components/ui/dialog.tsx';
import {
  applyServerErrors,
  Form,
  FormError,
  FormTextInput,
  useContractForm,
} from '../../../components/ui/form.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { numberInputText, useHeatingFormat } from '../../../lib/format.ts';
import { useUnits } from '../../../lib/heating/list-units.ts';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { useCan } from '../../../lib/use-can.ts';
import { useChangeGroup } from '../api/group-mutations.ts';
import { GroupMembers } from './group-members.tsx';

/** What the group's plan editor needs to know about the group. */
export interface GroupPlansSlot {
  groupId: string;
  /** The unit whose preview stands for the group's, or null while the group has no members. */
  previewUnitId: string | null;
  /** Units of the group with an own active plan (no new group plan then); empty when none. */
  blockedBy: string[];
}

export interface GroupPanelProps {
  group: Group;
  onDeleted: () => void;
  renderPlans: (slot: GroupPlansSlot) => ReactNode;
}

const occupantLimitsSchema = z.object(occupantLimitFormFields);

/**
 * The group's occupant limits (decision 0066): a form for members who operate, the values in
 * words for the others. Empty takes the room's building's, then the company's.
 */
function GroupOccupantLimits({ group, canOperate }: { group: Group; canOperate: boolean }) {
  const { t, i18n } = useTranslation('groups');
  const problems = useProblemMessage();
  const { toast } = useToast();
  const format = useHeatingFormat();
  const wording = useOccupantLimitWording();
  const change = useChangeGroup();
  const form = useContractForm(occupantLimitsSchema, {
    defaultValues: {
      occupantMaxTemperature: numberInputText(group.occupantMaxTemperature, i18n.language),
      occupantBand: numberInputText(group.occupantBand, i18n.language),
    },
    wording: (issue) => wording(issue.path[0]),
  });
  if (!canOperate) {
    return (
      <SettingsCard title={t('occupants.title')} testid="group-occupants-card">
        <p className="text-sm text-stone-700">
          {group.occupantMaxTemperature === null && group.occupantBand === null
            ? t('occupants.inherited')
            : t('occupants.own', {
                ceiling:
                  group.occupantMaxTemperature === null
                    ? t('occupants.asBuilding')
                    : format.celsius(group.occupantMaxTemperature),
                band:
                  group.occupantBand === null
                    ? t('occupants.asBuilding')
                    : `${format.plain(group.occupantBand)} K`,
              })}
        </p>
      </SettingsCard>
    );
  }
  return (
    <SettingsCard title={t('occupants.title')} testid="group-occupants-card">
      <Form
        form={form}
        onSubmit={(limits) =>
          change.mutate(
            { action: 'occupantLimits', groupId: group.id, ...limits },
            {
              onSuccess: () => toast({ type: 'success', title: t('occupants.saved') }),
              onError: (error) => applyServerErrors(form, error, problems, { fallback: t('changeError') }),
            },
          )
        }
        className="flex flex-col gap-3"
      >
        <OccupantLimitFields inherits="building" testid="group-occupants" legendHidden />
        <FormError testid="group-occupants-error" />
        <Button
          type="submit"
          variant="secondary"
          className="self-start"
          loading={change.isPending}
          testid="group-occupants-save"
        >
          {t('occupants.save')}
        </Button>
      </Form>
    </SettingsCard>
  );
}

export function GroupPanel({ group, onDeleted, renderPlans }: GroupPanelProps) {
  const { t } = useTranslation('groups');
  const problems = useProblemMessage();
  const { toast } = useToast();
  const canOperate = useCan('operate');
  const form = useContractForm(GroupUpdateSchema, { defaultValues: { name: group.name } });
  const name = form.watch('name') ?? '';
  const change = useChangeGroup();
  const firstMember = useUnits({ groupId: group.id, size: 1 }).data?.results[0];
  const blockedBy = group.groupPlansAvailable ? [] : group.blockingUnits.map((u) => u.name);

  return (
    <div className="flex flex-col gap-6" data-testid={`group-panel-${group.id}`}>
      {!canOperate && (
        <h2 className="text-lg font-semibold text-ink" data-testid="group-title">
          {group.name}
        </h2>
      )}
      {canOperate && (
        <SettingsCard title={group.name} testid="group-settings">
          <Form
            form={form}
            onSubmit={(patch) =>
              change.mutate(
                { action: 'rename', groupId: group.id, name: patch.name ?? name },
                {
                  onSuccess: () => toast({ type: 'success', title: t('renamed') }),
                  // A problem without a field (e.g. no right to) shows under the name too.
                  onError: (error) => applyServerErrors(form, error, problems, { restOn: 'name' }),
                },
              )
            }
            className="flex flex-wrap items-start gap-2"
          >
            <div className="min-w-56 flex-1 sm:max-w-sm">
              <FormTextInput name="name" label={t('name')} testid="group-name" />
            </div>
            <Button type="submit" variant="secondary" className="sm:mt-7" testid="group-rename">
              {t('rename')}
            </Button>
            <Dialog
              title={t('deleteTitle', { name: group.name })}
              description={t('deleteText')}
              testid="group-delete-dialog"
              trigger={
                <Button variant="danger" className="sm:mt-7" testid="group-delete">
                  {t('delete')}
                </Button>
              }
              footer={
                <>
                  <DialogClose>
                    <Button variant="secondary">{t('cancel')}</Button>
                  </DialogClose>
                  <Button
                    variant="danger"
                    loading={change.isPending}
                    testid="group-delete-confirm"
                    onClick={() =>
                      change.mutate(
                        { action: 'delete', groupId: group.id },
                        {
                          onSuccess: () => {
                            toast({ type: 'success', title: t('deleted') });
                            onDeleted();
                          },
                          onError: () => toast({ type: 'error', title: t('changeError') }),
                        },
                      )
                    }
                  >
                    {t('delete')}
                  </Button>
                </>
              }
            />
          </Form>
        </SettingsCard>
      )}
      <GroupOccupantLimits group={group} canOperate={canOperate} />
      <SettingsCard title={t('members')} testid="group-members-card">
        <GroupMembers group={group} />
      </SettingsCard>
      <SettingsCard title={t('plans')} description={t('plansHint')} testid="group-plans">
        {renderPlans({ groupId: group.id, previewUnitId: firstMember?.id ?? null, blockedBy })}
      </SettingsCard>
    </div>
  );
}
