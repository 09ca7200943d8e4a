import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { usePageTitle } from '../../../lib/page-title.tsx';

/** Spec §2 "any other path": 'Seite nicht gefunden' / 'Page not found' with a back link. */
export function NotFoundPage() {
  const { t } = useTranslation();
  usePageTitle(t('notFound.title'));
  const { pathname } = useLocation();
  return (
    <main className="flex min-h-full flex-col items-center justify-center gap-4 p-6 text-center">
      <p className="text-7xl font-bold text-brand-600" aria-hidden="true">
        404
      </p>
      <h1 className="text-2xl font-semibold" data-testid="not-found-title">
        {t('notFound.title')}
      </h1>
      <p className="max-w-md break-all text-stone-600">{t('notFound.text', { path: pathname })}</p>
      <Link
        to="/"
        className="rounded-lg bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700"
        data-testid="not-found-back"
      >
        {t('backHome')}
      </Link>
    </main>
  );
}
