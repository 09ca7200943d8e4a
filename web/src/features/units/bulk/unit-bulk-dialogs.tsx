/**
 * The dialogs of the rooms list's bulk edit, one per action, each for the selected units and all
 * or nothing on the server (`bulk-units.ts`). Their own chunk, fetched as a dialog opens: the
 * forms validate with zod, which the units screen's first load leaves out (decision 0045).
 *
 * - Limits: the wall-control limits, which are also what occupants may choose on the room's QR
 *   page — a minimum and a maximum in °C (German decimals: "21,5"), checked before sending as the
 *   server checks a single unit's (inside the company range, spec §5; min not above max), or
 *   removed so the company's safe occupant default applies (decision 0066).
 * - Group: into one group, or out of any.
 * - QR access: enable or disable the QR codes; the company's remaining allowance shows, and an
 *   enable it cannot cover is refused naming how many are free (nothing changes).
 * - Delete: a confirmation naming how many units go, and that their plans, log and QR codes go
 *   with them.
 *
 * Success closes the dialog, says in a toast how many units changed and calls `onDone` (the list
 * clears its selection; the units refetch). A refusal stays in the dialog, under the fields it
 * names or as the form's error.
 */
import {
  temperatureRangeIssue,
  type UnitBulkChanges,
  wallControlOrderIssues,
} from '@heizplan/contracts/heating';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Combobox } from '../../../components/ui/combobox.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import {
  applyServerErrors,
  FormDecimalInput,
  FormError,
  useContractForm,
  useFormControl,
} from '../../../components/ui/form.tsx';
import { FormDialog } from '../../../components/ui/form-dialog.tsx';
import { RadioCards } from '../../../components/ui/radio-cards.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useCompany } from '../../../lib/company/get-company.ts';
import { useAllGroups } from '../../../lib/heating/list-groups.ts';
import { type ProblemMessages, useProblemMessage } from '../../../lib/problem-message.ts';
import { useQrCodes } from '../../../lib/qr-codes.ts';
import { z } from '../../../lib/zod.ts';
import { useBulkUnitAction } from '../api/bulk-units.ts';

export type UnitBulkKind = 'limits' | 'group' | 'qrCode' | 'delete';

export interface UnitBulkDialogProps {
  kind: UnitBulkKind;
  /** The selected units' ids (across pages of the current search). */
  unitIds: string[];
  /** Closed without a change (cancel, Escape) or after one. */
  onClose: () => void;
  /** After a success: the caller clears its selection. */
  onDone: () => void;
}

/** The dialog of `kind`, open while mounted. */
export default function UnitBulkDialog(props: UnitBulkDialogProps) {
  switch (props.kind) {
    case 'limits':
      return <LimitsDialog {...props} />;
    case 'group':
      return <GroupDialog {...props} />;
    case 'qrCode':
      return <QrCodeDialog {...props} />;
    case 'delete':
      return <DeleteDialog {...props} />;
  }
}

type Range = { min: number; max: number };
const LIMIT_FIELDS = ['wallControlMin', 'wallControlMax'] as const;

/**
 * The limits form: `set` needs both numbers inside the company `range` (°C) with min not above
 * max, worded by the server's problem codes; `clear` sends none.
 */
function limitsSchema(range: Range | undefined) {
  return z
    .object({
      mode: z.enum(['set', 'clear']),
      wallControlMin: z.number().nullable(),
      wallControlMax: z.number().nullable(),
    })
    .superRefine((values, ctx) => {
      if (values.mode === 'clear') return;
      for (const field of LIMIT_FIELDS) {
        const value = values[field];
        if (value === null) {
          ctx.addIssue({ code: 'invalid_type', expected: 'number', input: value, path: [field] });
          continue;
        }
        const outside = range ? temperatureRangeIssue(value, range) : null;
        if (outside) {
          ctx.addIssue({
            code: 'custom',
            path: [field],
            // Worded by its code, as the server's answer would be (form.tsx).
            message: outside.code,
            params: { code: outside.code, params: outside.params },
          });
        }
      }
      for (const issue of wallControlOrderIssues(values.wallControlMin, values.wallControlMax)) {
        ctx.addIssue({
          code: 'custom',
          path: [issue.field],
          message: issue.code,
          params: { code: issue.code },
        });
      }
    });
}

/**
 * A refused bulk change in its dialog: under the fields it names, the rest as the form's error.
 * Unknown units (404: deleted meanwhile, or not the company's) are said once, not once per id.
 */
