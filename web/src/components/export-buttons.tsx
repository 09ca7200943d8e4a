/**
 * Buttons that download a list (decision 0060), by default a CSV for German Excel and an Excel
 * workbook (XLSX); a screen may offer other formats of its endpoint (the devices' network server
 * files) with a one-line `hint` under them. Each is busy while its file is fetched; a toast with
 * `errorText` says when it fails, with `describeError`'s reason (a problem's text) when given.
 */
import { useState } from 'react';
import type { ExportFormat } from '../lib/download.ts';
import { Button } from './ui/button.tsx';
import { useToast } from './ui/toast-provider.tsx';

const LIST_FORMATS: readonly ExportFormat[] = ['excel', 'xlsx'];

export function ExportButtons<F extends string = ExportFormat>({
  formats = LIST_FORMATS as readonly string[] as readonly F[],
  onExport,
  labels,
  title,
  hint,
  errorText,
  describeError,
  disabled = false,
  testid,
}: {
  /** The formats offered, in this order. */
  formats?: readonly F[];
  onExport: (format: F) => Promise<void>;
  labels: Record<F, string>;
  title?: string;
  /** A line under the buttons (what the files are for). */
  hint?: string;
  errorText: string;
  /** The toast's description for a failed download, e.g. the problem's translated reason. */
  describeError?: (error: unknown) => string | undefined;
  /** No download while the screen's own inputs (a time window) are incomplete. */
  disabled?: boolean;
  /** `<testid>-<format>` each, `<testid>-hint` the hint. */
  testid: string;
}) {
  const { toast } = useToast();
  const [busy, setBusy] = useState<F | null>(null);
  const run = async (format: F) => {
    setBusy(format);
    try {
      await onExport(format);
    } catch (error) {
      toast({
        type: 'error',
        title: errorText,
        description: describeError?.(error),
        testid: `toast-${testid}-error`,
      });
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="flex flex-col gap-1" title={title}>
      <div className="flex flex-wrap gap-2">
        {formats.map((format) => (
          <Button
            key={format}
            variant="secondary"
            loading={busy === format}
            disabled={disabled || (busy !== null && busy !== format)}
            onClick={() => void run(format)}
            testid={`${testid}-${format}`}
          >
            {labels[format]}
          </Button>
        ))}
      </div>
      {hint && (
        <p className="text-xs text-stone-600" data-testid={`${testid}-hint`}>
          {hint}
        </p>
      )}
    </div>
  );
}
