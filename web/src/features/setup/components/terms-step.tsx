/**
 * Setup step 3 (spec §2, §5): privacy, terms, data-processing agreement and a declaration;
 * next is enabled only when all four are ticked and accepts the current versions for the
 * current company (`POST /api/licenses/{id}/`). The documents are served by the app, in German.
 * Only an admin accepts for the company (decision 0022): other members are told that an admin
 * must accept the new terms, and may switch to another company (the switcher is the company
 * feature's, passed in by the screen) or log out.
 */
import type { ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
import { Button } from '../../../components/ui/button.tsx';
import { Form, useContractForm } from '../../../components/ui/form.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { useAcceptLicenses } from '../../../lib/account/accept-licenses.ts';
import { requireCurrentCompanyId } from '../../../lib/client-storage.ts';
import { useCurrentRole } from '../../../lib/use-can.ts';
import { canContinueTerms, type SetupData, type StepProps } from '../setup-data.ts';
import { StepActions } from './step-actions.tsx';

type Agreement = 'acceptedPrivacy' | 'acceptedTerms' | 'acceptedAvv' | 'declaration';

/** Spec §5: all four ticked. */
const TermsSchema = z.object({
  acceptedPrivacy: z.literal(true),
  acceptedTerms: z.literal(true),
  acceptedAvv: z.literal(true),
  declaration: z.literal(true),
});

/** Each checkbox with the German document it refers to (served by the server with its operator, `server/src/modules/legal`). */
const AGREEMENTS: Array<{ key: Agreement; document?: string; testid: string }> = [
  { key: 'acceptedPrivacy', document: '/legal/datenschutz.html', testid: 'setup-privacy' },
  { key: 'acceptedTerms', document: '/legal/lizenz.html', testid: 'setup-terms' },
  { key: 'acceptedAvv', document: '/legal/avv.html', testid: 'setup-avv' },
  { key: 'declaration', testid: 'setup-declaration' },
];

function DocumentLink({ href, children }: { href: string; children?: React.ReactNode }) {
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener"
      className="font-medium text-brand-700 underline"
      hrefLang="de"
    >
      {children}
    </a>
  );
}

/** What a member who is not an admin sees while the company's agreements await acceptance. */
function AdminMustAccept({ companySwitcher }: { companySwitcher: ReactNode }) {
  const { t } = useTranslation('setup');
  return (
    <div className="flex flex-col gap-4" data-testid="setup-admin-must-accept">
      <h2 className="text-xl font-semibold text-ink">{t('terms.title')}</h2>
      <p className="text-sm text-stone-700">{t('terms.adminMustAccept')}</p>
      {companySwitcher}
      <Link
        to="/logout"
        className="text-sm font-medium text-brand-700 hover:underline"
        data-testid="setup-logout"
      >
        {t('terms.logout')}
      </Link>
    </div>
  );
}

export interface TermsStepProps extends StepProps {
  /** Lets a member who cannot accept move to another company. */
  companySwitcher: ReactNode;
}

export function TermsStep({ companySwitcher, ...props }: TermsStepProps) {
  const role = useCurrentRole();
  if (role && role !== 'admin') return <AdminMustAccept companySwitcher={companySwitcher} />;
  return <AcceptTerms {...props} />;
}

function AcceptTerms({ data, update }: StepProps) {
  const { t } = useTranslation('setup');
  const navigate = useNavigate();
  const { toast } = useToast();
  const accept = useAcceptLicenses();
  const form = useContractForm(TermsSchema, {
    defaultValues: {
      acceptedPrivacy: data.acceptedPrivacy,
      acceptedTerms: data.acceptedTerms,
      acceptedAvv: data.acceptedAvv,
      declaration: data.declaration,
    } as z.input<typeof TermsSchema>,
  });

  const next = () =>
    accept.mutate(requireCurrentCompanyId(), {
      onSuccess: () => void navigate('/units', { replace: true }),
      onError: () => toast({ type: 'error', title: t('errors.updating'), description: t('terms.failed') }),
    });

  return (
    <Form form={form} onSubmit={next}>
      <h2 className="text-xl font-semibold text-ink">{t('terms.title')}</h2>
      <p className="mt-1 text-sm text-stone-600">{t('terms.text')}</p>
      <ul className="mt-6 flex flex-col gap-4">
        {AGREEMENTS.map(({ key, document, testid }) => (
          <li key={key}>
            <label className="flex cursor-pointer items-start gap-3 text-sm">
              <input
                type="checkbox"
                {...form.register(key, {
                  onChange: (event) => update({ [key]: event.target.checked } as Partial<SetupData>),
                })}
                className="mt-0.5 size-5 shrink-0 accent-brand-600"
                data-testid={testid}
              />
              <span>
                {document ? (
                  <Trans
                    t={t}
                    i18nKey={`terms.${key}`}
                    components={{ doc: <DocumentLink href={document} /> }}
                  />
                ) : (
                  t(`terms.${key}`)
                )}
              </span>
            </label>
          </li>
        ))}
      </ul>
      <StepActions
        next={
          <Button
            type="submit"
            disabled={!canContinueTerms(data)}
            loading={accept.isPending}
            testid="setup-next"
          >
            {t('terms.finish')}
          </Button>
        }
      />
    </Form>
  );
}
