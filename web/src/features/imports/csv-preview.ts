/**
 * The header and first rows of a CSV file, read in the browser with papaparse (decision 0063) so
 * the mapping step can show the file before anything is sent. Read as the server reads it: UTF-8
 * (a BOM dropped) or, when the bytes are no UTF-8, Windows-1252; separated by `;`, `,` or a tab,
 * whichever the header line holds most of; rows whose cells are all empty left out.
 */
import { IMPORT_PREVIEW_ROWS, type ImportPreview } from '@heizplan/contracts/imports';
import Papa from 'papaparse';

function decode(bytes: ArrayBuffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/** The separator `headerLine` holds most of: `;`, `,` or a tab (`,` for a single column). */
export function detectDelimiter(headerLine: string): string {
  const counts = [';', ',', '\t'].map((d) => [d, headerLine.split(d).length - 1] as const);
  const [best] = counts.sort((a, b) => b[1] - a[1]);
  return best && best[1] > 0 ? best[0] : ',';
}

/** `file`'s header, its first IMPORT_PREVIEW_ROWS rows (as long as the header) and its row count. */
export async function previewCsv(file: Blob): Promise<ImportPreview> {
  const text = decode(await file.arrayBuffer());
  const delimiter = detectDelimiter(text.split(/\r?\n/, 1)[0] ?? '');
  const { data } = Papa.parse<string[]>(text, { delimiter, skipEmptyLines: 'greedy' });
  const [header = [], ...rows] = data;
  const columns = header.map((cell) => cell.trim());
  return {
    format: 'csv',
    columns,
    rows: rows.slice(0, IMPORT_PREVIEW_ROWS).map((row) => columns.map((_, i) => row[i] ?? '')),
    rowCount: rows.length,
  };
}
