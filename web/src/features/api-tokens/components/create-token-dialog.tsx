/**
 * "New API token" dialog (decision 0058): a name, a role (read only, or also running the heating),
 * a lifetime of 1–366 days and optionally the buildings it is limited to, checked with the contract's `ApiTokenInputSchema`. After creating,
 * the dialog shows the token once, with a copy button and a curl example; closing it forgets it.
 */
import {
  API_TOKEN_MAX_DAYS,
  type ApiTokenCreated,
  ApiTokenInputSchema,
  type ApiTokenRole,
} from '@heizplan/contracts/api-tokens';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { Button } from '../../../components/ui/button.tsx';
import { CheckboxList } from '../../../components/ui/checkbox.tsx';
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
import { SecretValue } from '../../../components/ui/secret-value.tsx';
import { Select } from '../../../components/ui/select.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { requireCurrentCompanyId } from '../../../lib/client-storage.ts';
import { useAllBuildings } from '../../../lib/heating/list-buildings.ts';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { useCreateApiToken } from '../api/api-tokens.ts';

const EMPTY = { name: '', role: 'ems' as const, expiresInDays: 90, buildingIds: [] as string[] };

export function CreateTokenDialog() {
  const { t } = useTranslation('api-tokens');
  const problems = useProblemMessage();
  const { toast } = useToast();
  const [open, setOpen] = useState(false);
  const [created, setCreated] = useState<ApiTokenCreated | null>(null);
  const create = useCreateApiToken();
  const form = useContractForm(ApiTokenInputSchema, {
    defaultValues: EMPTY,
    wording: (issue) => {
      const [field] = issue.path;
      if (field === 'name') return t('errors.name');
      if (field === 'expiresInDays') return t('errors.expires', { max: API_TOKEN_MAX_DAYS });
      return undefined;
    },
  });
  const role = useFormControl('role', form.control);
  const buildingIds = useFormControl('buildingIds', form.control);
  const { buildings } = useAllBuildings();

  const close = () => {
    setOpen(false);
    setCreated(null);
    form.reset(EMPTY);
    create.reset();
  };
  const submit = (body: z.output<typeof ApiTokenInputSchema>) =>
    create.mutate(body, {
      onSuccess: (token) => {
        setCreated(token);
        toast({ type: 'success', title: t('create.success'), testid: 'toast-api-token-created' });
      },
      onError: (error) => applyServerErrors(form, error, problems, { fallback: t('create.error') }),
    });
  const origin = window.location.origin;

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => (next ? setOpen(true) : close())}
      title={created ? t('created.title') : t('create.title')}
      testid="api-token-dialog"
      trigger={<Button testid="api-token-new">{t('create.open')}</Button>}
      footer={
        created ? (
          <Button onClick={close} testid="api-token-done">
            {t('created.done')}
          </Button>
        ) : (
          <>
            <DialogClose>
              <Button variant="secondary">{t('create.cancel')}</Button>
            </DialogClose>
            <Button type="submit" form="api-token-form" loading={create.isPending} testid="api-token-submit">
              {t('create.submit')}
            </Button>
          </>
        )
      }
    >
      {created ? (
        <div className="flex flex-col gap-3 text-sm" data-testid="api-token-created">
          <p className="font-medium text-amber-900">{t('created.once')}</p>
          <SecretValue secret={created.token} testid="api-token-secret" />
          <p>{t('created.example')}</p>
          <code className="block break-all rounded-lg bg-stone-100 p-3 font-mono text-xs">
            {`curl -H "Authorization: Bearer ${created.token}" ${origin}/api/companies/${requireCurrentCompanyId()}/units`}
          </code>
        </div>
      ) : (
        <Form form={form} onSubmit={submit} id="api-token-form" className="flex flex-col gap-4">
          <FormTextInput
            name="name"
            label={t('fields.name')}
            placeholder={t('fields.namePlaceholder')}
            required
            testid="api-token-name"
          />
          <FormField
            name="role"
            label={t('fields.role')}
            hint={t(`roles.${role.value ?? 'ems'}.hint`)}
            testid="api-token-role-field"
          >
            {(control) => (
              <Select
                {...control}
                value={role.value ?? 'ems'}
                onChange={(next) => role.onChange(next as ApiTokenRole)}
                onBlur={role.onBlur}
                options={(['ems', 'heating'] as const).map((r) => ({
                  id: r,
                  value: t(`roles.${r}.name`),
                  testid: `api-token-role-${r}`,
                }))}
                testid="api-token-role"
              />
            )}
          </FormField>
          <FormNumberInput
            name="expiresInDays"
            label={t('fields.expiresInDays')}
            hint={t('fields.expiresHint', { max: API_TOKEN_MAX_DAYS })}
            required
            testid="api-token-days"
          />
          {buildings.length > 0 && (
            <fieldset className="flex flex-col gap-2" data-testid="api-token-buildings">
              <legend className="text-sm font-medium">{t('fields.buildings')}</legend>
              <p className="text-xs text-stone-600">{t('fields.buildingsHint')}</p>
              <CheckboxList
                items={buildings.map((b) => ({ id: b.id, label: b.name }))}
                value={buildingIds.value}
                onChange={buildingIds.onChange}
                testid="api-token-building"
              />
            </fieldset>
          )}
          <FormError testid="api-token-error" />
        </Form>
      )}
    </Dialog>
  );
}
