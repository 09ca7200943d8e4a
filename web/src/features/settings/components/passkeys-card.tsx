/**
 * Passkeys (decision 0074): the account's passkeys with when each was added and last used; "Add
 * passkey" asks for a name, then the browser's authenticator makes one; each can be renamed in a
 * dialog and removed after a confirmation. Errors show under the field the server names; a
 * cancelled or failed browser step says so in the dialog. Hidden when the server answers 409 (an
 * external issuer owns sign-in) or has no account store (503).
 */
import { type Passkey, PasskeyRegisterBodySchema } from '@heizplan/contracts/passkeys';
import { TotpDisableBodySchema } from '@heizplan/contracts/second-factor';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SettingsCard } from '../../../components/settings-card.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Dialog, DialogClose } from '../../../components/ui/dialog.tsx';
import {
  applyServerErrors,
  Form,
  FormError,
  FormTextInput,
  useContractForm,
} from '../../../components/ui/form.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import {
  PasskeyCeremonyError,
  useAddPasskey,
  usePasskeys,
  useRemovePasskey,
  useRenamePasskey,
} from '../../../lib/account/passkeys.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useProblemMessage } from '../../../lib/problem-message.ts';

const NameSchema = PasskeyRegisterBodySchema.pick({ name: true });
/** The name and, as the step-up before a factor is added (decision 0078), the password. */
const AddSchema = NameSchema.extend({ password: TotpDisableBodySchema.shape.password });

export function PasskeysCard() {
  const { t } = useTranslation('settings');
  const passkeys = usePasskeys();
  if (passkeys.error instanceof ApiError && (passkeys.error.status === 409 || passkeys.error.status === 503))
    return null;
  return (
    <SettingsCard title={t('passkeys.title')} description={t('passkeys.text')} testid="settings-passkeys">
      {passkeys.data ? (
        <div className="flex flex-col gap-3">
          {passkeys.data.results.length === 0 ? (
            <p className="text-sm text-stone-700">{t('passkeys.none')}</p>
          ) : (
            <ul aria-label={t('passkeys.listLabel')} className="flex flex-col divide-y divide-stone-200">
              {passkeys.data.results.map((passkey) => (
                <PasskeyItem key={passkey.id} passkey={passkey} />
              ))}
            </ul>
          )}
          <AddPasskey />
        </div>
      ) : (
        <Spinner loading={passkeys.isPending} />
      )}
    </SettingsCard>
  );
}

function PasskeyItem({ passkey }: { passkey: Passkey }) {
  const { t, i18n } = useTranslation('settings');
  const problems = useProblemMessage();
  const remove = useRemovePasskey();
  const [removing, setRemoving] = useState(false);
  const [failed, setFailed] = useState<string>();
  const when = (at: string) => formatDateTime(at, i18n.language);
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 py-2">
      <div className="text-sm">
        <p className="font-medium text-stone-900">{passkey.name}</p>
        <p className="text-stone-700">
          {t('passkeys.added', { at: when(passkey.created_at) })} ·{' '}
          {passkey.last_used_at
            ? t('passkeys.lastUsed', { at: when(passkey.last_used_at) })
            : t('passkeys.unused')}
        </p>
        {failed && (
          <p role="alert" className="text-red-700">
            {failed}
          </p>
        )}
      </div>
      <div className="flex gap-2">
        <RenamePasskey passkey={passkey} />
        <Button
          variant="secondary"
          aria-label={t('passkeys.removeNamed', { name: passkey.name })}
          onClick={() => setRemoving(true)}
          testid="passkey-remove"
        >
          {t('passkeys.remove')}
        </Button>
      </div>
      <ConfirmDialog
        open={removing}
        onOpenChange={setRemoving}
        title={t('passkeys.removeTitle', { name: passkey.name })}
        confirmText={t('passkeys.remove')}
        onConfirm={() =>
          remove.mutateAsync(passkey.id, {
            onSuccess: () => setFailed(undefined),
            onError: (error) => setFailed(problems.message(error)),
          })
        }
        testid="passkey-remove-dialog"
      >
        <p className="text-sm text-stone-700">{t('passkeys.removeText')}</p>
      </ConfirmDialog>
    </li>
  );
}

