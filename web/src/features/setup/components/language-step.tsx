/**
 * Setup step 1 (spec §2): one flag radio per locale, English with the US flag. Choosing one
 * switches the screen's language at once; next stores it with `POST /api/me/language`.
 */
import { type Language, LanguageQuerySchema } from '@heizplan/contracts/account';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LANGUAGES, setLanguage } from '../../../app/i18n.ts';
import { Button } from '../../../components/ui/button.tsx';
import { cx } from '../../../components/ui/cx.ts';
import { Form, useContractForm } from '../../../components/ui/form.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { useUpdateLanguage } from '../../../lib/account/update-language.ts';
import type { StepProps } from '../setup-data.ts';
import { Flag } from './flag.tsx';
import { StepActions } from './step-actions.tsx';

export function LanguageStep({ data, update }: StepProps) {
  const { t } = useTranslation('setup');
  const navigate = useNavigate();
  const { toast } = useToast();
  const updateLanguage = useUpdateLanguage();
  const form = useContractForm(LanguageQuerySchema, { defaultValues: { lang: data.locale } });
  const chosen = form.watch('lang');

  // The screen speaks the chosen language at once (spec §2).
  const choose = (locale: Language) => {
    update({ locale });
    void setLanguage(locale);
  };
  const next = ({ lang }: { lang: Language }) =>
    updateLanguage.mutate(lang, {
      onSuccess: () => void navigate('/setup/2'),
      onError: () =>
        toast({ type: 'error', title: t('errors.updating'), description: t('errors.updatingLanguage') }),
    });

  return (
    <Form form={form} onSubmit={next}>
      <fieldset>
        <legend className="text-xl font-semibold text-ink">{t('language.title')}</legend>
        <p className="mt-1 text-sm text-stone-600">{t('language.text')}</p>
        <div className="mt-6 grid grid-cols-2 gap-3">
          {LANGUAGES.map((locale) => (
            <label
              key={locale}
              className={cx(
                'flex cursor-pointer flex-col items-center gap-3 rounded-xl border-2 p-4 has-focus-visible:outline-2 has-focus-visible:outline-brand-600',
                chosen === locale
                  ? 'border-brand-600 bg-brand-50'
                  : 'border-stone-200 hover:border-stone-300',
              )}
            >
              <input
                type="radio"
                value={locale}
                {...form.register('lang', { onChange: () => choose(locale) })}
                className="sr-only"
                data-testid={`setup-lang-${locale}`}
              />
              <Flag locale={locale} />
              <span className="text-sm font-medium">{t(`language.names.${locale}`)}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <StepActions
        next={
          <Button type="submit" loading={updateLanguage.isPending} testid="setup-next">
            {t('next')}
          </Button>
        }
      />
    </Form>
  );
}
