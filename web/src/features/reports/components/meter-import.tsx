/**
 * Imports a building's meter readings from a CSV file (decision 0061): the file goes to
 * `POST …/meter-readings/import` as text; all rows are stored or none, and every refused row is
 * listed with its line and column in the UI language.
 */
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { useToast } from '../../../components/ui/toast-provider.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useImportMeterReadings } from '../api/building-report-data.ts';

/** `csv.row.3.kwh` → line 3, column kwh; `csv.header`/`csv` → the file as a whole. */
function rowProblem(field: string): { row: number; column: string } | null {
  const m = /^csv\.row\.(\d+)\.(month|carrier|kwh)$/.exec(field);
  return m ? { row: Number(m[1]), column: m[2] as string } : null;
}

export function MeterImport({ buildingId }: { buildingId: string }) {
  const { t } = useTranslation('reports');
  const { toast } = useToast();
  const input = useRef<HTMLInputElement>(null);
  const importer = useImportMeterReadings(buildingId);
  const [problems, setProblems] = useState<string[]>([]);
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setProblems([]);
    try {
      const { imported } = await importer.mutateAsync(await file.text());
      toast({
        type: 'success',
        title: t('meters.import.done', { count: imported }),
        testid: 'toast-meter-import',
      });
    } catch (error) {
      const fields = error instanceof ApiError ? error.errors : [];
      setProblems(
        fields.length === 0
          ? [t('meters.import.failed')]
          : fields.map((e) => {
              const row = rowProblem(e.field);
              return row
                ? t('meters.import.rowProblem', {
                    row: row.row,
                    column: t(`meters.import.columns.${row.column}`),
                  })
                : e.field === 'csv.header'
                  ? t('meters.import.header')
                  : t('meters.import.file');
            }),
      );
    } finally {
      if (input.current) input.current.value = '';
    }
  };
  return (
    <div className="flex flex-col gap-2" data-testid="meter-import">
      <div className="flex flex-wrap items-center gap-3">
        <input
          ref={input}
          type="file"
          accept=".csv,text/csv"
          className="sr-only"
          onChange={(event) => void onFile(event.target.files?.[0])}
          data-testid="meter-import-file"
          aria-label={t('meters.import.choose')}
        />
        <Button
          variant="secondary"
          onClick={() => input.current?.click()}
          disabled={importer.isPending}
          data-testid="meter-import-button"
        >
          {importer.isPending ? t('meters.import.running') : t('meters.import.choose')}
        </Button>
        <span className="text-xs text-stone-600">{t('meters.import.hint')}</span>
      </div>
      {problems.length > 0 && (
        <ul className="list-disc pl-5 text-sm text-red-700" role="alert" data-testid="meter-import-problems">
          {problems.map((p, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the same text may repeat for different rows
            <li key={i}>{p}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
