/**
 * A button that downloads an export (decision 0060): busy while the file is fetched, a toast with
 * `errorText` when it fails.
 */
import { useState } from 'react';
import { Button } from './ui/button.tsx';
import { useToast } from './ui/toast-provider.tsx';

export function ExportButton({
  onExport,
  label,
  title,
  errorText,
  testid,
}: {
  onExport: () => Promise<void>;
  label: string;
  title?: string;
  errorText: string;
  testid: string;
}) {
  const { toast } = useToast();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      await onExport();
    } catch {
      toast({ type: 'error', title: errorText, testid: `toast-${testid}-error` });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="secondary" loading={busy} onClick={() => void run()} title={title} testid={testid}>
      {label}
    </Button>
  );
}
