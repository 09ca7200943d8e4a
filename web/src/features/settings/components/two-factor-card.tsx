/**
 * Two-factor sign-in (decision 0072): the status; "Set up" shows the authenticator's QR code and
 * its secret for typing, then asks for a current code; the confirmation shows the ten recovery
 * codes once (copy or download); "Disable" asks for the password and a code in a dialog. Errors
 * show under the field the server names. Hidden when the server answers 409 (an external issuer
 * owns the second factor) or has no account store (503).
 */
import {
  TotpConfirmBodySchema,
  TotpDisableBodySchema,
  type TotpEnrolment,
} from '@heizplan/contracts/second-factor';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SettingsCard } from '../../../components/settings-card.tsx';
import { Button } from '../../../components/ui/button.tsx';
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
  useConfirmTotp,
  useDisableTotp,
  useSecondFactor,
  useStartTotp,
} from '../../../lib/account/second-factor.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useProblemMessage } from '../../../lib/problem-message.ts';

const CODE_INPUT = { inputMode: 'numeric', autoComplete: 'one-time-code', spellCheck: false } as const;

export function TwoFactorCard() {
  const { t } = useTranslation('settings');
  const status = useSecondFactor();
  const [enrolment, setEnrolment] = useState<TotpEnrolment>();
  const [recoveryCodes, setRecoveryCodes] = useState<string[]>();

  if (status.error instanceof ApiError && (status.error.status === 409 || status.error.status === 503))
    return null;
  const card = (children: ReactNode) => (
    <SettingsCard title={t('twoFactor.title')} description={t('twoFactor.text')} testid="settings-two-factor">
      {children}
    </SettingsCard>
  );
  if (!status.data) return card(<Spinner loading={status.isPending} />);
  if (recoveryCodes)
    return card(<RecoveryCodeList codes={recoveryCodes} onDone={() => setRecoveryCodes(undefined)} />);
  if (enrolment) {
    return card(
      <Enrolment
        enrolment={enrolment}
        onCancel={() => setEnrolment(undefined)}
        onConfirmed={(codes) => {
          setEnrolment(undefined);
          setRecoveryCodes(codes);
        }}
      />,
    );
  }
  return card(
    status.data.totp ? (
      <Enabled recoveryCodesLeft={status.data.recoveryCodesLeft} />
    ) : (
      <NotSetUp onStarted={setEnrolment} />
    ),
  );
}

/** The password is the step-up before a factor is added (decision 0078). */
const StepUpSchema = TotpDisableBodySchema.pick({ password: true });

function NotSetUp({ onStarted }: { onStarted: (enrolment: TotpEnrolment) => void }) {
  const { t } = useTranslation('settings');
  const problems = useProblemMessage();
  const start = useStartTotp();
  const form = useContractForm(StepUpSchema, {
    defaultValues: { password: '' },
    wording: () => t('twoFactor.passwordMissing'),
  });
  const save = ({ password }: { password: string }) =>
    start.mutate(password, {
      onSuccess: onStarted,
      onError: (error) => void applyServerErrors(form, error, problems),
    });
  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm text-stone-700" data-testid="two-factor-status">
        {t('twoFactor.off')}
      </p>
      <Form form={form} onSubmit={save} className="flex flex-col gap-3">
        <FormTextInput
          name="password"
          label={t('twoFactor.password')}
          hint={t('stepUpHint')}
          type="password"
          autoComplete="current-password"
          testid="two-factor-start-password"
        />
        <FormError testid="two-factor-start-error" />
        <Button type="submit" className="self-end" loading={start.isPending} testid="two-factor-start">
          {t('twoFactor.setUp')}
        </Button>
      </Form>
    </div>
  );
}

