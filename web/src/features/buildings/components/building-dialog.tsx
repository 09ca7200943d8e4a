/**
 * Create/update dialog of a building (decision 0052): name and address (a German postcode has
 * five digits or none), federal state (the 16 by name), holiday region of that state from
 * `/api/holiday-regions` ("keine" by default; choosing another state clears it), the floors as
 * an editable list, and how public holidays count: without effect, or as a closure in a heating
 * mode shown with the temperature it keeps, and the building's coordinates (for its outdoor
 * temperature, decision 0057) with its optional outdoor sensor, and the limits of occupants on
 * its rooms' QR pages (decision 0066; empty = the company's). The form's rules (the contract's) are checked before
 * sending; the server's field errors show under their fields in the user's language, the rest
 * above the buttons; a failed save also shows a toast. Only members who operate open it.
 */
import {
  type Building,
  type FederalState,
  type HolidayTreatment,
  LATITUDE_LIMITS,
  LONGITUDE_LIMITS,
} from '@heizplan/contracts/buildings';
import type { HeatingMode } from '@heizplan/contracts/closures';
import { useTranslation } from 'react-i18next';
import { OccupantLimitFields, useOccupantLimitWording } from '../../../components/occupant-limit-fields.tsx';
import { Button } from '../../../components/ui/button.tsx';
import {
  applyServerErrors,
  FormError,
  FormField,
  FormTextInput,
  useContractForm,
  useFormControl,
} from '../../../components/ui/form.tsx';
import { FormDialog } from '../../../components/ui/form-dialog.tsx';
import { RadioCards } from '../../../components/ui/radio-cards.tsx';
import { Select } from '../../../components/ui/select.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { useHeatingFormat } from '../../../lib/format.ts';
import { HEATING_MODES, type ModeTemperatures, useModeLabel } from '../../../lib/heating/heating-modes.ts';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { useChangeBuilding, useHolidayRegions } from '../api/buildings.ts';
import {
  type BuildingBody,
  type BuildingForm,
  buildingFormSchema,
  DUPLICATE_FLOOR,
  floorErrorNames,
} from '../building-form.ts';
import { holidayLanguage, useFederalStates } from '../federal-states.ts';
import { regionByPostcode } from '../holiday-region-hint.ts';
import { FloorsEditor } from './floors-editor.tsx';
import { OutdoorSensorField } from './outdoor-sensor-field.tsx';

const LIMITS = { latitude: LATITUDE_LIMITS, longitude: LONGITUDE_LIMITS };

export interface BuildingDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The building to update; null creates a new one. */
  building: Building | null;
  initial: BuildingForm;
  /** The company's IANA zone, for the "created" line. */
  zone: string;
  /** The company's mode setpoints, shown beside the modes. */
  temperatures: ModeTemperatures;
}

/**
 * Asked where the building's state has holidays in part of it only (Bavaria, Saxony, Thuringia)
 * and no region is chosen: without one the building keeps only the statewide holidays, which in
 * most of Bavaria drops Mariä Himmelfahrt. Offers the region the postcode points to.
 */
function RegionQuestion({
  stateName,
  bavaria,
  suggestion,
  onTake,
}: {
  stateName: string;
  bavaria: boolean;
  suggestion: { code: string; name: string; postcode: string } | null;
  onTake: (code: string) => void;
}) {
  const { t } = useTranslation('buildings');
  return (
    <div
      className="flex flex-col gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-stone-800 sm:col-span-2"
      data-testid="building-region-question"
    >
      <p>{t('fields.regionAsk', { state: stateName })}</p>
      {bavaria && <p>{t('fields.regionAskBavaria')}</p>}
      {suggestion && (
        <Button
          variant="secondary"
          multiline
          className="self-start"
          onClick={() => onTake(suggestion.code)}
          testid="building-region-take"
        >
          {t('fields.regionTake', { region: suggestion.name, postcode: suggestion.postcode })}
        </Button>
      )}
    </div>
  );
}

