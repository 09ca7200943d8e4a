/**
 * Step 1 of an import: what to import (units or devices) and the file. A CSV is read in the
 * browser (papaparse), an XLSX by the server's preview; a file over the size limit is refused
 * before it is sent. Hands the file and its header and first rows to the mapping step.
 */
import {
  IMPORT_FIELDS,
  IMPORT_MAX_BYTES,
  IMPORT_TEMPLATES,
  type ImportKind,
  type ImportPreview,
} from '@heizplan/contracts/imports';
import { type ReactNode, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { RadioCards } from '../../../components/ui/radio-cards.tsx';
import { useProblemMessage } from '../../../lib/problem-message.ts';
import { isWorkbook, usePreviewFile } from '../api/imports.ts';
import { previewCsv } from '../csv-preview.ts';

const MAX_MB = IMPORT_MAX_BYTES / 1024 / 1024;

/** A CSV cell, quoted when it holds the separator, a quote or a line break (RFC 4180). */
const cell = (text: string) => (/[;"\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);

/**
 * The template of `kind` as a CSV that Excel opens with its columns (byte order mark, `;`), as a
 * data address for a download link: headers the mapping recognises, one example row.
 */
export function templateHref(kind: ImportKind, language: string): string {
  const template = IMPORT_TEMPLATES[kind][language.startsWith('de') ? 'de' : 'en'];
  const fields = IMPORT_FIELDS[kind];
  const lines = [
    fields.map((field) => cell(template.headers[field] ?? field)).join(';'),
    fields.map((field) => cell(template.example[field] ?? '')).join(';'),
  ];
  return `data:text/csv;charset=utf-8,${encodeURIComponent(`\uFEFF${lines.join('\r\n')}\r\n`)}`;
}

export interface ChosenFile {
  file: File;
  preview: ImportPreview;
}

export function FileStep({
  kind,
  note,
  onKind,
  chosen,
  onChosen,
  onNext,
}: {
  kind: ImportKind;
  /** Said before the file is chosen (the licences free for a device import). */
  note?: ReactNode;
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
      {note}
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
        <p className="text-sm">
          <a
            href={templateHref(kind, i18n.language)}
            download={t(`template.file.${kind}`)}
            className="font-medium text-brand-700 underline underline-offset-2"
          >
            {t(`template.link.${kind}`)}
          </a>
        </p>
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
