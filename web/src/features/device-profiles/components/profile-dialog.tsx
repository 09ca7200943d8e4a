/**
 * New or changed device profile (decision 0062): name, model (new profiles only), the
 * configuration — keep-alive, open-window detection, child lock and whether it holds offline,
 * the ring's range, temperature offset — and where it applies (the whole company, buildings,
 * groups, single rooms found by search), checked with the contract's `DeviceProfileInputSchema`.
 * A new profile starts from the model's factory settings.
 */
import {
  type DeviceConfig,
  type DeviceProfile,
  DeviceProfileInputSchema,
  type DeviceProfileList,
} from '@heizplan/contracts/device-profiles';
import { type ComponentProps, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { Button } from '../../../components/ui/button.tsx';
import { Checkbox, CheckboxList } from '../../../components/ui/checkbox.tsx';
import { Dialog, DialogClose } from '../../../components/ui/dialog.tsx';
import {
  applyServerErrors,
  Form,
  FormError,
  FormField,
  FormNumberInput,
  FormTextInput,
  useContractForm,
  useFormControl,
} from '../../../components/ui/form.tsx';
import { Select } from '../../../components/ui/select.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { UnitSearchCombobox } from '../../../components/unit-search-combobox.tsx';
import { useAllBuildings } from '../../../lib/heating/list-buildings.ts';
import { useAllGroups } from '../../../lib/heating/list-groups.ts';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { useSaveDeviceProfile } from '../api/device-profiles.ts';

type Input = z.input<typeof DeviceProfileInputSchema>;

function valuesOf(profile: DeviceProfile | null, models: DeviceProfileList['models']): Input {
  const first = models[0];
  return profile
    ? { name: profile.name, model: profile.model, config: profile.config, places: profile.places }
    : {
        name: '',
        model: first?.model ?? '',
        config: first?.defaults as DeviceConfig,
        places: { company: false, buildingIds: [], groupIds: [], unitIds: [] },
      };
}

export function ProfileDialog({
  profile,
  models,
  trigger,
}: {
  profile: DeviceProfile | null;
  models: DeviceProfileList['models'];
  trigger: ComponentProps<typeof Dialog>['trigger'];
}) {
  const { t } = useTranslation('device-profiles');
  const problems = useProblemMessage();
  const { toast } = useToast();
  const [open, setOpen] = useState(false);
  const save = useSaveDeviceProfile();
  const form = useContractForm(DeviceProfileInputSchema, {
    defaultValues: valuesOf(profile, models),
    units: {
      keepAliveMinutes: 'min',
      durationMinutes: 'min',
      deltaK: 'K',
      temperatureOffset: 'K',
      min: '°C',
      max: '°C',
    },
  });
  const model = useFormControl('model', form.control);
  const buildingIds = useFormControl('places.buildingIds', form.control);
  const groupIds = useFormControl('places.groupIds', form.control);
  const unitIds = useFormControl('places.unitIds', form.control);
  const { buildings } = useAllBuildings();
  const groups = useAllGroups().data?.results ?? [];
  const testid = profile ? `device-profile-edit-${profile.id}` : 'device-profile-new';

  const close = () => {
    setOpen(false);
    form.reset(valuesOf(profile, models));
    save.reset();
  };
  const submit = (body: z.output<typeof DeviceProfileInputSchema>) =>
    save.mutate(
      { id: profile?.id ?? null, body },
      {
        onSuccess: () => {
          toast({ type: 'success', title: t('dialog.saved'), testid: 'toast-device-profile-saved' });
          close();
        },
        onError: (error) => applyServerErrors(form, error, problems, { fallback: t('dialog.error') }),
      },
    );
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? setOpen(true) : close())}
      title={profile ? t('dialog.editTitle', { name: profile.name }) : t('dialog.newTitle')}
      testid={`${testid}-dialog`}
      trigger={trigger}
      footer={
        <>
          <DialogClose>
            <Button variant="secondary">{t('dialog.cancel')}</Button>
          </DialogClose>
          <Button type="submit" form={`${testid}-form`} loading={save.isPending} testid={`${testid}-submit`}>
            {t('dialog.save')}
          </Button>
        </>
      }
    >
      <Form form={form} onSubmit={submit} id={`${testid}-form`} className="flex flex-col gap-4">
        <FormTextInput name="name" label={t('fields.name')} required testid="device-profile-name" />
        {!profile && (
          <FormField name="model" label={t('fields.model')} testid="device-profile-model-field">
            {(control) => (
              <Select
                {...control}
                value={model.value ?? ''}
                onChange={(next) => {
                  model.onChange(next);
                  const defaults = models.find((m) => m.model === next)?.defaults;
                  if (defaults) form.setValue('config', defaults);
                }}
                onBlur={model.onBlur}
                options={models.map((m) => ({
                  id: m.model,
                  value: m.name,
                  testid: `device-profile-model-${m.model}`,
                }))}
                testid="device-profile-model"
              />
            )}
          </FormField>
        )}
        <FormNumberInput
          name="config.keepAliveMinutes"
          label={t('fields.keepAlive')}
          hint={t('fields.keepAliveHint')}
          required
          testid="device-profile-keep-alive"
        />
        <fieldset className="flex flex-col gap-3 rounded-lg border border-stone-200 p-3">
          <legend className="px-1 text-sm font-medium">{t('fields.openWindow')}</legend>
          <Checkbox
            {...form.register('config.openWindow.enabled')}
            label={t('fields.openWindowOn')}
            testid="device-profile-open-window"
          />
          <div className="grid gap-3 sm:grid-cols-2">
            <FormNumberInput
              name="config.openWindow.durationMinutes"
              label={t('fields.openWindowMinutes')}
              hint={t('fields.openWindowMinutesHint')}
              required
              testid="device-profile-open-window-minutes"
            />
            <FormNumberInput
              name="config.openWindow.deltaK"
              label={t('fields.openWindowDelta')}
              hint={t('fields.openWindowDeltaHint')}
              required
              testid="device-profile-open-window-delta"
            />
          </div>
        </fieldset>
        <Checkbox
          {...form.register('config.childLock')}
          label={t('fields.childLock')}
          hint={t('fields.childLockHint')}
          testid="device-profile-child-lock"
        />
        <Checkbox
          {...form.register('config.childLockKeptOffline')}
          label={t('fields.childLockKeptOffline')}
          hint={t('fields.childLockKeptOfflineHint')}
          testid="device-profile-child-lock-offline"
        />
        <div className="grid gap-3 sm:grid-cols-2">
          <FormNumberInput
            name="config.temperatureRange.min"
            label={t('fields.rangeMin')}
            required
            testid="device-profile-range-min"
          />
          <FormNumberInput
            name="config.temperatureRange.max"
            label={t('fields.rangeMax')}
            required
            testid="device-profile-range-max"
          />
        </div>
        <FormNumberInput
          name="config.temperatureOffset"
          label={t('fields.offset')}
          hint={t('fields.offsetHint')}
          required
          testid="device-profile-offset"
        />
        <fieldset className="flex flex-col gap-2 rounded-lg border border-stone-200 p-3">
          <legend className="px-1 text-sm font-medium">{t('fields.places')}</legend>
          <p className="text-xs text-stone-600">{t('fields.placesHint')}</p>
          <Checkbox
            {...form.register('places.company')}
            label={t('fields.company')}
            testid="device-profile-company"
          />
          <CheckboxList
            items={buildings.map((b) => ({ id: b.id, label: t('fields.building', { name: b.name }) }))}
            value={buildingIds.value}
            onChange={buildingIds.onChange}
            testid="device-profile-building"
          />
          <CheckboxList
            items={groups.map((g) => ({ id: g.id, label: t('fields.group', { name: g.name }) }))}
            value={groupIds.value}
            onChange={groupIds.onChange}
            testid="device-profile-group"
          />
          <UnitSearchCombobox
            multiple
            label={t('fields.units')}
            placeholder={t('fields.unitsPlaceholder')}
            value={unitIds.value ?? []}
            onChange={unitIds.onChange}
            error={unitIds.error}
            known={profile?.units ?? []}
            testid="device-profile-units"
          />
        </fieldset>
        <FormError testid="device-profile-error" />
      </Form>
    </Dialog>
  );
}
