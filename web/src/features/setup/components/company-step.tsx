/**
 * Setup step 2 (spec §2, §5): a two-way switch between creating a company (name field) and
 * joining one (invite-code field). Next is disabled while the active field is empty; a failed
 * call's message (e.g. the server's 'Invalid invite code.') is shown under the active field.
 * Opened from an invite mail, the code is filled in; a person who already belongs to
 * a company joins at once. A person who came here straight from an invite link skipped step 1:
 * the wizard's language (the sign-up's, else the browser's) is stored on the way, so joining
 * leads on into the app instead of back to step 1. Someone an admin removed from a company is
 * told so above the form (the server's notice), until they dismiss it or go on.
 */
import { CompanySetupQuerySchema, InviteSetupParamsSchema } from '@heizplan/contracts/account';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { Button } from '../../../components/ui/button.tsx';
import { cx } from '../../../components/ui/cx.ts';
import { applyServerErrors, Form, FormTextInput, useContractForm } from '../../../components/ui/form.tsx';
import { useCreateCompany } from '../../../lib/account/create-company.ts';
import { useDismissNotice } from '../../../lib/account/dismiss-notice.ts';
import { useMe } from '../../../lib/account/get-me.ts';
import { useJoinCompany } from '../../../lib/account/join-company.ts';
import { useUpdateLanguage } from '../../../lib/account/update-language.ts';
import { setCurrentCompanyId } from '../../../lib/client-storage.ts';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { canContinueCompany, type StepProps } from '../setup-data.ts';
import { StepActions } from './step-actions.tsx';

/** Create with a company name, or join with an invite code; only the active field counts. */
const CompanyStepSchema = z.discriminatedUnion('createNew', [
  z.object({ createNew: z.literal(true), companyName: CompanySetupQuerySchema.shape.company_name }),
  z.object({
    createNew: z.literal(false),
    inviteCode: InviteSetupParamsSchema.shape.invite_code.trim().min(1),
  }),
]);

export function CompanyStep({ data, update }: StepProps) {
  const { t } = useTranslation('setup');
  const problems = useProblemMessage();
  const navigate = useNavigate();
  const [query] = useSearchParams();
  const createCompany = useCreateCompany();
  const joinCompany = useJoinCompany();
  const updateLanguage = useUpdateLanguage();
  const dismiss = useDismissNotice();
  const me = useMe().data;
  const removals = me?.notices.filter((notice) => notice.kind === 'removed_from_company') ?? [];
  const pending = createCompany.isPending || joinCompany.isPending || updateLanguage.isPending;
  // Checked when next is pressed (next is disabled while the active field is empty).
  const form = useContractForm(CompanyStepSchema, {
    mode: 'onSubmit',
    // Both fields at once, so switching the mode keeps what was typed.
    defaultValues: {
      createNew: data.createNew,
      companyName: data.companyName,
      inviteCode: data.inviteCode,
    } as z.input<typeof CompanyStepSchema>,
  });
  const field = data.createNew ? 'companyName' : 'inviteCode';

  const next = (values: z.output<typeof CompanyStepSchema>) => {
    const handlers = {
      onSuccess: async (company: { id: string }) => {
        setCurrentCompanyId(company.id);
        // Should storing fail, the guards ask for the language in step 1 as before.
        if (me && !me.lang) await updateLanguage.mutateAsync(data.locale).catch(() => undefined);
        // In a company again: the removal has been read.
        for (const notice of removals) dismiss.mutate(notice.id);
        void navigate('/setup/3');
      },
      // The refusal (e.g. the server's 'Invalid invite code.') shows under the active field.
      onError: (error: Error) =>
        applyServerErrors(form, error, problems, { restOn: field, fallback: t('company.failed') }),
    };
    if (values.createNew) createCompany.mutate(values.companyName, handlers);
    else joinCompany.mutate(values.inviteCode, handlers);
  };

  const hasCompanies = (me?.company_ids.length ?? 0) > 0;
  const autoJoined = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: joins once, when the page opens from an invite link
  useEffect(() => {
    if (autoJoined.current || !hasCompanies || !query.get('invite_code') || data.createNew) return;
    autoJoined.current = true;
    void form.handleSubmit(next)();
  }, []);

  const modes = [
    { createNew: true, label: t('company.create'), testid: 'setup-mode-create' },
    { createNew: false, label: t('company.join'), testid: 'setup-mode-join' },
  ];

  return (
    <Form form={form} onSubmit={next}>
      {removals.map((notice) => (
        <div
          key={notice.id}
          role="status"
          className="mb-6 flex items-start gap-2 rounded-lg bg-amber-50 p-3 text-sm text-amber-900"
          data-testid="setup-removed-notice"
        >
          <p className="flex-1 py-1">{t('company.removed', { company: notice.company_name })}</p>
          <Button
            variant="ghost"
            size="sm"
            aria-label={t('company.dismissNotice')}
            onClick={() => dismiss.mutate(notice.id)}
            testid={`setup-notice-dismiss-${notice.id}`}
          >
            ×
          </Button>
        </div>
      ))}
      <h2 className="text-xl font-semibold text-ink">{t('company.title')}</h2>
      <p className="mt-1 text-sm text-stone-600">{t('company.text')}</p>
      <div
        role="radiogroup"
        aria-label={t('company.mode')}
        className="mt-6 grid grid-cols-2 rounded-lg bg-stone-100 p-1"
      >
        {modes.map((mode) => (
          // biome-ignore lint/a11y/useSemanticElements: a segmented switch; buttons keep it one tab stop each with visible state
          <button
            key={mode.testid}
            type="button"
            role="radio"
            aria-checked={data.createNew === mode.createNew}
            data-testid={mode.testid}
            onClick={() => {
              update({ createNew: mode.createNew });
              form.setValue('createNew', mode.createNew);
              form.clearErrors();
            }}
            className={cx(
              'rounded-md px-3 py-2 text-sm font-medium',
              data.createNew === mode.createNew
                ? 'bg-white text-ink shadow-sm'
                : 'text-stone-600 hover:text-ink',
            )}
          >
            {mode.label}
          </button>
        ))}
      </div>
      <div className="mt-6">
        {data.createNew ? (
          <FormTextInput
            name="companyName"
            label={t('company.name')}
            rules={{ onChange: (event) => update({ companyName: event.target.value }) }}
            autoComplete="organization"
            testid="setup-company-name"
          />
        ) : (
          <FormTextInput
            name="inviteCode"
            label={t('company.inviteCode')}
            rules={{ onChange: (event) => update({ inviteCode: event.target.value }) }}
            hint={t('company.inviteHint')}
            autoComplete="off"
            spellCheck={false}
            testid="setup-invite-code"
          />
        )}
      </div>
      <StepActions
        back={
          <Button
            variant="secondary"
            onClick={() => void navigate(`/setup/1${query.size ? `?${query}` : ''}`)}
            testid="setup-back"
          >
            {t('back')}
          </Button>
        }
        next={
          <div className="flex flex-col items-stretch gap-1 sm:items-end">
            <Button
              type="submit"
              disabled={!canContinueCompany(data)}
              loading={pending}
              aria-describedby={canContinueCompany(data) ? undefined : 'setup-next-why'}
              testid="setup-next"
            >
              {t('next')}
            </Button>
            {/* The spec keeps "next" disabled while the field is empty; this says why. */}
            {!canContinueCompany(data) && (
              <p id="setup-next-why" className="text-sm text-stone-600" data-testid="setup-next-why">
                {t(data.createNew ? 'company.nameMissing' : 'company.codeMissing')}
              </p>
            )}
          </div>
        }
      />
    </Form>
  );
}