/** Mount it when opening (the buildings page does): each opening starts from `initial`. */
export function BuildingDialog({
  open,
  onOpenChange,
  building,
  initial,
  zone,
  temperatures,
}: BuildingDialogProps) {
  const { t, i18n } = useTranslation('buildings');
  const problems = useProblemMessage();
  const { toast } = useToast();
  const format = useHeatingFormat();
  const modeLabel = useModeLabel(temperatures, 'buildings');
  const states = useFederalStates();
  const regions = useHolidayRegions(holidayLanguage(i18n.language));
  const change = useChangeBuilding();
  const occupantWording = useOccupantLimitWording();
  const form = useContractForm(buildingFormSchema, {
    defaultValues: initial,
    wording: (issue) => {
      const [field] = issue.path;
      if (field === 'postcode') return t('errors.postcode');
      if (field === 'state') return t('errors.state');
      if (field === 'longitude' && issue.code === 'custom') return t('errors.coordinatesPair');
      if (field === 'latitude' || field === 'longitude') return t(`errors.${field}`, LIMITS[field]);
      const occupants = occupantWording(field);
      if (occupants) return occupants;
      if (
        field === 'floors' &&
        issue.code === 'custom' &&
        (issue.params as { own?: string })?.own === DUPLICATE_FLOOR
      )
        return t('errors.duplicateFloor');
      return undefined;
    },
  });
  const state = useFormControl('state', form.control);
  const region = useFormControl('region', form.control);
  const treatment = useFormControl('publicHolidays', form.control);
  const mode = useFormControl('holidayMode', form.control);
  const schoolHolidays = form.watch('schoolHolidays');
  const postcode = form.watch('postcode') ?? '';
  const stateRegions = state.value
    ? (regions.data?.results.find((entry) => entry.state === state.value)?.regions ?? [])
    : [];

  const submit = (body: BuildingBody) => {
    change.mutate(
      building ? { action: 'update', buildingId: building.id, body } : { action: 'create', body },
      {
        onSuccess: () => {
          toast({
            type: 'success',
            title: building ? t('toast.saved') : t('toast.created'),
            testid: 'toast-building-saved',
          });
          onOpenChange(false);
        },
        onError: (error) => {
          applyServerErrors(form, error, problems, {
            fallback: t('errors.generic'),
            rename: floorErrorNames(body.floors.length),
          });
          toast({
            type: 'error',
            title: building ? t('toast.saveError') : t('toast.createError'),
            testid: 'toast-building-error',
          });
        },
      },
    );
  };

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={building ? t('dialog.editTitle') : t('dialog.createTitle')}
      form={form}
      onSubmit={submit}
      cancelText={t('dialog.cancel')}
      submitText={building ? t('dialog.save') : t('dialog.create')}
      pending={change.isPending}
      testid="building"
    >
      {building && (
        <p className="text-xs text-stone-600" data-testid="building-created">
          {t('dialog.created', {
            name: building.createdBy?.name ?? t('dialog.unknownCreator'),
            date: format.dateTime(building.createdAt, zone),
          })}
        </p>
      )}
      <FormTextInput
        name="name"
        label={t('fields.name')}
        placeholder={t('fields.namePlaceholder')}
        required
        testid="building-name"
      />
      <FormTextInput
        name="street"
        label={t('fields.street')}
        autoComplete="street-address"
        testid="building-street"
      />
      <div className="grid gap-3 sm:grid-cols-[8rem_1fr]">
        <FormTextInput
          name="postcode"
          label={t('fields.postcode')}
          inputMode="numeric"
          autoComplete="postal-code"
          maxLength={5}
          testid="building-postcode"
        />
        <FormTextInput
          name="city"
          label={t('fields.city')}
          autoComplete="address-level2"
          testid="building-city"
        />
      </div>
      <fieldset className="grid gap-3 sm:grid-cols-2" data-testid="building-coordinates">
        <legend className="mb-1 text-sm font-medium">{t('fields.coordinates')}</legend>
        <p className="text-xs text-stone-600 sm:col-span-2">{t('fields.coordinatesHint')}</p>
        <FormTextInput
          name="latitude"
          label={t('fields.latitude')}
          inputMode="decimal"
          placeholder="48,1598"
          testid="building-latitude"
        />
        <FormTextInput
          name="longitude"
          label={t('fields.longitude')}
          inputMode="decimal"
          placeholder="11,5856"
          testid="building-longitude"
        />
      </fieldset>
      <OutdoorSensorField />
      <div className="grid gap-3 sm:grid-cols-2">
        <FormField name="state" label={t('fields.state')} testid="building-state-field">
          {(control) => (
            <Select
              {...control}
              required
              value={state.value}
              onChange={(next) => {
                state.onChange(next);
                // A region belongs to one state.
                region.onChange('');
              }}
              onBlur={state.onBlur}
              options={[
                ...(state.value
                  ? []
                  : [{ id: '', value: t('fields.statePlaceholder'), testid: 'building-state-none' }]),
                ...states.sorted.map((code) => ({
                  id: code,
                  value: states.name(code),
                  testid: `building-state-${code}`,
                })),
              ]}
              testid="building-state"
            />
          )}
        </FormField>
        <FormField
          name="region"
          label={t('fields.region')}
          hint={
            regions.isError
              ? t('errors.regionsLoad')
              : state.value && regions.data && stateRegions.length === 0
                ? t('fields.regionNoneForState', { state: states.name(state.value as FederalState) })
                : t('fields.regionHint')
          }
          testid="building-region-field"
        >
          {(control) => (
            <Select
              {...control}
              value={region.value}
              onChange={(next) => region.onChange(next)}
              onBlur={region.onBlur}
              // Nothing to choose before a state, or in a state without regions of its own.
              disabled={stateRegions.length === 0 && !region.value}
              options={[
                { id: '', value: t('fields.regionNone'), testid: 'building-region-none' },
                ...stateRegions.map((r) => ({
                  id: r.code,
                  value: r.name,
                  testid: `building-region-${r.code}`,
                })),
                // A region the list does not (or not yet) have stays shown.
                ...(region.value && !stateRegions.some((r) => r.code === region.value)
                  ? [{ id: region.value, value: region.value, testid: `building-region-${region.value}` }]
                  : []),
              ]}
              testid="building-region"
            />
          )}
        </FormField>
        {state.value && stateRegions.length > 0 && !region.value && (
          <RegionQuestion
            stateName={states.name(state.value as FederalState)}
            bavaria={state.value === 'BY'}
            suggestion={(() => {
              const code = regionByPostcode(state.value, postcode);
              const name = stateRegions.find((r) => r.code === code)?.name;
              return code && name ? { code, name, postcode } : null;
            })()}
            onTake={(code) => region.onChange(code)}
          />
        )}
      </div>
      <FloorsEditor />
      <RadioCards<HolidayTreatment>
        legend={t('fields.publicHolidays')}
        name="building-public-holidays"
        columns={3}
        value={treatment.value}
        onChange={(next) => treatment.onChange(next)}
        options={(['ignore', 'closure', 'sunday'] as const).map((option) => ({
          id: option,
          title: t(`treatmentOptions.${option}.title`),
          description: t(`treatmentOptions.${option}.description`),
          testid: `building-holidays-${option}`,
        }))}
        testid="building-holidays"
      />
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          {...form.register('schoolHolidays')}
          data-testid="building-school-holidays"
          className="mt-0.5 size-4 accent-brand-600"
        />
        <span>
          <span className="font-medium">{t('fields.schoolHolidays')}</span>
          <span className="block text-xs text-stone-600">{t('fields.schoolHolidaysHint')}</span>
        </span>
      </label>
      {(treatment.value === 'closure' || schoolHolidays) && (
        <FormField
          name="holidayMode"
          label={t('fields.holidayMode')}
          hint={t('fields.holidayModeHint')}
          testid="building-mode-field"
        >
          {(control) => (
            <Select
              {...control}
              value={mode.value}
              onChange={(next) => mode.onChange(next as HeatingMode)}
              onBlur={mode.onBlur}
              options={HEATING_MODES.map((m) => ({
                id: m,
                value: modeLabel(m),
                testid: `building-mode-${m}`,
              }))}
              testid="building-mode"
            />
          )}
        </FormField>
      )}
      <OccupantLimitFields inherits="company" testid="building-occupants" />
      <FormError testid="building-error" />
    </FormDialog>
  );
}