function AddPasskey() {
  const { t } = useTranslation('settings');
  const problems = useProblemMessage();
  const add = useAddPasskey();
  const [open, setOpen] = useState(false);
  const form = useContractForm(AddSchema, {
    defaultValues: { name: '', password: '' },
    wording: (issue) =>
      issue.path[0] === 'password' ? t('twoFactor.passwordMissing') : t('passkeys.nameMissing'),
  });
  const save = (body: { name: string; password: string }) =>
    add.mutate(body, {
      onSuccess: () => {
        form.reset();
        setOpen(false);
      },
      onError: (error) => {
        if (error instanceof PasskeyCeremonyError)
          form.setError('root.server', { type: 'server', message: t('passkeys.ceremonyFailed') });
        else applyServerErrors(form, error, problems);
      },
    });
  return (
    <Dialog
      title={t('passkeys.addTitle')}
      description={t('passkeys.addText')}
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) form.reset();
      }}
      testid="passkey-add-dialog"
      trigger={
        <Button className="self-end" testid="passkey-add-open">
          {t('passkeys.add')}
        </Button>
      }
    >
      <Form form={form} onSubmit={save} className="flex flex-col gap-4">
        <FormTextInput
          name="name"
          label={t('passkeys.name')}
          hint={t('passkeys.nameHint')}
          autoComplete="off"
          testid="passkey-name"
        />
        <FormTextInput
          name="password"
          label={t('twoFactor.password')}
          hint={t('stepUpHint')}
          type="password"
          autoComplete="current-password"
          testid="passkey-password"
        />
        <FormError testid="passkey-add-error" />
        <div className="flex justify-end gap-2">
          <DialogClose>
            <Button variant="secondary" testid="passkey-add-cancel">
              {t('cancel')}
            </Button>
          </DialogClose>
          <Button type="submit" loading={add.isPending} testid="passkey-add-confirm">
            {t('passkeys.addConfirm')}
          </Button>
        </div>
      </Form>
    </Dialog>
  );
}

function RenamePasskey({ passkey }: { passkey: Passkey }) {
  const { t } = useTranslation('settings');
  const problems = useProblemMessage();
  const rename = useRenamePasskey();
  const [open, setOpen] = useState(false);
  const form = useContractForm(NameSchema, {
    defaultValues: { name: passkey.name },
    wording: () => t('passkeys.nameMissing'),
  });
  const save = ({ name }: { name: string }) =>
    rename.mutate(
      { id: passkey.id, name },
      {
        onSuccess: () => setOpen(false),
        onError: (error) => void applyServerErrors(form, error, problems),
      },
    );
  return (
    <Dialog
      title={t('passkeys.renameTitle')}
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) form.reset({ name: passkey.name });
      }}
      testid="passkey-rename-dialog"
      trigger={
        <Button
          variant="secondary"
          aria-label={t('passkeys.renameNamed', { name: passkey.name })}
          testid="passkey-rename-open"
        >
          {t('passkeys.rename')}
        </Button>
      }
    >
      <Form form={form} onSubmit={save} className="flex flex-col gap-4">
        <FormTextInput
          name="name"
          label={t('passkeys.name')}
          autoComplete="off"
          testid="passkey-rename-name"
        />
        <FormError testid="passkey-rename-error" />
        <div className="flex justify-end gap-2">
          <DialogClose>
            <Button variant="secondary" testid="passkey-rename-cancel">
              {t('cancel')}
            </Button>
          </DialogClose>
          <Button type="submit" loading={rename.isPending} testid="passkey-rename-confirm">
            {t('passkeys.save')}
          </Button>
        </div>
      </Form>
    </Dialog>
  );
}
