/**
 * `/settings/company` (spec §2 settings company): the company's temperature range (min/max °C,
 * every setpoint and switch point is kept inside it), its IANA time zone (plans and logs
 * use it), how many hours an occupant's change on the QR page holds at most, and
 * whether invites name a role with the default role for new members (spec §6), saved
 * with `PATCH /api/companies/{id}/`; success and error toasts. Members who are not admins see
 * the settings without controls to change them (decision 0022); everybody may create or join
 * another company. The heat source of the buildings (spec §3 "energy media setting") is kept for
 * energy reporting; "not specified" sends null. The economy and standby temperatures are what a
 * closure in those heating modes keeps (decision 0051); they stay within the company's range.
 * Who must sign in with a second factor (decision 0078) is locked, with the reason, while an
 * external issuer owns sign-in.
 */
import {
  type Company,
  CompanyPatchBodySchema,
  ENERGY_MEDIA,
  type EnergyMedia,
  OCCUPANT_BAND_LIMITS,
  OPTIMUM_MAX_LEAD_LIMITS,
  OptimumStartModeSchema,
  REMEMBER_DEVICE_DAYS,
  RememberDeviceDaysSchema,
  type Role,
  SecondFactorPolicySchema,
} from '@heizplan/contracts/account';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { z } from 'zod';
import { SettingsCard } from '../../../components/settings-card.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Combobox } from '../../../components/ui/combobox.tsx';
import {
  applyServerErrors,
  Form,
  FormField,
  FormNumberInput,
  useContractForm,
  useFormControl,
} from '../../../components/ui/form.tsx';
import { Select } from '../../../components/ui/select.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { useSecondFactor } from '../../../lib/account/second-factor.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useCompany } from '../../../lib/company/get-company.ts';
import { useUpdateCompany } from '../../../lib/company/update-company.ts';
import { useHeatingFormat } from '../../../lib/format.ts';
import { modeTemperatures } from '../../../lib/heating/heating-modes.ts';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { isRole, roleOptions } from '../../../lib/roles.ts';
import { useCan } from '../../../lib/use-can.ts';

const isEnergyMedia = (value: string): value is EnergyMedia =>
  (ENERGY_MEDIA as readonly string[]).includes(value);

/**
 * The setpoints of the heating modes (decision 0051) and the occupants' highest temperature
 * (decision 0066), each kept within the company's range.
 */
const IN_RANGE_TEMPERATURES = [
  'frost_protection',
  'economy_temperature',
  'standby_temperature',
  'occupant_max_temperature',
] as const;
type InRangeTemperature = (typeof IN_RANGE_TEMPERATURES)[number];
const isInRangeTemperature = (field: unknown): field is InRangeTemperature =>
  (IN_RANGE_TEMPERATURES as readonly unknown[]).includes(field);

/**
 * The contract's body, and the mode temperatures within the range typed beside
 * them: a `custom` issue with the bound it crossed (`{ bound: 'min' | 'max', limit }`).
 */
const companyFormSchema = CompanyPatchBodySchema.superRefine(
  (body, ctx) => {
    const { min_temperature: min, max_temperature: max } = body;
    for (const field of IN_RANGE_TEMPERATURES) {
      const value = body[field];
      if (typeof value !== 'number' || !Number.isFinite(value)) continue;
      if (typeof min === 'number' && Number.isFinite(min) && value < min)
        ctx.addIssue({ code: 'custom', path: [field], params: { bound: 'min', limit: min } });
      else if (typeof max === 'number' && Number.isFinite(max) && value > max)
        ctx.addIssue({ code: 'custom', path: [field], params: { bound: 'max', limit: max } });
    }
  },
  // Checked while another field is invalid too, so the message shows as soon as it applies.
  { when: ({ value }) => typeof value === 'object' && value !== null },
);
type CompanyFormIssue = z.core.$ZodIssue;

/** Every IANA zone the browser knows, plus the stored one should the browser lack it. */
function timeZones(current: string): string[] {
  const zones = Intl.supportedValuesOf('timeZone');
  return zones.includes(current) ? zones : [current, ...zones];
}