function Enrolment({
  enrolment,
  onCancel,
  onConfirmed,
}: {
  enrolment: TotpEnrolment;
  onCancel: () => void;
  onConfirmed: (codes: string[]) => void;
}) {
  const { t } = useTranslation('settings');
  const problems = useProblemMessage();
  const confirm = useConfirmTotp();
  const form = useContractForm(TotpConfirmBodySchema, {
    defaultValues: { code: '' },
    wording: () => t('twoFactor.codeMissing'),
  });
  const save = ({ code }: { code: string }) =>
    confirm.mutate(code, {
      onSuccess: (answer) => onConfirmed(answer.recoveryCodes),
      onError: (error) => void applyServerErrors(form, error, problems),
    });
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-stone-700">{t('twoFactor.scan')}</p>
      <img
        src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.qrSvg)}`}
        alt={t('twoFactor.qrAlt')}
        className="h-48 w-48 self-center"
      />
      <div className="text-sm text-stone-700">
        <p>{t('twoFactor.secretLabel')}</p>
        <code
          className="mt-1 block break-all rounded bg-stone-100 p-2 font-mono"
          data-testid="two-factor-secret"
        >
          {enrolment.secret.replace(/(.{4})/g, '$1 ').trim()}
        </code>
      </div>
      <Form form={form} onSubmit={save} className="flex flex-col gap-4">
        <FormTextInput name="code" label={t('twoFactor.code')} {...CODE_INPUT} testid="two-factor-code" />
        <FormError testid="two-factor-confirm-error" />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onCancel} testid="two-factor-cancel">
            {t('cancel')}
          </Button>
          <Button type="submit" loading={confirm.isPending} testid="two-factor-confirm">
            {t('twoFactor.confirm')}
          </Button>
        </div>
      </Form>
    </div>
  );
}

function RecoveryCodeList({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation('settings');
  const text = `${codes.join('\n')}\n`;
  const [copied, setCopied] = useState(false);
  const copy = () =>
    void navigator.clipboard?.writeText(text).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  return (
    <div className="flex flex-col gap-3">
      <p role="status" className="rounded-lg bg-green-50 p-3 text-sm text-green-800">
        {t('twoFactor.enabled')}
      </p>
      <p className="text-sm text-stone-700">{t('twoFactor.recoveryNote')}</p>
      <ul aria-label={t('twoFactor.recoveryTitle')} className="grid grid-cols-2 gap-1 font-mono text-sm">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={copy} testid="two-factor-copy">
          {copied ? t('twoFactor.copied') : t('twoFactor.copy')}
        </Button>
        <a
          className="inline-flex items-center rounded-lg border border-stone-300 px-3 py-2 text-sm font-medium"
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
          download="heizplan-recovery-codes.txt"
        >
          {t('twoFactor.download')}
        </a>
        <Button onClick={onDone} testid="two-factor-done">
          {t('twoFactor.done')}
        </Button>
      </div>
    </div>
  );
}

function Enabled({ recoveryCodesLeft }: { recoveryCodesLeft: number }) {
  const { t } = useTranslation('settings');
  const problems = useProblemMessage();
  const disable = useDisableTotp();
  const [open, setOpen] = useState(false);
  const form = useContractForm(TotpDisableBodySchema, {
    defaultValues: { password: '', code: '' },
    wording: (issue) =>
      issue.path[0] === 'password' ? t('twoFactor.passwordMissing') : t('twoFactor.codeMissing'),
  });
  const save = (body: { password: string; code: string }) =>
    disable.mutate(body, {
      onSuccess: () => {
        form.reset();
        setOpen(false);
      },
      onError: (error) => void applyServerErrors(form, error, problems),
    });
  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm text-stone-700" data-testid="two-factor-status">
        {t('twoFactor.on', { count: recoveryCodesLeft })}
      </p>
      <Dialog
        title={t('twoFactor.disableTitle')}
        description={t('twoFactor.disableText')}
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (!next) form.reset();
        }}
        testid="two-factor-disable-dialog"
        trigger={
          <Button variant="danger" className="self-end" testid="two-factor-disable-open">
            {t('twoFactor.disable')}
          </Button>
        }
      >
        <Form form={form} onSubmit={save} className="flex flex-col gap-4">
          <FormTextInput
            name="password"
            label={t('twoFactor.password')}
            type="password"
            autoComplete="current-password"
            testid="two-factor-password"
          />
          <FormTextInput
            name="code"
            label={t('twoFactor.codeOrRecovery')}
            {...CODE_INPUT}
            inputMode="text"
            testid="two-factor-disable-code"
          />
          <FormError testid="two-factor-disable-error" />
          <div className="flex justify-end gap-2">
            <DialogClose>
              <Button variant="secondary" testid="two-factor-disable-cancel">
                {t('cancel')}
              </Button>
            </DialogClose>
            <Button
              type="submit"
              variant="danger"
              loading={disable.isPending}
              testid="two-factor-disable-confirm"
            >
              {t('twoFactor.disable')}
            </Button>
          </div>
        </Form>
      </Dialog>
    </div>
  );
}
