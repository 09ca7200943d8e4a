/**
 * The import API (decision 0063): the remembered (or suggested) mapping of a kind, the preview of
 * an XLSX file (CSV files are previewed in the browser), the dry run, and the commit read as
 * NDJSON so its progress shows while the rows are written.
 */
import {
  IMPORT_CONTENT_TYPES,
  type ImportCheck,
  type ImportDefaults,
  type ImportKind,
  type ImportMapping,
  type ImportMappingAnswer,
  type ImportPreview,
  type ImportResult,
  type ImportStreamLine,
} from '@heizplan/contracts/imports';
import { useMutation, useQuery } from '@tanstack/react-query';
import { ApiError, api, apiResponse, companyPath } from '../../../lib/api-client.ts';
import { useCurrentCompanyId } from '../../../lib/use-can.ts';

/** The mapping and defaults a run is given. */
export interface ImportSettings {
  mapping: ImportMapping;
  defaults: ImportDefaults;
}

/** The body of an upload: the file with the content type its name says. */
export const uploadOf = (file: File) => ({
  data: file,
  type: file.name.toLowerCase().endsWith('.xlsx') ? IMPORT_CONTENT_TYPES.xlsx : IMPORT_CONTENT_TYPES.csv,
});

/** Whether `file` is a workbook (previewed by the server) rather than a CSV. */
export const isWorkbook = (file: File) => uploadOf(file).type === IMPORT_CONTENT_TYPES.xlsx;

const runQuery = ({ mapping, defaults }: ImportSettings) => ({
  mapping: JSON.stringify(mapping),
  defaults: JSON.stringify(defaults),
});

/** The company's mapping of `kind` fitted to `columns` (a suggestion when none is remembered). */
export function useImportMapping(kind: ImportKind, columns: string[] | null) {
  const companyId = useCurrentCompanyId();
  return useQuery({
    queryKey: ['imports', companyId, kind, 'mapping', columns] as const,
    queryFn: () =>
      api.get<ImportMappingAnswer>(companyPath(`/imports/${kind}/mapping`), {
        query: { columns: JSON.stringify(columns) },
      }),
    enabled: columns !== null,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** The server's preview of a file (XLSX). */
export function usePreviewFile() {
  return useMutation({
    mutationFn: (file: File) =>
      api.post<ImportPreview>(companyPath('/imports/preview'), { file: uploadOf(file) }),
  });
}

/** A dry run of `file`: every problem of every row; nothing is written. */
export function useDryRun() {
  return useMutation({
    mutationFn: ({ kind, file, settings }: { kind: ImportKind; file: File; settings: ImportSettings }) =>
      api.post<ImportCheck>(companyPath(`/imports/${kind}/dry-run`), {
        file: uploadOf(file),
        query: runQuery(settings),
      }),
  });
}

/** The lines of an NDJSON body as they arrive. */
async function* lines(response: Response): AsyncGenerator<ImportStreamLine> {
  const reader = response.body?.getReader();
  if (!reader) {
    for (const line of (await response.text()).split('\n')) if (line.trim()) yield JSON.parse(line);
    return;
  }
  const decoder = new TextDecoder();
  let buffered = '';
  for (;;) {
    const { done, value } = await reader.read();
    buffered += decoder.decode(value, { stream: !done });
    const parts = buffered.split('\n');
    buffered = done ? '' : (parts.pop() ?? '');
    for (const line of parts) if (line.trim()) yield JSON.parse(line) as ImportStreamLine;
    if (done) return;
  }
}

/**
 * Imports `file`, all rows or none, calling `onProgress` with the rows written so far.
 * @throws ApiError as the server refused it: before writing (problem+json), or while writing
 *   (the stream's error line).
 */
export async function commitImport(
  kind: ImportKind,
  file: File,
  settings: ImportSettings,
  onProgress: (done: number, total: number) => void,
): Promise<ImportResult> {
  const response = await apiResponse(
    'POST',
    companyPath(`/imports/${kind}/commit`),
    { file: uploadOf(file), query: runQuery(settings) },
    'application/x-ndjson',
  );
  for await (const line of lines(response)) {
    if ('result' in line) return line.result;
    if ('error' in line) {
      const { status, title, detail, errors, code, params } = line.error;
      throw new ApiError(status, title, detail, errors, { code, params });
    }
    onProgress(line.done, line.total);
  }
  throw new ApiError(500, 'Internal Server Error', 'The import answer ended without a result.');
}
