/**
 * Saves a file the API answers (a CSV export, an invoice PDF) under `filename`: fetched with the
 * signed-in user's token, then handed to the browser as a download.
 */
import { apiBlob } from './api-client.ts';

/** `path` below `/api`, with its query. @throws ApiError */
export async function downloadApiFile(path: string, filename: string): Promise<void> {
  const url = URL.createObjectURL(await apiBlob(path));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** What the list exports offer people: a CSV for German Excel, or an Excel workbook. */
export type ExportFormat = 'excel' | 'xlsx';

/**
 * Saves an export of `path` (decision 0060) in `format` with headers in `lang`, with a list's
 * filters: `filters` as the list sends them, without its paging. `format` is one of the list
 * formats or an endpoint's own (a network server's CSV); every format but `xlsx` is a CSV file.
 * `name` without extension.
 */
export async function downloadListExport(
  path: string,
  filters: Record<string, unknown>,
  { format, lang, name }: { format: ExportFormat | (string & {}); lang: 'de' | 'en'; name: string },
): Promise<void> {
  const { page: _page, size: _size, ...rest } = filters;
  const search = new URLSearchParams(
    Object.entries({ ...rest, format, lang }).flatMap(([key, value]) =>
      value === undefined ? [] : [[key, String(value)]],
    ),
  );
  await downloadApiFile(`${path}?${search}`, `${name}.${format === 'xlsx' ? 'xlsx' : 'csv'}`);
}
