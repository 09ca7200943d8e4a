/**
 * `/settings/company` (spec §2 settings company): the company's temperature range (min/max °C,
 * every setpoint and switch point is kept inside it), its IANA time zone (plans and logs
 * use it), how many hours an occupant's change on the QR page holds at most (issue 7), and
 * whether invites name a role with the default role for new members (spec §6, issue 12), saved
 * with `PATCH /api/companies/{id}/`; success and error toasts. Members who are not admins see
 * the settings without controls to change them (decision 0022); everybody may create or join
 * another company. The heat source of the buildings (spec §3 "energy media setting") is kept for
 * energy reporting; "not specified" sends null.
 */
import {
  type Company,
  ENERGY_MEDIA,
  type EnergyMedia,
  OCCUPANT_CHANGE_MAX_HOURS,
  type Role,
} from '@heizplan/contracts/account';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SettingsCard } from '../../../components/settings-card.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Combobox } from '../../../components/ui/combobox.tsx';
import { Field, TextInput } from '../../../components/ui/field.tsx';
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
  const [min, setMin] = useState(String(company.min_temperature));
  const [max, setMax] = useState(String(company.max_temperature));
  const [zone, setZone] = useState<string | null>(company.time_zone);
  const [occupantHours, setOccupantHours] = useState(company.occupant_change_max_hours?.toString() ?? '');
  const [roleChoice, setRoleChoice] = useState(company.invite_role_choice);
  const [defaultRole, setDefaultRole] = useState<Role>(company.default_invite_role);
  const [energyMedia, setEnergyMedia] = useState<EnergyMedia | null>(company.energy_media);
  const update = useUpdateCompany();
  const zones = useMemo(() => timeZones(company.time_zone), [company.time_zone]);
  const fieldError = (field: string) => problems.field(update.error, field);
  const minValue = Number(min.replace(',', '.'));
  const maxValue = Number(max.replace(',', '.'));
  const orderError = min !== '' && max !== '' && minValue >= maxValue ? t('minBelowMax') : undefined;
  const hours = occupantHours.trim() === '' ? null : Number(occupantHours);
  const hoursError =
    hours !== null && !(Number.isInteger(hours) && hours >= 1 && hours <= OCCUPANT_CHANGE_MAX_HOURS)
      ? t('occupantLimitRange')
      : undefined;

  return (
    <form
      className="grid gap-4 sm:grid-cols-2"
      onSubmit={(event) => {
        event.preventDefault();
        update.mutate(
          {
            min_temperature: minValue,
            max_temperature: maxValue,
            occupant_change_max_hours: hours,
            invite_role_choice: roleChoice,
            default_invite_role: defaultRole,
            energy_media: energyMedia,
            ...(zone ? { time_zone: zone } : {}),
          },
          {
            onSuccess: () => toast({ type: 'success', title: t('saved'), testid: 'toast-company-saved' }),
            onError: (error) =>
              toast({
                type: 'error',
                title: t('saveError'),
                description: problems.reason(error),
                testid: 'toast-company-error',
              }),
          },
        );
      }}
    >
      <fieldset disabled={readOnly} className="contents">
        <TextInput
          label={t('min')}
          type="number"
          step={0.5}
          value={min}
          onChange={(event) => setMin(event.target.value)}
          error={orderError ?? fieldError('min_temperature')}
          required
          testid="company-min"
        />
        <TextInput
          label={t('max')}
          type="number"
          step={0.5}
          value={max}
          onChange={(event) => setMax(event.target.value)}
          error={fieldError('max_temperature')}
          required
          testid="company-max"
        />
        <div className="sm:col-span-2">
          <Combobox
            label={t('timeZone')}
            value={zone}
            onChange={setZone}
            error={fieldError('time_zone')}
            testid="company-time-zone"
            options={zones.map((z) => ({ id: z, item: z, testid: `company-time-zone-${z}` }))}
          />
        </div>
        <div className="sm:col-span-2">
          <Field label={t('energyMedia')} hint={t('energyMediaHint')} testid="company-energy-media-field">
            {(control) => (
              <Select
                {...control}
                value={energyMedia ?? ''}
                onChange={(next) => setEnergyMedia(isEnergyMedia(next) ? next : null)}
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
          </Field>
        </div>
        <div className="sm:col-span-2">
          <TextInput
            label={t('occupantLimit')}
            type="number"
            min={1}
            max={OCCUPANT_CHANGE_MAX_HOURS}
            step={1}
            value={occupantHours}
            onChange={(event) => setOccupantHours(event.target.value)}
            hint={t('occupantLimitHint')}
            error={hoursError ?? fieldError('occupant_change_max_hours')}
            testid="company-occupant-limit"
          />
        </div>
        <label className="flex items-center gap-3 text-sm sm:col-span-2">
          <input
            type="checkbox"
            checked={roleChoice}
            onChange={(event) => setRoleChoice(event.target.checked)}
            className="size-5 accent-brand-600"
            data-testid="company-invite-role-choice"
          />
          {t('inviteRoleChoice')}
        </label>
        <Field
          label={t('defaultInviteRole')}
          hint={t('defaultInviteRoleHint')}
          testid="company-default-role-field"
        >
          {(control) => (
            <Select
              {...control}
              value={defaultRole}
              onChange={(next) => isRole(next) && setDefaultRole(next)}
              options={roleOptions(t, 'company-default-role')}
              testid="company-default-role"
            />
          )}
        </Field>
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
            disabled={orderError !== undefined || hoursError !== undefined || !min || !max}
            testid="company-save"
          >
            {t('save')}
          </Button>
        </div>
      )}
    </form>
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