function CompanyForm({ company, readOnly }: { company: Company; readOnly: boolean }) {
  const { t } = useTranslation('company');
  const { toast } = useToast();
  const problems = useProblemMessage();
  const update = useUpdateCompany();
  const zones = useMemo(() => timeZones(company.time_zone), [company.time_zone]);
  const format = useHeatingFormat();
  const celsius = (value: number | bigint) => `${format.plain(Number(value))} °C`;
  /** A mode temperature's message names the field and the limit it crossed. */
  const modeWording = (field: InRangeTemperature, issue: CompanyFormIssue) => {
    const name = t(`modeNames.${field}`);
    if (issue.code === 'custom') {
      const { bound, limit } = (issue.params ?? {}) as { bound?: 'min' | 'max'; limit?: number };
      if (bound && limit !== undefined)
        return t(bound === 'min' ? 'modeBelowMin' : 'modeAboveMax', { field: name, limit: celsius(limit) });
    }
    if (issue.code === 'too_small') return t('modeMin', { field: name, limit: celsius(issue.minimum) });
    if (issue.code === 'too_big') return t('modeMax', { field: name, limit: celsius(issue.maximum) });
    return undefined;
  };
  const keeps = modeTemperatures(company);
  // Said while typing (spec §5), and the save button waits for valid values.
  const form = useContractForm(companyFormSchema, {
    mode: 'onChange',
    defaultValues: {
      min_temperature: company.min_temperature,
      max_temperature: company.max_temperature,
      time_zone: company.time_zone,
      occupant_change_max_hours: company.occupant_change_max_hours,
      occupant_max_temperature: company.occupant_max_temperature,
      occupant_band: company.occupant_band,
      invite_role_choice: company.invite_role_choice,
      default_invite_role: company.default_invite_role,
      energy_media: company.energy_media,
      // What each mode really keeps (clamped to the range): a frost protection stored below a
      // minimum raised later would otherwise block every save of this form.
      frost_protection: keeps.frost,
      economy_temperature: keeps.economy,
      standby_temperature: keeps.standby,
      optimum_start: company.optimum_start,
      optimum_max_lead_minutes: company.optimum_max_lead_minutes,
      second_factor_required: company.second_factor_required,
      remember_device_days: company.remember_device_days,
    },
    units: { min_temperature: '°C', max_temperature: '°C' },
    wording: (issue) =>
      isInRangeTemperature(issue.path[0])
        ? modeWording(issue.path[0], issue)
        : issue.path[0] === 'min_temperature' && issue.code === 'custom'
          ? t('minBelowMax')
          : issue.path[0] === 'occupant_change_max_hours'
            ? t('occupantLimitRange')
            : issue.path[0] === 'occupant_band'
              ? t('occupantBandRange', {
                  min: format.plain(OCCUPANT_BAND_LIMITS.min),
                  max: format.plain(OCCUPANT_BAND_LIMITS.max),
                })
              : issue.path[0] === 'optimum_max_lead_minutes'
                ? t('optimumMaxLeadRange', OPTIMUM_MAX_LEAD_LIMITS)
                : undefined,
  });
  const zone = useFormControl('time_zone', form.control);
  const energyMedia = useFormControl('energy_media', form.control);
  const defaultRole = useFormControl('default_invite_role', form.control);
  const optimumMode = useFormControl('optimum_start', form.control);
  const secondFactorPolicy = useFormControl('second_factor_required', form.control);
  const rememberDays = useFormControl('remember_device_days', form.control);
  // The account API answers 409 when an external issuer owns sign-in (decision 0072): then
  // that issuer decides about second factors, and the choice here is shown but locked.
  const secondFactor = useSecondFactor();
  const externalSignIn = secondFactor.error instanceof ApiError && secondFactor.error.status === 409;

  const save = (patch: Parameters<typeof update.mutate>[0]) =>
    update.mutate(patch, {
      onSuccess: () => toast({ type: 'success', title: t('saved'), testid: 'toast-company-saved' }),
      onError: (error) => {
        applyServerErrors(form, error, problems, { root: false });
        toast({
          type: 'error',
          title: t('saveError'),
          description: problems.reason(error),
          testid: 'toast-company-error',
        });
      },
    });

  return (
    <Form form={form} onSubmit={save} className="grid gap-4 sm:grid-cols-2">
      <fieldset disabled={readOnly} className="contents">
        <FormNumberInput
          name="min_temperature"
          label={t('min')}
          step={0.5}
          rules={{ deps: ['max_temperature', ...IN_RANGE_TEMPERATURES] }}
          required
          testid="company-min"
        />
        <FormNumberInput
          name="max_temperature"
          label={t('max')}
          step={0.5}
          rules={{ deps: ['min_temperature', ...IN_RANGE_TEMPERATURES] }}
          required
          testid="company-max"
        />
        <FormNumberInput
          name="frost_protection"
          label={t('frost')}
          hint={t('frostHint')}
          step={0.5}
          required
          testid="company-frost"
        />
        <FormNumberInput
          name="economy_temperature"
          label={t('economy')}
          hint={t('economyHint')}
          step={0.5}
          required
          testid="company-economy"
        />
        <FormNumberInput
          name="standby_temperature"
          label={t('standby')}
          hint={t('standbyHint')}
          step={0.5}
          required
          testid="company-standby"
        />
        <div className="sm:col-span-2">
          <Combobox
            label={t('timeZone')}
            value={zone.value ?? null}
            onChange={(next) => zone.onChange(next ?? undefined)}
            error={zone.error}
            // Said as well as inherited from the fieldset, so the widget is drawn as disabled.
            disabled={readOnly}
            testid="company-time-zone"
            options={zones.map((z) => ({ id: z, item: z, testid: `company-time-zone-${z}` }))}
          />
        </div>
        <div className="sm:col-span-2">
          <FormField
            name="energy_media"
            label={t('energyMedia')}
            hint={t('energyMediaHint')}
            testid="company-energy-media-field"
          >
            {(control) => (
              <Select
                {...control}
                value={energyMedia.value ?? ''}
                onChange={(next) => energyMedia.onChange(isEnergyMedia(next) ? next : null)}
                options={[
                  { id: '', value: t('energyMediaOptions.none'), testid: 'company-energy-media-none' },
                  ...ENERGY_MEDIA.map((media) => ({
                    id: media,
                    value: t(`energyMediaOptions.${media}`),
                    testid: `company-energy-media-${media}`,
                  })),
                ]}
                testid="company-energy-media"
              />
            )}
          </FormField>
        </div>
        <FormNumberInput
          name="occupant_max_temperature"
          label={t('occupantMax')}
          hint={t('occupantMaxHint')}
          step={0.5}
          required
          testid="company-occupant-max"
        />
        <FormNumberInput
          name="occupant_band"
          label={t('occupantBand')}
          hint={t('occupantBandHint')}
          step={0.5}
          optional
          testid="company-occupant-band"
        />
        <div className="sm:col-span-2">
          <FormNumberInput
            name="occupant_change_max_hours"
            label={t('occupantLimit')}
            optional
            hint={t('occupantLimitHint')}
            testid="company-occupant-limit"
          />
        </div>
        <FormField
          name="optimum_start"
          label={t('optimumStart')}
          hint={t('optimumStartHint')}
          testid="company-optimum-start-field"
        >
          {(control) => (
            <Select
              {...control}
              value={optimumMode.value ?? company.optimum_start}
              onChange={(next) => {
                const mode = OptimumStartModeSchema.safeParse(next);
                if (mode.success) optimumMode.onChange(mode.data);
              }}
              options={OptimumStartModeSchema.options.map((mode) => ({
                id: mode,
                value: t(`optimumStartOptions.${mode}`),
                testid: `company-optimum-start-${mode}`,
              }))}
              testid="company-optimum-start"
            />
          )}
        </FormField>
        <FormNumberInput
          name="optimum_max_lead_minutes"
          label={t('optimumMaxLead')}
          hint={t('optimumMaxLeadHint')}
          step={15}
          required
          testid="company-optimum-max-lead"
        />
        <div className="sm:col-span-2">
          <FormField
            name="second_factor_required"
            label={t('secondFactorRequired')}
            hint={externalSignIn ? t('secondFactorRequiredExternal') : t('secondFactorRequiredHint')}
            testid="company-second-factor-field"
          >
            {(control) => (
              <Select
                {...control}
                disabled={readOnly || externalSignIn}
                value={secondFactorPolicy.value ?? company.second_factor_required}
                onChange={(next) => {
                  const policy = SecondFactorPolicySchema.safeParse(next);
                  if (policy.success) secondFactorPolicy.onChange(policy.data);
                }}
                options={SecondFactorPolicySchema.options.map((policy) => ({
                  id: policy,
                  value: t(`secondFactorRequiredOptions.${policy}`),
                  testid: `company-second-factor-${policy}`,
                }))}
                testid="company-second-factor"
              />
            )}
          </FormField>
        </div>
        <div className="sm:col-span-2">
          <FormField
            name="remember_device_days"
            label={t('rememberDevice')}
            hint={externalSignIn ? t('secondFactorRequiredExternal') : t('rememberDeviceHint')}
            testid="company-remember-device-field"
          >
            {(control) => (
              <Select
                {...control}
                disabled={readOnly || externalSignIn}
                value={String(rememberDays.value ?? company.remember_device_days)}
                onChange={(next) => {
                  const days = RememberDeviceDaysSchema.safeParse(Number(next));
                  if (days.success) rememberDays.onChange(days.data);
                }}
                options={REMEMBER_DEVICE_DAYS.map((days) => ({
                  id: String(days),
                  value: t(`rememberDeviceOptions.${days}`),
                  testid: `company-remember-device-${days}`,
                }))}
                testid="company-remember-device"
              />
            )}
          </FormField>
        </div>
        <label className="flex items-center gap-3 text-sm sm:col-span-2">
          <input
            type="checkbox"
            {...form.register('invite_role_choice')}
            className="size-5 accent-brand-600"
            data-testid="company-invite-role-choice"
          />
          {t('inviteRoleChoice')}
        </label>
        <FormField
          name="default_invite_role"
          label={t('defaultInviteRole')}
          hint={t('defaultInviteRoleHint')}
          testid="company-default-role-field"
        >
          {(control) => (
            <Select
              {...control}
              value={defaultRole.value ?? company.default_invite_role}
              onChange={(next) => isRole(next) && defaultRole.onChange(next as Role)}
              options={roleOptions(t, 'company-default-role')}
              testid="company-default-role"
            />
          )}
        </FormField>
      </fieldset>
      {readOnly ? (
        <p className="text-sm text-stone-700 sm:col-span-2" data-testid="company-read-only">
          {t('readOnly')}
        </p>
      ) : (
        <div className="flex justify-end sm:col-span-2">
          <Button
            type="submit"
            loading={update.isPending}
            disabled={!form.formState.isValid}
            testid="company-save"
          >
            {t('save')}
          </Button>
        </div>
      )}
    </Form>
  );
}

export function SettingsCompanyPage() {
  const { t } = useTranslation('company');
  const company = useCompany();
  const canManage = useCan('manage');
  return (
    <SettingsCard title={t('title')} description={t('description')} testid="settings-company">
      {company.data ? (
        <CompanyForm company={company.data} readOnly={!canManage} />
      ) : company.isError ? (
        <p role="alert" className="text-red-800">
          {t('loadError')}
        </p>
      ) : (
        <Spinner loading testid="company-loading" />
      )}
      <Link
        to="/setup/2?skipGuard=true"
        className="mt-6 inline-block text-sm font-medium text-brand-700 hover:underline"
        data-testid="company-other"
      >
        {t('otherCompany')}
      </Link>
    </SettingsCard>
  );
}
