/**
 * The building form's outdoor sensor (decision 0057): one of the company's sensors without unit,
 * or "keiner" (the default). Its readings take precedence over the weather service's. A sensor
 * chosen before and no longer offered (assigned to a unit since) stays shown.
 */
import { useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormField, useFormControl } from '../../../components/ui/form.tsx';
import { Select } from '../../../components/ui/select.tsx';
import { useOutdoorSensors } from '../api/outdoor-sensors.ts';
import type { BuildingForm } from '../building-form.ts';

export function OutdoorSensorField() {
  const { t } = useTranslation('buildings');
  const { control } = useFormContext<BuildingForm>();
  const sensor = useFormControl('outdoorSensorId', control);
  const sensors = useOutdoorSensors();
  const ids = (sensors.data?.results ?? []).map((device) => device.id);
  if (sensor.value && !ids.includes(sensor.value)) ids.push(sensor.value);
  return (
    <FormField
      name="outdoorSensorId"
      label={t('fields.outdoorSensor')}
      hint={sensors.isError ? t('errors.sensorsLoad') : t('fields.outdoorSensorHint')}
      testid="building-outdoor-sensor-field"
    >
      {(props) => (
        <Select
          {...props}
          value={sensor.value}
          onChange={(next) => sensor.onChange(next)}
          onBlur={sensor.onBlur}
          options={[
            { id: '', value: t('fields.outdoorSensorNone'), testid: 'building-outdoor-sensor-none' },
            ...ids.map((id) => ({ id, value: id, testid: `building-outdoor-sensor-${id}` })),
          ]}
          testid="building-outdoor-sensor"
        />
      )}
    </FormField>
  );
}
