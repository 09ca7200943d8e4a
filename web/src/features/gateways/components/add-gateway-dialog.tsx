/**
 * "Add gateway" dialog (registry): name and gateway EUI (16 hex), checked with the
 * shared `GatewayCreateSchema`. Messages show once a field was left or a submit was tried;
 * the server's field messages show under the fields, a 409 (EUI taken) above the buttons.
 */
import { GatewayCreateSchema } from '@heizplan/contracts/devices';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogClose } from '../../../components/ui/dialog.tsx';
import {
  applyServerErrors,
  Form,
  FormError,
  FormTextInput,
  useContractForm,
} from '../../../components/ui/form.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { useCreateGateway } from '../api/create-gateway.ts';

const GatewayFormSchema = GatewayCreateSchema.pick({ name: true, gatewayEui: true });
const EMPTY = { name: '', gatewayEui: '' };

export function AddGatewayDialog() {
  const { t } = useTranslation('gateways');
  const problems = useProblemMessage();
  const { toast } = useToast();
  const [open, setOpen] = useState(false);
  const form = useContractForm(GatewayFormSchema, {
    defaultValues: EMPTY,
    wording: (issue) =>
      issue.path[0] === 'name' && issue.code === 'too_small'
        ? t('validation.nameRequired')
        : issue.path[0] === 'gatewayEui'
          ? t('validation.eui')
          : undefined,
  });
  const create = useCreateGateway();

  const close = () => {
    setOpen(false);
    form.reset(EMPTY);
    create.reset();
  };
  // Sent as typed (trimmed); the contract's lower-casing is the server's to do.
  const submit = () => {
    const { name, gatewayEui } = form.getValues();
    create.mutate(
      { name: name.trim(), gatewayEui: gatewayEui.trim() },
      {
        onSuccess: (gateway) => {
          toast({
            type: 'success',
            // The name goes to the description, quoted: people call gateways "Gateway Dach", and
            // "Gateway Gateway Dach hinzugefügt" read as a typo.
            title: t('add.success'),
            description: t('add.successDetail', { name: gateway.name, eui: gateway.gatewayEui }),
            testid: 'toast-gateway-added',
          });
          close();
        },
        onError: (error) => applyServerErrors(form, error, problems, { fallback: t('add.error') }),
      },
    );
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? setOpen(true) : close())}
      title={t('add.title')}
      testid="add-gateway-dialog"
      trigger={<Button testid="add-gateway">{t('add.open')}</Button>}
      footer={
        <>
          <DialogClose>
            <Button variant="secondary">{t('cancel')}</Button>
          </DialogClose>
          <Button
            type="submit"
            form="add-gateway-form"
            loading={create.isPending}
            testid="add-gateway-submit"
          >
            {t('add.submit')}
          </Button>
        </>
      }
    >
      <Form form={form} onSubmit={submit} id="add-gateway-form" className="flex flex-col gap-4">
        <FormTextInput name="name" label={t('fields.name')} testid="add-gateway-name" />
        <FormTextInput
          name="gatewayEui"
          label={t('fields.gatewayEui')}
          hint={t('add.euiHint')}
          autoComplete="off"
          spellCheck={false}
          className="font-mono"
          testid="add-gateway-eui"
        />
        <FormError testid="add-gateway-error" />
      </Form>
    </Dialog>
  );
}
