import { useTranslation } from 'react-i18next';

/** A titled, translated page for a screen whose feature is still being built. */
export function PlaceholderPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return (
    <section className="mx-auto max-w-3xl p-6">
      <h1 className="text-2xl font-semibold">{t(titleKey)}</h1>
      <p className="mt-2 text-stone-600">{t('comingSoon')}</p>
    </section>
  );
}
