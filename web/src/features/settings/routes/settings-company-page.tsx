/**
 * `/settings/company` (spec §2 settings company): the company's temperature range (min/max °C,
 * every setpoint and switch point is kept inside it), its IANA time zone (plans and logs
 * use it), how many hours an occupant's change on the QR page holds at most, and
 * whether invites name a role with the default role for new members (spec §6), saved
 * with `PATCH /api/companies/{id}/`; success and error toasts. Members who are not admins see
 * the settings without controls to change them (decision 0022); everybody may create or join
 * another company. The heat source of the buildings (spec §3 "energy media setting") is kept for
 * energy reporting; "not specified" sends null.
 */
import {
  type Company,
  CompanyPatchBodySchema,
  ENERGY_MEDIA,
  type EnergyMedia,
  type Role,
} from '@heizplan/contracts/account';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
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
import { useCompany } from '../../../lib/company/get-company.ts';
import { useUpdateCompany } from '../../../lib/company/update-company.ts';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { isRole, roleOptions } from '../../../lib/roles.ts';
import { useCan } from '../../../lib/use-can.ts';

const isEnergyMedia = (value: string): value is EnergyMedia =>
  (ENERGY_MEDIA as readonly string[]).includes(value);

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
  // Said while typing (spec §5), and the save button waits for valid values.
  const form = useContractForm(CompanyPatchBodySchema, {
    mode: 'onChange',
    defaultValues: {
      min_temperature: company.min_temperature,
      max_temperature: company.max_temperature,
      time_zone: company.time_zone,
      occupant_change_max_hours: company.occupant_change_max_hours,
      invite_role_choice: company.invite_role_choice,
      default_invite_role: company.default_invite_role,
      energy_media: company.energy_media,
    },
    units: { min_temperature: '°C', max_temperature: '°C' },
    wording: (issue) =>
      issue.path[0] === 'min_temperature' && issue.code === 'custom'
        ? t('minBelowMax')
        : issue.path[0] === 'occupant_change_max_hours'
          ? t('occupantLimitRange')
          : undefined,
  });
  const zone = useFormControl('time_zone', form.control);
  const energyMedia = useFormControl('energy_media', form.control);
  const defaultRole = useFormControl('default_invite_role', form.control);

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
          rules={{ deps: ['max_temperature'] }}
          required
          testid="company-min"
        />
        <FormNumberInput
          name="max_temperature"
          label={t('max')}
          step={0.5}
          rules={{ deps: ['min_temperature'] }}
          required
          testid="company-max"
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
        <div className="sm:col-span-2">
          <FormNumberInput
            name="occupant_change_max_hours"
            label={t('occupantLimit')}
            optional
            hint={t('occupantLimitHint')}
            testid="company-occupant-limit"
          />
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
