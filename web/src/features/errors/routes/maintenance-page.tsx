import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { usePageTitle } from '../../../lib/page-title.tsx';

/** Spec §8: where the main guard sends a user when the profile call fails. */
export function MaintenancePage() {
  const { t } = useTranslation();
  usePageTitle(t('maintenance.title'));
  return (
    <main className="flex min-h-full flex-col items-center justify-center gap-4 p-6 text-center">
      <svg
        viewBox="0 0 24 24"
        className="size-16 text-brand-600"
        aria-hidden="true"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
      >
        <path
          d="M14.7 6.3a4 4 0 0 0-5.4 5.4L3 18l3 3 6.3-6.3a4 4 0 0 0 5.4-5.4l-2.5 2.5-2.4-.6-.6-2.4z"
          strokeLinejoin="round"
        />
      </svg>
      <h1 className="text-2xl font-semibold">{t('maintenance.title')}</h1>
      <p className="max-w-md text-stone-600" data-testid="maintenance-text">
        {t('maintenance.text')}
      </p>
      <Link
        to="/"
        className="rounded-lg border border-stone-300 bg-white px-4 py-2 font-medium hover:bg-stone-100"
      >
        {t('maintenance.retry')}
      </Link>
    </main>
  );
}
