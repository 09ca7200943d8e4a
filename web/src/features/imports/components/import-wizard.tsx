/**
 * The import of units or devices (decision 0063) in four steps: choose kind and file, map the
 * columns (remembered or suggested) with defaults, check every row in a dry run, and import with
 * a progress bar and a summary. Nothing is written before the last step, and then all rows or
 * none. The page hands in what lies outside the feature: the licence shop link and what to do
 * once rows were imported (refresh other screens' lists).
 */
import type { ImportCheck, ImportKind } from '@heizplan/contracts/imports';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { ProgressSteps } from '../../../components/ui/progress-steps.tsx';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { commitImport, type ImportSettings, useDryRun, useImportMapping } from '../api/imports.ts';
import { CheckStep } from './check-step.tsx';
import { type CommitState, CommitStep } from './commit-step.tsx';
import { type ChosenFile, FileStep } from './file-step.tsx';
import { MappingStep } from './mapping-step.tsx';

const STEPS = ['file', 'mapping', 'check', 'import'] as const;
const IDLE: CommitState = { done: 0, total: 0, result: null, error: null };

export interface ImportWizardProps {
  initialKind: ImportKind;
  /** Called once rows of `kind` were imported. */
  onImported?: (kind: ImportKind) => void;
  /** Shown when the devices need more licences than are free (a link to buy some). */
  licenceAction?: ReactNode;
  /** Shown above the file choice while devices are the kind: the licences free before the import. */
  deviceLicencesNote?: ReactNode;
}

export function ImportWizard({
  initialKind,
  onImported,
  licenceAction,
  deviceLicencesNote,
}: ImportWizardProps) {
  const { t } = useTranslation('imports');
  const problems = useProblemMessage();
  const [step, setStep] = useState(0);
  const [kind, setKind] = useState<ImportKind>(initialKind);
  const [chosen, setChosen] = useState<ChosenFile | null>(null);
  const [settings, setSettings] = useState<ImportSettings | null>(null);
  const [check, setCheck] = useState<ImportCheck | null>(null);
  const [commit, setCommit] = useState<CommitState>(IDLE);
  const mapping = useImportMapping(kind, step >= 1 && chosen ? chosen.preview.columns : null);
  const dryRun = useDryRun();

  const runCheck = (next: ImportSettings) => {
    if (!chosen) return;
    setSettings(next);
    dryRun.mutate(
      { kind, file: chosen.file, settings: next },
      {
        onSuccess: (answer) => {
          setCheck(answer);
          setStep(2);
        },
      },
    );
  };

  const runCommit = async () => {
    if (!chosen || !settings) return;
    setStep(3);
    setCommit(IDLE);
    try {
      const result = await commitImport(kind, chosen.file, settings, (done, total) =>
        setCommit({ ...IDLE, done, total }),
      );
      setCommit({ ...IDLE, done: result.created, total: result.created, result });
      onImported?.(kind);
    } catch (error) {
      setCommit({ ...IDLE, error: problems.message(error, t('commit.failed')) });
    }
  };

  const restart = () => {
    setStep(0);
    setChosen(null);
    setSettings(null);
    setCheck(null);
    setCommit(IDLE);
    dryRun.reset();
  };
  const finished = commit.result !== null || commit.error !== null;

  return (
    <div className="flex flex-col gap-6" data-testid="import-wizard">
      <ProgressSteps
        items={STEPS.map((s) => ({ title: t(`steps.${s}`), testid: `import-step-${s}` }))}
        // After a successful import every step is done: the last one no longer says "in progress".
        current={commit.result ? STEPS.length : step}
        allowBack={step < 3 || commit.error !== null}
        onStepClick={setStep}
        testid="import-steps"
      />
      {step === 0 && (
        <FileStep
          kind={kind}
          note={kind === 'devices' ? deviceLicencesNote : undefined}
          onKind={(next) => {
            setKind(next);
            setSettings(null);
            setCheck(null);
          }}
          chosen={chosen}
          onChosen={(next) => {
            setChosen(next);
            setSettings(null);
            setCheck(null);
          }}
          onNext={() => setStep(1)}
        />
      )}
      {step === 1 && chosen && (
        <div className="flex flex-col gap-3">
          {mapping.isPending && <p className="text-sm text-stone-600">{t('mapping.loading')}</p>}
          {mapping.isError && (
            <p role="alert" className="text-sm text-red-700">
              {problems.message(mapping.error, t('mapping.loadError'))}
            </p>
          )}
          {mapping.data && (
            <MappingStep
              key={`${kind}:${chosen.file.name}:${chosen.file.lastModified}`}
              kind={kind}
              preview={chosen.preview}
              answer={settings ? { ...mapping.data, ...settings } : mapping.data}
              onBack={() => setStep(0)}
              onSubmit={runCheck}
              checking={dryRun.isPending}
            />
          )}
          {dryRun.isError && (
            <p role="alert" className="text-sm text-red-700" data-testid="import-check-error">
              {problems.message(dryRun.error, t('check.error'))}
            </p>
          )}
        </div>
      )}
      {step === 2 && check && (
        <CheckStep
          check={check}
          onBack={() => setStep(1)}
          onCommit={() => void runCommit()}
          licenceAction={licenceAction}
        />
      )}
      {step === 3 && (
        <CommitStep
          kind={kind}
          state={commit}
          links={
            finished && (
              <>
                {commit.result && (
                  <Link
                    to={`/${kind}`}
                    className="inline-flex h-10 items-center rounded-lg bg-brand-600 px-4 text-sm font-medium text-white hover:bg-brand-700"
                    data-testid="import-to-list"
                  >
                    {t(`commit.toList.${kind}`)}
                  </Link>
                )}
                <Button variant="secondary" onClick={restart} testid="import-again">
                  {t('commit.again')}
                </Button>
              </>
            )
          }
        />
      )}
    </div>
  );
}