function showRefusal<T extends FieldValues>(
  form: Pick<UseFormReturn<T>, 'setError' | 'getValues'>,
  error: unknown,
  problems: ProblemMessages,
  rename: Readonly<Record<string, string>> = {},
) {
  if (error instanceof ApiError && error.status === 404) {
    form.setError('root.server' as Path<T>, { type: 'server', message: problems.message(error) });
  } else applyServerErrors(form, error, problems, { rename });
}

/** Server field names of a bulk change → the form's. */
const RENAME = { 'changes.wallControlMin': 'wallControlMin', 'changes.wallControlMax': 'wallControlMax' };

function LimitsDialog({ unitIds, onClose, onDone }: UnitBulkDialogProps) {
  const { t, i18n } = useTranslation('units');
  const { toast } = useToast();
  const problems = useProblemMessage();
  const company = useCompany().data;
  const range = company ? { min: company.min_temperature, max: company.max_temperature } : undefined;
  const action = useBulkUnitAction();
  const form = useContractForm(limitsSchema(range), {
    defaultValues: { mode: 'set', wallControlMin: null, wallControlMax: null },
    units: { wallControlMin: '°C', wallControlMax: '°C' },
  });
  const mode = useFormControl('mode', form.control);
  const count = unitIds.length;
  const numbers = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });

  const save = async (values: z.output<ReturnType<typeof limitsSchema>>) => {
    const changes: UnitBulkChanges =
      values.mode === 'clear'
        ? { wallControlMin: null, wallControlMax: null }
        : { wallControlMin: values.wallControlMin, wallControlMax: values.wallControlMax };
    try {
      const changed = await action.mutateAsync({ kind: 'update', unitIds, changes });
      toast({ type: 'success', title: t('bulk.limits.done', { count: changed }), testid: 'toast-bulk-done' });
      onDone();
    } catch (error) {
      showRefusal(form, error, problems, RENAME);
    }
  };

  return (
    <FormDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('bulk.limits.title', { count })}
      form={form}
      onSubmit={save}
      cancelText={t('cancel')}
      submitText={t('bulk.limits.submit')}
      pending={action.isPending}
      testid="bulk-limits"
    >
      <p className="text-sm text-stone-700">{t('bulk.limits.text')}</p>
      <RadioCards
        legend={t('bulk.limits.mode')}
        name="bulk-limits-mode"
        columns={2}
        value={mode.value}
        onChange={(value) => {
          mode.onChange(value);
          if (value === 'clear') form.clearErrors();
        }}
        options={[
          { id: 'set', title: t('bulk.limits.set'), testid: 'bulk-limits-set' },
          {
            id: 'clear',
            title: t('bulk.limits.clear'),
            description: t('bulk.limits.clearHint'),
            testid: 'bulk-limits-clear',
          },
        ]}
        testid="bulk-limits-mode"
      />
      {mode.value === 'set' && (
        <div className="grid gap-4 sm:grid-cols-2">
          <FormDecimalInput
            name="wallControlMin"
            label={t('bulk.limits.min')}
            optional
            // No deps on the maximum: leaving the minimum must not call the still empty maximum
            // missing. The maximum checks the minimum again (the order) when it changes.
            hint={
              range
                ? t('bulk.limits.range', { min: numbers.format(range.min), max: numbers.format(range.max) })
                : undefined
            }
            testid="bulk-limits-min"
          />
          <FormDecimalInput
            name="wallControlMax"
            label={t('bulk.limits.max')}
            optional
            rules={{ deps: ['wallControlMin'] }}
            testid="bulk-limits-max"
          />
        </div>
      )}
      <FormError testid="bulk-limits-error" />
    </FormDialog>
  );
}

const GroupSchema = z.object({ groupId: z.string().nullable() }).superRefine((values, ctx) => {
  if (values.groupId === null) {
    ctx.addIssue({ code: 'invalid_value', values: [], input: null, path: ['groupId'] });
  }
});

/** The combobox's id of "no group": taken out of any group. */
const NO_GROUP = 'none';

