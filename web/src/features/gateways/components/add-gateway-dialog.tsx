/**
 * "Add gateway" dialog (issue 6 registry): name and gateway EUI (16 hex, checked with the
 * shared `GatewayCreateSchema`). Messages show once a field was left or a submit was tried;
 * the server's field messages show under the fields, a 409 (EUI taken) above the buttons.
 */
import { GatewayCreateSchema } from '@heizplan/contracts/devices';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogClose } from '../../../components/ui/dialog.tsx';
import { TextInput } from '../../../components/ui/field.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { useCreateGateway } from '../api/create-gateway.ts';

type GatewayField = 'name' | 'gatewayEui';

/** Translation keys (namespace `gateways`) of the problems per field. */
export function validateGateway(name: string, gatewayEui: string): Partial<Record<GatewayField, string>> {
  const { shape } = GatewayCreateSchema;
  return {
    ...(shape.name.safeParse(name).success ? {} : { name: 'validation.nameRequired' }),
    ...(shape.gatewayEui.safeParse(gatewayEui).success ? {} : { gatewayEui: 'validation.eui' }),
  };
}

export function AddGatewayDialog() {
  const { t } = useTranslation('gateways');
  const serverProblems = useProblemMessage();
  const { toast } = useToast();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [eui, setEui] = useState('');
  const [touched, setTouched] = useState<Partial<Record<GatewayField, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const create = useCreateGateway();
  const problems = validateGateway(name, eui);
  const apiError = create.error instanceof ApiError ? create.error : null;
  const errorOf = (field: GatewayField) => {
    const key = problems[field];
    if (key && (submitted || touched[field])) return t(key);
    return serverProblems.field(create.error, field);
  };

  const close = () => {
    setOpen(false);
    setName('');
    setEui('');
    setTouched({});
    setSubmitted(false);
    create.reset();
  };
  const submit = () => {
    setSubmitted(true);
    if (Object.keys(problems).length > 0) return;
    create.mutate(
      { name: name.trim(), gatewayEui: eui.trim() },
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
      <form
        id="add-gateway-form"
        noValidate
        className="flex flex-col gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <TextInput
          label={t('fields.name')}
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            create.reset();
          }}
          onBlur={() => setTouched((current) => ({ ...current, name: true }))}
          error={errorOf('name')}
          testid="add-gateway-name"
        />
        <TextInput
          label={t('fields.gatewayEui')}
          hint={t('add.euiHint')}
          value={eui}
          onChange={(event) => {
            setEui(event.target.value);
            create.reset();
          }}
          onBlur={() => setTouched((current) => ({ ...current, gatewayEui: true }))}
          error={errorOf('gatewayEui')}
          autoComplete="off"
          spellCheck={false}
          className="font-mono"
          testid="add-gateway-eui"
        />
        {apiError && apiError.errors.length === 0 && (
          <p role="alert" className="text-sm text-red-700" data-testid="add-gateway-error">
            {serverProblems.reason(apiError) ?? t('add.error')}
          </p>
        )}
      </form>
    </Dialog>
  );
}
