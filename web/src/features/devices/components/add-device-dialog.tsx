/**
 * "Add device" dialog (registry, spec §5): DevEUI (16 hex), AppKey (32 hex), optional
 * JoinEUI, the model from the codec registry and an optional unit (searched on the server, "No
 * unit" first so a choice can be taken back). A field's message shows once
 * the field was left or a submit was tried; the server's field messages (400) show under the
 * fields, anything else (409 DevEUI taken) above the buttons.
 */
import { DEVICE_MODELS } from '@heizplan/contracts/devices';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogClose } from '../../../components/ui/dialog.tsx';
import {
  applyServerErrors,
  Form,
  FormField,
  FormTextInput,
  useContractForm,
  useFormControl,
} from '../../../components/ui/form.tsx';
import { Select } from '../../../components/ui/select.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { UnitSearchCombobox } from '../../../components/unit-search-combobox.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { useCan } from '../../../lib/use-can.ts';
import { useCreateDevice } from '../api/create-device.ts';
import {
  DeviceFormSchema,
  type DeviceFormValues,
  deviceWording,
  EMPTY_DEVICE_FORM,
  toDeviceCreate,
} from '../device-form.ts';

/** The unit picker's first choice: no unit. */
const NO_UNIT = 'none';

export interface AddDeviceDialogProps {
  /**
   * Where licences are bought, linked when the server refuses a device for want of them; null
   * when the server bills nothing. Billing decides it, so the screen passes it in.
   */
  shop: string | null;
}

export function AddDeviceDialog({ shop }: AddDeviceDialogProps) {
  const { t } = useTranslation('devices');
  const problems = useProblemMessage();
  const { toast } = useToast();
  const [open, setOpen] = useState(false);
  const form = useContractForm(DeviceFormSchema, {
    defaultValues: EMPTY_DEVICE_FORM,
    wording: deviceWording(t, (): DeviceFormValues => form.getValues()),
  });
  const model = useFormControl('model', form.control);
  const unit = useFormControl('unitId', form.control);
  const create = useCreateDevice();
  const apiError = create.error instanceof ApiError ? create.error : null;
  const canManage = useCan('manage');
  // The server answers 404 'Unknown unit' when the chosen unit was deleted meanwhile.
  const unknownUnit = apiError?.status === 404;

  const close = () => {
    setOpen(false);
    form.reset(EMPTY_DEVICE_FORM);
    create.reset();
  };
  // Sent as typed; the contract's lower-casing is the server's to do.
  const submit = () =>
    create.mutate(toDeviceCreate(form.getValues()), {
      onSuccess: (device) => {
        toast({ type: 'success', title: t('add.success', { id: device.id }), testid: 'toast-device-added' });
        close();
      },
      onError: (error) => applyServerErrors(form, error, problems, { root: false }),
    });

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
      <Form form={form} onSubmit={submit} id="add-device-form" className="flex flex-col gap-4">
        <FormTextInput
          name="id"
          label={t('fields.devEui')}
          hint={t('add.devEuiHint')}
          autoComplete="off"
          spellCheck={false}
          className="font-mono"
          testid="add-device-id"
        />
        <FormTextInput
          name="appKey"
          label={t('fields.appKey')}
          autoComplete="off"
          spellCheck={false}
          className="font-mono"
          testid="add-device-app-key"
        />
        <FormTextInput
          name="joinEui"
          label={t('fields.joinEui')}
          autoComplete="off"
          spellCheck={false}
          className="font-mono"
          testid="add-device-join-eui"
        />
        <FormField name="model" label={t('fields.model')} testid="add-device-model-field">
          {(control) => (
            <Select
              {...control}
              value={model.value}
              onChange={(next) => model.onChange(next as DeviceFormValues['model'])}
              onBlur={model.onBlur}
              testid="add-device-model"
              options={[
                { id: '', value: t('add.modelPlaceholder'), testid: 'add-device-model-none' },
                ...DEVICE_MODELS.map((m) => ({
                  id: m,
                  value: t(`models.${m}`),
                  testid: `add-device-model-${m}`,
                })),
              ]}
            />
          )}
        </FormField>
        <UnitSearchCombobox
          label={t('fields.unitOptional')}
          placeholder={t('noUnit')}
          value={unit.value ?? NO_UNIT}
          onChange={(id) => unit.onChange(id === NO_UNIT ? null : id)}
          leading={[{ id: NO_UNIT, item: t('noUnit'), testid: 'add-device-unit-none' }]}
          error={unknownUnit ? t('unknownUnit') : unit.error}
          testid="add-device-unit"
        />
        {create.error && (apiError?.errors.length ?? 0) === 0 && !unknownUnit && (
          <p role="alert" className="text-sm text-red-700" data-testid="add-device-error">
            {problems.reason(create.error) ?? t('add.error')}
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
      </Form>
    </Dialog>
  );
}
