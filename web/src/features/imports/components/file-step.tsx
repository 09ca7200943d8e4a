/**
 * Step 1 of an import: what to import (units or devices) and the file. A CSV is read in the
 * browser (papaparse), an XLSX by the server's preview; a file over the size limit is refused
 * before it is sent. Hands the file and its header and first rows to the mapping step.
 */
import { IMPORT_MAX_BYTES, type ImportKind, type ImportPreview } from '@heizplan/contracts/imports';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { RadioCards } from '../../../components/ui/radio-cards.tsx';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { isWorkbook, usePreviewFile } from '../api/imports.ts';
import { previewCsv } from '../csv-preview.ts';

const MAX_MB = IMPORT_MAX_BYTES / 1024 / 1024;

export interface ChosenFile {
  file: File;
  preview: ImportPreview;
}

export function FileStep({
  kind,
  onKind,
  chosen,
  onChosen,
  onNext,
}: {
  kind: ImportKind;
  onKind: (kind: ImportKind) => void;
  chosen: ChosenFile | null;
  onChosen: (chosen: ChosenFile | null) => void;
  onNext: () => void;
}) {
  const { t, i18n } = useTranslation('imports');
  const problems = useProblemMessage();
  const input = useRef<HTMLInputElement>(null);
  const serverPreview = usePreviewFile();
  const [reading, setReading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const number = new Intl.NumberFormat(i18n.language);

  const choose = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    onChosen(null);
    if (file.size > IMPORT_MAX_BYTES) {
      setError(problems.coded('import_file_too_large', { maxMb: MAX_MB }));
      return;
    }
    setReading(true);
    try {
      const preview = isWorkbook(file) ? await serverPreview.mutateAsync(file) : await previewCsv(file);
      if (preview.columns.every((c) => c === '') || preview.rowCount === 0)
        setError(problems.coded('import_file_empty'));
      else onChosen({ file, preview });
    } catch (cause) {
      setError(problems.message(cause, t('file.unreadable')));
    } finally {
      setReading(false);
      if (input.current) input.current.value = '';
    }
  };

  return (
    <div className="flex flex-col gap-5" data-testid="import-file-step">
      <RadioCards
        legend={t('kinds.legend')}
        name="import-kind"
        columns={2}
        value={kind}
        onChange={onKind}
        options={(['devices', 'units'] as const).map((id) => ({
          id,
          title: t(`kinds.${id}.title`),
          description: t(`kinds.${id}.description`),
          testid: `import-kind-${id}`,
        }))}
        testid="import-kind"
      />
      <div className="flex flex-col gap-2">
        <span className="text-sm font-medium text-ink">{t('file.label')}</span>
        <div className="flex flex-wrap items-center gap-3">
          <input
            ref={input}
            type="file"
            accept=".csv,.txt,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            className="sr-only"
            onChange={(event) => void choose(event.target.files?.[0])}
            aria-label={t('file.choose')}
            data-testid="import-file-input"
          />
          <Button
            variant="secondary"
            onClick={() => input.current?.click()}
            loading={reading}
            testid="import-file-choose"
          >
            {reading ? t('file.reading') : t('file.choose')}
          </Button>
          {chosen && (
            <span className="break-all text-sm text-stone-700" data-testid="import-file-chosen">
              {t('file.chosen', { name: chosen.file.name, rows: number.format(chosen.preview.rowCount) })}
            </span>
          )}
        </div>
        <p className="text-xs text-stone-600">{t('file.hint', { maxMb: number.format(MAX_MB) })}</p>
        {error && (
          <p role="alert" className="text-sm text-red-700" data-testid="import-file-error">
            {error}
          </p>
        )}
      </div>
      <div>
        <Button onClick={onNext} disabled={!chosen} testid="import-file-next">
          {t('file.next')}
        </Button>
      </div>
    </div>
  );
}
