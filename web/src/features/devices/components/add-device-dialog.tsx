/**
 * "Add device" dialog (issue 6 registry, spec §5): DevEUI (16 hex), AppKey (32 hex), optional
 * JoinEUI, the model from the codec registry and an optional unit. A field's message shows once
 * the field was left or a submit was tried; the server's field messages (400) show under the
 * fields, anything else (409 DevEUI taken) above the buttons.
 */
import { DEVICE_MODELS } from '@heizplan/contracts/devices';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { Combobox } from '../../../components/ui/combobox.tsx';
import { Dialog, DialogClose } from '../../../components/ui/dialog.tsx';
import { Field, TextInput } from '../../../components/ui/field.tsx';
import { Select } from '../../../components/ui/select.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useUnitOptions } from '../../../lib/heating/unit-options.ts';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { useCan } from '../../../lib/use-can.ts';
import { useCreateDevice } from '../api/create-device.ts';
import {
  type DeviceFormField,
  type DeviceFormValues,
  EMPTY_DEVICE_FORM,
  toDeviceCreate,
  validateDeviceForm,
} from '../device-form.ts';

export interface AddDeviceDialogProps {
  /**
   * Where licences are bought, linked when the server refuses a device for want of them; null
   * when the server bills nothing. Billing decides it, so the screen passes it in.
   */
  shop: string | null;
}

export function AddDeviceDialog({ shop }: AddDeviceDialogProps) {
  const { t } = useTranslation('devices');
  const serverProblems = useProblemMessage();
  const { toast } = useToast();
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState<DeviceFormValues>(EMPTY_DEVICE_FORM);
  const [touched, setTouched] = useState<Partial<Record<DeviceFormField, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const units = useUnitOptions('add-device-unit');
  const create = useCreateDevice();
  const problems = validateDeviceForm(values);
  const apiError = create.error instanceof ApiError ? create.error : null;
  const canManage = useCan('manage');
  const serverErrors = apiError?.errors ?? [];
  // The server answers 404 'Unknown unit' when the chosen unit was deleted meanwhile.
  const unknownUnit = apiError?.status === 404;

  const errorOf = (field: DeviceFormField) => {
    const key = problems[field];
    if (key && (submitted || touched[field])) return t(key);
    return serverProblems.field(create.error, field);
  };
  const set = (field: keyof DeviceFormValues) => (value: string | null) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (create.isError) create.reset();
  };
  const leave = (field: DeviceFormField) => () => setTouched((current) => ({ ...current, [field]: true }));

  const close = () => {
    setOpen(false);
    setValues(EMPTY_DEVICE_FORM);
    setTouched({});
    setSubmitted(false);
    create.reset();
  };
  const submit = () => {
    setSubmitted(true);
    if (Object.keys(problems).length > 0) return;
    create.mutate(toDeviceCreate(values), {
      onSuccess: (device) => {
        toast({ type: 'success', title: t('add.success', { id: device.id }), testid: 'toast-device-added' });
        close();
      },
    });
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? setOpen(true) : close())}
      title={t('add.title')}
      testid="add-device-dialog"
      trigger={<Button testid="add-device">{t('add.open')}</Button>}
      footer={
        <>
          <DialogClose>
            <Button variant="secondary">{t('cancel')}</Button>
          </DialogClose>
          <Button type="submit" form="add-device-form" loading={create.isPending} testid="add-device-submit">
            {t('add.submit')}
          </Button>
        </>
      }
    >
      <form
        id="add-device-form"
        noValidate
        className="flex flex-col gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <TextInput
          label={t('fields.devEui')}
          hint={t('add.devEuiHint')}
          value={values.id}
          onChange={(event) => set('id')(event.target.value)}
          onBlur={leave('id')}
          error={errorOf('id')}
          autoComplete="off"
          spellCheck={false}
          className="font-mono"
          testid="add-device-id"
        />
        <TextInput
          label={t('fields.appKey')}
          value={values.appKey}
          onChange={(event) => set('appKey')(event.target.value)}
          onBlur={leave('appKey')}
          error={errorOf('appKey')}
          autoComplete="off"
          spellCheck={false}
          className="font-mono"
          testid="add-device-app-key"
        />
        <TextInput
          label={t('fields.joinEui')}
          value={values.joinEui}
          onChange={(event) => set('joinEui')(event.target.value)}
          onBlur={leave('joinEui')}
          error={errorOf('joinEui')}
          autoComplete="off"
          spellCheck={false}
          className="font-mono"
          testid="add-device-join-eui"
        />
        <Field label={t('fields.model')} error={errorOf('model')} testid="add-device-model-field">
          {(control) => (
            <Select
              {...control}
              value={values.model}
              onChange={set('model')}
              onBlur={leave('model')}
              testid="add-device-model"
              options={[
                { id: '', value: t('add.modelPlaceholder'), testid: 'add-device-model-none' },
                ...DEVICE_MODELS.map((model) => ({
                  id: model,
                  value: t(`models.${model}`),
                  testid: `add-device-model-${model}`,
                })),
              ]}
            />
          )}
        </Field>
        <Combobox
          label={t('fields.unitOptional')}
          placeholder={t('noUnit')}
          value={values.unitId}
          onChange={set('unitId')}
          error={unknownUnit ? t('unknownUnit') : serverProblems.field(create.error, 'unitId')}
          options={units.options}
          testid="add-device-unit"
        />
        {create.error && serverErrors.length === 0 && !unknownUnit && (
          <p role="alert" className="text-sm text-red-700" data-testid="add-device-error">
            {serverProblems.reason(create.error) ?? t('add.error')}
            {/* A refusal for want of licences links to where they are bought. */}
            {apiError?.code === 'licences_exhausted' && shop && canManage && (
              <>
                {' '}
                <Link to={shop} className="font-medium underline" data-testid="add-device-buy-licences">
                  {t('add.buyLicences')}
                </Link>
              </>
            )}
          </p>
        )}
      </form>
    </Dialog>
  );
}
