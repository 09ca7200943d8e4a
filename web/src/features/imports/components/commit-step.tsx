/**
 * Step 4 of an import: a progress bar while the rows are written (the server reports each chunk),
 * then what was created — or, when the server refused after all, that nothing was imported and
 * why. `links` are the page's ways on (to the list, another file).
 */
import type { ImportKind, ImportResult } from '@heizplan/contracts/imports';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface CommitState {
  done: number;
  total: number;
  result: ImportResult | null;
  /** The refusal's text in the UI language, when the import failed. */
  error: string | null;
}

export function CommitStep({
  kind,
  state,
  links,
}: {
  kind: ImportKind;
  state: CommitState;
  links: ReactNode;
}) {
  const { t, i18n } = useTranslation('imports');
  const number = new Intl.NumberFormat(i18n.language);
  const { done, total, result, error } = state;
  const percent = total > 0 ? Math.round((done / total) * 100) : 0;
  return (
    <div className="flex flex-col gap-4" data-testid="import-commit-step">
      {!result && !error && (
        <div className="flex flex-col gap-2">
          <div
            role="progressbar"
            aria-label={t('commit.progressLabel')}
            aria-valuemin={0}
            aria-valuemax={total}
            aria-valuenow={done}
            className="h-3 w-full overflow-hidden rounded-full bg-stone-200"
            data-testid="import-progress"
          >
            <div
              className="h-full rounded-full bg-brand-600 transition-all"
              style={{ width: `${percent}%` }}
            />
          </div>
          <p className="text-sm text-stone-700" data-testid="import-progress-text">
            {total > 0
              ? t('commit.progress', { done: number.format(done), total: number.format(total) })
              : t('commit.starting')}
          </p>
        </div>
      )}
      {error && (
        <div
          role="alert"
          className="flex flex-col gap-1 text-sm text-red-700"
          data-testid="import-commit-error"
        >
          <p className="font-medium">{t('commit.failed')}</p>
          <p>{error}</p>
        </div>
      )}
      {result && (
        <div role="status" className="flex flex-col gap-1 text-sm" data-testid="import-result">
          <p className="font-medium text-green-800">
            {t(`commit.created.${kind}`, { count: result.created, n: number.format(result.created) })}
          </p>
          {kind === 'devices' && result.assigned > 0 && (
            <p>{t('commit.assigned', { count: result.assigned, n: number.format(result.assigned) })}</p>
          )}
          {kind === 'units' && <p>{t('commit.unitsDue')}</p>}
        </div>
      )}
      {(result || error) && <div className="flex flex-wrap gap-2">{links}</div>}
    </div>
  );
}
