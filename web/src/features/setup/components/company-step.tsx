/**
 * Setup step 2 (spec §2, §5): a two-way switch between creating a company (name field) and
 * joining one (invite-code field). Next is disabled while the active field is empty; a failed
 * call's message (e.g. the server's 'Invalid invite code.') is shown under the active field.
 * Opened from an invite mail (issue 12), the code is filled in; a person who already belongs to
 * a company joins at once.
 */
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { cx } from '../../../components/ui/cx.ts';
import { TextInput } from '../../../components/ui/field.tsx';
import { useCreateCompany } from '../../../lib/account/create-company.ts';
import { useMe } from '../../../lib/account/get-me.ts';
import { useJoinCompany } from '../../../lib/account/join-company.ts';
import { setCurrentCompanyId } from '../../../lib/client-storage.ts';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { canContinueCompany, type StepProps } from '../setup-data.ts';
import { StepActions } from './step-actions.tsx';

export function CompanyStep({ data, update }: StepProps) {
  const { t } = useTranslation('setup');
  const problems = useProblemMessage();
  const navigate = useNavigate();
  const [query] = useSearchParams();
  const createCompany = useCreateCompany();
  const joinCompany = useJoinCompany();
  const pending = createCompany.isPending || joinCompany.isPending;

  const handlers = {
    onSuccess: (company: { id: string }) => {
      setCurrentCompanyId(company.id);
      void navigate('/setup/3');
    },
    onError: (error: Error) =>
      update({
        errorMessage: problems.reason(error) ?? t('company.failed'),
      }),
  };
  const next = () => {
    update({ errorMessage: null });
    if (data.createNew) createCompany.mutate(data.companyName, handlers);
    else joinCompany.mutate(data.inviteCode, handlers);
  };

  const hasCompanies = (useMe().data?.company_ids.length ?? 0) > 0;
  const autoJoined = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: joins once, when the page opens from an invite link
  useEffect(() => {
    if (autoJoined.current || !hasCompanies || !query.get('invite_code') || data.createNew) return;
    autoJoined.current = true;
    next();
  }, []);

  const modes = [
    { createNew: true, label: t('company.create'), testid: 'setup-mode-create' },
    { createNew: false, label: t('company.join'), testid: 'setup-mode-join' },
  ];

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (canContinueCompany(data)) next();
      }}
    >
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
            onClick={() => update({ createNew: mode.createNew, errorMessage: null })}
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
          <TextInput
            label={t('company.name')}
            value={data.companyName}
            onChange={(event) => update({ companyName: event.target.value })}
            error={data.errorMessage}
            autoComplete="organization"
            testid="setup-company-name"
          />
        ) : (
          <TextInput
            label={t('company.inviteCode')}
            value={data.inviteCode}
            onChange={(event) => update({ inviteCode: event.target.value })}
            error={data.errorMessage}
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
          <Button type="submit" disabled={!canContinueCompany(data)} loading={pending} testid="setup-next">
            {t('next')}
          </Button>
        }
      />
    </form>
  );
}
