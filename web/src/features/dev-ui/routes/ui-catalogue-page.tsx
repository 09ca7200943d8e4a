/**
 * `/dev/ui`: the widget catalogue. Every widget of `components/ui` in its states,
 * switchable between German and English, for designers and for the browser journey
 * `web/e2e/ui-catalogue.test.ts`. Outside the authenticated shell; it shows made-up data only.
 */
import { useTranslation } from 'react-i18next';
import { cx } from '../../../components/ui/cx.ts';
import {
  DialogDemos,
  SpinnerDemos,
  StepsDemos,
  ToastDemos,
  TooltipDemos,
} from '../components/feedback-demos.tsx';
import { ButtonDemos, ComboboxDemos, FieldDemos } from '../components/form-demos.tsx';
import { TableDemos } from '../components/table-demos.tsx';

const LANGUAGES = ['de', 'en'] as const;

function LanguageSwitch() {
  const { t, i18n } = useTranslation('dev-ui');
  return (
    <fieldset className="flex items-center gap-2">
      <legend className="sr-only">{t('language')}</legend>
      {LANGUAGES.map((lng) => {
        const active = i18n.resolvedLanguage === lng;
        return (
          <button
            key={lng}
            type="button"
            lang={lng}
            aria-pressed={active}
            data-testid={`catalogue-lang-${lng}`}
            onClick={() => {
              document.documentElement.lang = lng;
              void i18n.changeLanguage(lng);
            }}
            className={cx(
              'h-9 rounded-lg px-3 text-sm font-semibold uppercase',
              active
                ? 'bg-brand-600 text-white'
                : 'border border-stone-300 bg-white text-ink hover:bg-stone-100',
            )}
          >
            {lng}
          </button>
        );
      })}
    </fieldset>
  );
}

export function UiCataloguePage() {
  const { t } = useTranslation('dev-ui');
  return (
    <main className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-8 sm:px-6">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold text-ink" data-testid="catalogue-title">
            {t('title')}
          </h1>
          <p className="mt-1 max-w-2xl text-stone-600">{t('intro')}</p>
        </div>
        <LanguageSwitch />
      </header>
      <ButtonDemos />
      <FieldDemos />
      <ComboboxDemos />
      <TooltipDemos />
      <ToastDemos />
      <StepsDemos />
      <SpinnerDemos />
      <DialogDemos />
      <TableDemos />
    </main>
  );
}
