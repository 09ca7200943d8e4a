/**
 * `/settings/language` (spec §2): German or English, stored with `POST /api/me/language` and
 * applied at once; 'Language updated' / 'Error updating' toasts (spec §8).
 */
import { type Language, LanguageQuerySchema } from '@heizplan/contracts/account';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, setLanguage } from '../../../app/i18n.ts';
import { SettingsCard } from '../../../components/settings-card.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { cx } from '../../../components/ui/cx.ts';
import { Form, useContractForm } from '../../../components/ui/form.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { useMe } from '../../../lib/account/get-me.ts';
import { useUpdateLanguage } from '../../../lib/account/update-language.ts';

export function SettingsLanguagePage() {
  const { t, i18n } = useTranslation('settings');
  const { toast } = useToast();
  const me = useMe();
  const stored: Language = me.data?.lang ?? (i18n.language === 'en' ? 'en' : 'de');
  // The stored language once the profile is there, unless the user already picked one.
  const form = useContractForm(LanguageQuerySchema, {
    values: { lang: stored },
    resetOptions: { keepDirtyValues: true },
  });
  const selected = form.watch('lang');
  const updateLanguage = useUpdateLanguage();

  const save = ({ lang }: { lang: Language }) =>
    updateLanguage.mutate(lang, {
      onSuccess: async () => {
        await setLanguage(lang);
        // In the new language: this render's `t` is still bound to the old one.
        const title = i18n.getFixedT(lang, 'settings')('toasts.languageUpdated');
        toast({ type: 'success', title, testid: 'toast-language-updated' });
      },
      onError: () =>
        toast({ type: 'error', title: t('toasts.errorUpdating'), description: t('toasts.languageError') }),
    });

  return (
    <SettingsCard title={t('language.title')} description={t('language.text')} testid="settings-language">
      <Form form={form} onSubmit={save}>
        <fieldset>
          <legend className="sr-only">{t('language.title')}</legend>
          <div className="flex flex-col gap-2 sm:flex-row">
            {LANGUAGES.map((lang) => (
              <label
                key={lang}
                className={cx(
                  'flex flex-1 cursor-pointer items-center gap-3 rounded-lg border-2 px-4 py-3 text-sm font-medium has-focus-visible:outline-2 has-focus-visible:outline-brand-600',
                  selected === lang
                    ? 'border-brand-600 bg-brand-50'
                    : 'border-stone-200 hover:border-stone-300',
                )}
              >
                <input
                  type="radio"
                  value={lang}
                  {...form.register('lang')}
                  className="size-4 accent-brand-600"
                  data-testid={`language-${lang}`}
                />
                {t(`language.names.${lang}`)}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="mt-4 flex justify-end">
          <Button type="submit" loading={updateLanguage.isPending} testid="language-save">
            {t('save')}
          </Button>
        </div>
      </Form>
    </SettingsCard>
  );
}