function GroupDialog({ unitIds, onClose, onDone }: UnitBulkDialogProps) {
  const { t } = useTranslation('units');
  const { toast } = useToast();
  const problems = useProblemMessage();
  const groups = useAllGroups().data?.results ?? [];
  const action = useBulkUnitAction();
  const form = useContractForm(GroupSchema, { defaultValues: { groupId: null } });
  const group = useFormControl('groupId', form.control);
  const count = unitIds.length;

  const save = async ({ groupId }: { groupId: string | null }) => {
    const target = groupId === NO_GROUP ? null : groupId;
    try {
      const changed = await action.mutateAsync({ kind: 'update', unitIds, changes: { groupId: target } });
      const name = groups.find((g) => g.id === target)?.name;
      toast({
        type: 'success',
        title: name
          ? t('bulk.group.done', { count: changed, group: name })
          : t('bulk.group.doneNone', { count: changed }),
        testid: 'toast-bulk-done',
      });
      onDone();
    } catch (error) {
      showRefusal(form, error, problems, { 'changes.groupId': 'groupId' });
    }
  };

  return (
    <FormDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('bulk.group.title', { count })}
      form={form}
      onSubmit={save}
      cancelText={t('cancel')}
      submitText={t('bulk.apply')}
      pending={action.isPending}
      testid="bulk-group"
    >
      <Combobox
        label={t('fields.group')}
        placeholder={t('bulk.group.placeholder')}
        value={group.value ?? null}
        onChange={(id) => group.onChange(id || null)}
        error={group.error}
        testid="bulk-group-select"
        options={[
          { id: NO_GROUP, item: t('bulk.group.none'), testid: 'bulk-group-none' },
          ...groups.map((g) => ({ id: g.id, item: g.name, testid: `bulk-group-${g.id}` })),
        ]}
      />
      <FormError testid="bulk-group-error" />
    </FormDialog>
  );
}

const QrSchema = z.object({ enabled: z.enum(['on', 'off']) });

function QrCodeDialog({ unitIds, onClose, onDone }: UnitBulkDialogProps) {
  const { t } = useTranslation('units');
  const { toast } = useToast();
  const problems = useProblemMessage();
  const allowance = useQrCodes().data;
  const action = useBulkUnitAction();
  const form = useContractForm(QrSchema, { defaultValues: { enabled: 'on' } });
  const enabled = useFormControl('enabled', form.control);
  const count = unitIds.length;

  const save = async (values: { enabled: 'on' | 'off' }) => {
    try {
      const changed = await action.mutateAsync({ kind: 'qrCode', unitIds, enabled: values.enabled === 'on' });
      toast({
        type: 'success',
        title: t(values.enabled === 'on' ? 'bulk.qr.enabled' : 'bulk.qr.disabled', { count: changed }),
        testid: 'toast-bulk-done',
      });
      onDone();
    } catch (error) {
      showRefusal(form, error, problems);
    }
  };

  return (
    <FormDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('bulk.qr.title', { count })}
      form={form}
      onSubmit={save}
      cancelText={t('cancel')}
      submitText={t('bulk.apply')}
      pending={action.isPending}
      testid="bulk-qr"
    >
      <RadioCards
        legend={t('bulk.qr.legend')}
        name="bulk-qr-enabled"
        columns={2}
        value={enabled.value}
        onChange={enabled.onChange}
        options={[
          {
            id: 'on',
            title: t('bulk.qr.enable'),
            description: t('bulk.qr.enableHint'),
            testid: 'bulk-qr-on',
          },
          {
            id: 'off',
            title: t('bulk.qr.disable'),
            description: t('bulk.qr.disableHint'),
            testid: 'bulk-qr-off',
          },
        ]}
        testid="bulk-qr-mode"
      />
      {allowance && (
        <p className="text-sm text-stone-700" data-testid="bulk-qr-allowance">
          {allowance.unlimited
            ? t('bulk.qr.unlimited')
            : t('bulk.qr.allowance', {
                remaining: allowance.remaining ?? 0,
                allowance: allowance.allowance ?? 0,
              })}
        </p>
      )}
      <FormError testid="bulk-qr-error" />
    </FormDialog>
  );
}

function DeleteDialog({ unitIds, onClose, onDone }: UnitBulkDialogProps) {
  const { t } = useTranslation('units');
  const { toast } = useToast();
  const problems = useProblemMessage();
  const action = useBulkUnitAction();
  const count = unitIds.length;
  const remove = async () => {
    try {
      const deleted = await action.mutateAsync({ kind: 'delete', unitIds });
      toast({ type: 'success', title: t('bulk.delete.done', { count: deleted }), testid: 'toast-bulk-done' });
      onDone();
    } catch (error) {
      toast({ type: 'error', title: t('bulk.delete.error'), description: problems.message(error) });
    }
  };
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('bulk.delete.title', { count })}
      confirmText={t('bulk.delete.confirm', { count })}
      cancelText={t('cancel')}
      onConfirm={remove}
      testid="bulk-delete"
    >
      <p>{t('bulk.delete.text', { count })}</p>
    </ConfirmDialog>
  );
}
