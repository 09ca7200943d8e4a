/**
 * `/settings/help/changelog` (navigation "Änderungen" / "Changelog"): the repository's
 * CHANGELOG.md (Keep a Changelog 1.1.0), bundled at build time as text and rendered with
 * react-markdown into React elements — no HTML string, no script, so the strict CSP holds
 * (decision 0031). Raw HTML in the file is dropped. German readers get CHANGELOG.de.md, the
 * German version kept alongside; every other language reads the English file.
 */
import type { ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import Markdown, { type Components } from 'react-markdown';
import { Link } from 'react-router';
import changelogDe from '../../../../../CHANGELOG.de.md?raw';
import changelogEn from '../../../../../CHANGELOG.md?raw';
import { SettingsCard } from '../../../components/settings-card.tsx';

/** The file's headings sit below the settings page's h1, so each moves one level down. */
const components: Components = {
  h1: ({ node: _node, ...props }) => <h2 className="sr-only" {...props} />,
  h2: ({ node: _node, ...props }) => (
    <h3
      className="mt-6 border-b border-stone-200 pb-1 text-lg font-semibold text-ink first:mt-0"
      {...props}
    />
  ),
  h3: ({ node: _node, ...props }) => <h4 className="mt-4 text-base font-semibold text-ink" {...props} />,
  p: ({ node: _node, ...props }) => <p className="mt-2 text-sm text-stone-700" {...props} />,
  ul: ({ node: _node, ...props }) => (
    <ul className="mt-2 flex list-disc flex-col gap-1.5 pl-5 text-sm text-stone-700" {...props} />
  ),
  code: ({ node: _node, ...props }) => (
    <code className="rounded bg-stone-100 px-1 py-0.5 text-[0.85em]" {...props} />
  ),
  a: ({ node: _node, ...props }: ComponentProps<'a'> & { node?: unknown }) => (
    <a className="font-medium text-brand-700 hover:underline" target="_blank" rel="noreferrer" {...props} />
  ),
};

export function ChangelogPage() {
  const { t, i18n } = useTranslation('help');
  const changelog = i18n.resolvedLanguage === 'de' ? changelogDe : changelogEn;
  return (
    <SettingsCard title={t('changelog.title')} description={t('changelog.text')} testid="changelog">
      <Link
        to="/settings/help"
        className="text-sm font-medium text-brand-700 hover:underline"
        data-testid="changelog-back"
      >
        {t('changelog.back')}
      </Link>
      <div className="mt-4" data-testid="changelog-content">
        <Markdown components={components} skipHtml>
          {changelog}
        </Markdown>
      </div>
    </SettingsCard>
  );
}
