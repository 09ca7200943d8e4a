/**
 * `/settings/company` (spec §2 settings company): the company's temperature range (min/max °C,
 * every setpoint and switch point is kept inside it), its IANA time zone (plans and logs
 * use it) and how many hours an occupant's change on the QR page holds at most (issue 7), saved with `PATCH /api/companies/{id}/`; success and error toasts.
 */
import { type Company, OCCUPANT_CHANGE_MAX_HOURS } from '@heizplan/contracts/account';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { Combobox } from '../../../components/ui/combobox.tsx';
import { TextInput } from '../../../components/ui/field.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useCompany } from '../../company/api/get-company.ts';
import { useUpdateCompany } from '../../company/api/update-company.ts';
import { SettingsCard } from '../components/settings-card.tsx';

/** Every IANA zone the browser knows, plus the stored one should the browser lack it. */
function timeZones(current: string): string[] {
  const zones = Intl.supportedValuesOf('timeZone');
  return zones.includes(current) ? zones : [current, ...zones];
}

function CompanyForm({ company }: { company: Company }) {
  const { t } = useTranslation('company');
  const { toast } = useToast();
  const [min, setMin] = useState(String(company.min_temperature));
  const [max, setMax] = useState(String(company.max_temperature));
  const [zone, setZone] = useState<string | null>(company.time_zone);
  const [occupantHours, setOccupantHours] = useState(company.occupant_change_max_hours?.toString() ?? '');
  const update = useUpdateCompany();
  const zones = useMemo(() => timeZones(company.time_zone), [company.time_zone]);
  const fieldError = (field: string) =>
    update.error instanceof ApiError
      ? (update.error.fieldError(field) ?? update.error.fieldError(`body.${field}`))
      : undefined;
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
            ...(zone ? { time_zone: zone } : {}),
          },
          {
            onSuccess: () => toast({ type: 'success', title: t('saved'), testid: 'toast-company-saved' }),
            onError: (error) =>
              toast({
                type: 'error',
                title: t('saveError'),
                description: error instanceof ApiError ? error.detail : undefined,
                testid: 'toast-company-error',
              }),
          },
        );
      }}
    >
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
    </form>
  );
}

export function SettingsCompanyPage() {
  const { t } = useTranslation('company');
  const company = useCompany();
  return (
    <SettingsCard title={t('title')} description={t('description')} testid="settings-company">
      {company.data ? (
        <CompanyForm company={company.data} />
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
