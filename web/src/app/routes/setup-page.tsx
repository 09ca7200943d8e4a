/**
 * `/setup/:step` (spec §2): the onboarding wizard without navigation — language, company
 * (create or join), terms — with the step indicator of the UI kit. Unknown steps go to step 1.
 * The step guards (`SetupGuard`) run before this page. The terms step gets the company
 * feature's switcher for members who cannot accept for their company.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { ProgressSteps } from '../../components/ui/progress-steps.tsx';
import { CompanySwitcher } from '../../features/company/components/company-switcher.tsx';
import { CompanyStep } from '../../features/setup/components/company-step.tsx';
import { LanguageStep } from '../../features/setup/components/language-step.tsx';
import { TermsStep } from '../../features/setup/components/terms-step.tsx';
import {
  defaultSetupData,
  parseStep,
  type SetupData,
  withInviteCode,
} from '../../features/setup/setup-data.ts';
import { useMe } from '../../lib/account/get-me.ts';
import { signInLanguage } from '../../lib/client-storage.ts';
import { usePageTitle } from '../../lib/page-title.tsx';
import { browserLanguage, chosenLanguage } from '../i18n.ts';

export function SetupPage() {
  const { t } = useTranslation('setup');
  const { t: tc } = useTranslation();
  usePageTitle(t('title'));
  const navigate = useNavigate();
  const step = parseStep(useParams().step);
  const me = useMe();
  const [query] = useSearchParams();
  // The language chosen before, else the one the person signed up in (the hosted pages'),
  // else the browser's: a German speaker who presses "Weiter" must not end up in English.
  const [data, setData] = useState<SetupData>(() =>
    withInviteCode(
      defaultSetupData(me.data?.lang ?? signInLanguage() ?? chosenLanguage() ?? browserLanguage()),
      query.get('invite_code'),
    ),
  );
  const update = (patch: Partial<SetupData>) => setData((current) => ({ ...current, ...patch }));

  if (!step) return <Navigate to="/setup/1" replace />;

  const items = [
    { title: t('steps.language'), testid: 'setup-step-1' },
    { title: t('steps.company'), testid: 'setup-step-2' },
    { title: t('steps.terms'), testid: 'setup-step-3' },
  ];
  const props = { data, update };

  return (
    <main className="flex min-h-full flex-col items-center px-4 py-8 sm:py-12" data-testid="setup-page">
      <div className="flex w-full max-w-2xl flex-col gap-6">
        <span className="flex items-center gap-2 text-lg font-semibold text-ink">
          <img src="/favicon.svg" alt="" className="size-7" />
          {tc('appName')}
        </span>
        <h1 className="sr-only">{t('title')}</h1>
        <ProgressSteps
          items={items}
          current={step - 1}
          // From step 3 the company step would send the user straight back, so back only from 2.
          allowBack={step === 2}
          onStepClick={(index) => void navigate(`/setup/${index + 1}`)}
          testid="setup-steps"
        />
        <section className="rounded-xl border border-stone-200 bg-white p-5 shadow-sm sm:p-8">
          {step === 1 && <LanguageStep {...props} />}
          {step === 2 && <CompanyStep {...props} />}
          {step === 3 && <TermsStep {...props} companySwitcher={<CompanySwitcher id="setup-company" />} />}
        </section>
      </div>
    </main>
  );
}
