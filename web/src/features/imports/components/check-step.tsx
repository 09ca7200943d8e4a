/**
 * Step 3 of an import: what the dry run found. Every problem with its row as in the file, the
 * field and the problem's text in the UI language (its code translated from `problems`), 100 at a
 * time; the licences the devices need; the import only once there is no problem.
 */
import type { ImportCheck, ImportProblem } from '@heizplan/contracts/imports';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { useProblemMessage } from '../../../lib/problem-message.ts';

const PAGE = 100;

/** The problems of a dry run as a list: "Zeile 4 · Modell — Das Gerätemodell „acme“ ist unbekannt." */
export function ProblemList({ problems }: { problems: ImportProblem[] }) {
  const { t, i18n } = useTranslation('imports');
  const messages = useProblemMessage();
  const [shown, setShown] = useState(PAGE);
  const number = new Intl.NumberFormat(i18n.language);
  return (
    <div className="flex flex-col gap-2">
      <ul
        aria-label={t('check.listLabel')}
        className="flex flex-col divide-y divide-stone-100 rounded-lg border border-stone-200"
        data-testid="import-problems"
      >
        {problems.slice(0, shown).map((problem, i) => (
          <li
            // biome-ignore lint/suspicious/noArrayIndexKey: a row may have the same problem twice
            key={i}
            className="flex flex-col gap-0.5 px-3 py-2 text-sm sm:flex-row sm:gap-3"
            data-testid="import-problem"
          >
            <span className="shrink-0 font-medium text-ink sm:w-56">
              {[
                problem.row === null ? t('check.file') : t('check.row', { row: number.format(problem.row) }),
                problem.field ? t(`fields.${problem.field}`) : null,
              ]
                .filter(Boolean)
                .join(' · ')}
            </span>
            <span className="text-stone-800">
              {messages.coded(problem.code, problem.params) ?? messages.fieldText({ field: '', message: '' })}
            </span>
          </li>
        ))}
      </ul>
      {problems.length > shown && (
        <div>
          <Button
            variant="secondary"
            size="sm"
            onClick={() => setShown((n) => n + PAGE)}
            testid="import-problems-more"
          >
            {t('check.more')}
          </Button>
        </div>
      )}
    </div>
  );
}

export function CheckStep({
  check,
  onBack,
  onCommit,
  licenceAction,
}: {
  check: ImportCheck;
  onBack: () => void;
  onCommit: () => void;
  /** Shown when licences are short, e.g. a link to buy more (the page hands it in). */
  licenceAction?: ReactNode;
}) {
  const { t, i18n } = useTranslation('imports');
  const number = new Intl.NumberFormat(i18n.language);
  const ok = check.problemCount === 0;
  const short = check.licences !== null && check.licences.needed > check.licences.free;
  return (
    <div className="flex flex-col gap-4" data-testid="import-check">
      <div className="flex flex-col gap-1 text-sm">
        <p data-testid="import-check-summary">
          {t('check.summary', { rows: number.format(check.rowCount) })}
        </p>
        {check.licences && (
          <p data-testid="import-check-licences">
            {t('check.licences', {
              free: number.format(check.licences.free),
              needed: number.format(check.licences.needed),
            })}
          </p>
        )}
        <p
          role={ok ? 'status' : 'alert'}
          className={ok ? 'font-medium text-green-800' : 'font-medium text-red-700'}
          data-testid="import-check-result"
        >
          {ok
            ? t('check.ok')
            : t('check.problems', { count: check.problemCount, n: number.format(check.problemCount) })}
        </p>
        {short && licenceAction}
      </div>
      {!ok && (
        <>
          <ProblemList problems={check.problems} />
          {check.problems.length < check.problemCount && (
            <p className="text-xs text-stone-600">
              {t('check.shown', {
                shown: number.format(check.problems.length),
                total: number.format(check.problemCount),
              })}
            </p>
          )}
        </>
      )}
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" onClick={onBack} testid="import-check-back">
          {t('check.back')}
        </Button>
        {ok && (
          <Button onClick={onCommit} testid="import-commit">
            {t('check.import', { count: check.rowCount, n: number.format(check.rowCount) })}
          </Button>
        )}
      </div>
    </div>
  );
}
