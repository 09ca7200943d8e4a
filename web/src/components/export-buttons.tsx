/**
 * Two buttons that download a list (decision 0060): a CSV for German Excel and an Excel workbook
 * (XLSX). Each is busy while its file is fetched; a toast with `errorText` says when it fails.
 */
import { useState } from 'react';
import type { ExportFormat } from '../lib/download.ts';
import { Button } from './ui/button.tsx';
import { useToast } from './ui/toast-provider.tsx';

export function ExportButtons({
  onExport,
  labels,
  title,
  errorText,
  testid,
}: {
  onExport: (format: ExportFormat) => Promise<void>;
  labels: Record<ExportFormat, string>;
  title?: string;
  errorText: string;
  /** `<testid>-excel` and `<testid>-xlsx`. */
  testid: string;
}) {
  const { toast } = useToast();
  const [busy, setBusy] = useState<ExportFormat | null>(null);
  const run = async (format: ExportFormat) => {
    setBusy(format);
    try {
      await onExport(format);
    } catch {
      toast({ type: 'error', title: errorText, testid: `toast-${testid}-error` });
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="flex flex-wrap gap-2" title={title}>
      {(['excel', 'xlsx'] as const).map((format) => (
        <Button
          key={format}
          variant="secondary"
          loading={busy === format}
          disabled={busy !== null && busy !== format}
          onClick={() => void run(format)}
          testid={`${testid}-${format}`}
        >
          {labels[format]}
        </Button>
      ))}
    </div>
  );
}
