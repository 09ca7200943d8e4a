/**
 * The report as a file (as `components/export-buttons.tsx`, with CSV and PDF besides): Excel-CSV,
 * CSV, XLSX and PDF of the month and scope shown. Each button is busy while its file is fetched;
 * a toast says when it fails. A season has no file: the buttons are disabled and say why.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { downloadReport, REPORT_EXPORT_FORMATS, type ReportExportFormat } from '../api/reports.ts';
import type { ReportRequest } from '../report-view.ts';

export function ReportDownloads({ request }: { request: ReportRequest }) {
  const { t, i18n } = useTranslation('reports');
  const { toast } = useToast();
  const [busy, setBusy] = useState<ReportExportFormat | null>(null);
  const month = request.month;
  const run = async (format: ReportExportFormat) => {
    if (!month) return;
    setBusy(format);
    try {
      await downloadReport({ ...request, month }, format, {
        lang: i18n.language === 'en' ? 'en' : 'de',
        name: t('export.fileName'),
      });
    } catch {
      toast({ type: 'error', title: t('export.error'), testid: 'toast-report-export-error' });
    } finally {
      setBusy(null);
    }
  };
  const hint = month ? undefined : t('export.seasonHint');
  return (
    <fieldset className="flex min-w-0 flex-col gap-1" data-testid="report-exports">
      <legend className="sr-only">{t('export.label')}</legend>
      <div className="flex flex-wrap gap-2" title={hint}>
        {REPORT_EXPORT_FORMATS.map((format) => (
          <Button
            key={format}
            variant="secondary"
            size="sm"
            loading={busy === format}
            disabled={!month || (busy !== null && busy !== format)}
            title={hint}
            onClick={() => void run(format)}
            testid={`report-export-${format}`}
          >
            {t(`export.${format}`)}
          </Button>
        ))}
      </div>
      {hint && (
        <p className="text-xs text-stone-600" data-testid="report-export-season-hint">
          {hint}
        </p>
      )}
    </fieldset>
  );
}
