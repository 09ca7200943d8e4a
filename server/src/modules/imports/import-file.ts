/**
 * Reads an uploaded import file (decision 0063) into a header and rows of text cells.
 *
 * - XLSX (recognised by its ZIP signature, whatever the content type said): the first worksheet
 *   through `exceljs`, its first row with a value as the header; cells as Excel shows them.
 * - CSV otherwise, through `csv-parse`: separated by `;` (German Excel), `,` or a tab, whichever
 *   the header line holds most of; UTF-8 with or without BOM — a file that is no valid UTF-8 is
 *   read as Windows-1252, which German Excel writes for "CSV (Trennzeichen-getrennt)".
 *
 * Rows keep their number as in the file (the header is row 1 in a CSV) so problems can name it;
 * rows whose cells are all empty (Excel's trailing `;;;;`) are left out.
 */
import { IMPORT_MAX_BYTES, IMPORT_MAX_ROWS } from '@heizplan/contracts/imports';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { badRequest, HttpError } from '../../http/errors.ts';

export interface ImportRow {
  /** The row's number as in the file: its first line in a CSV, the sheet's row in an XLSX. */
  row: number;
  cells: string[];
}

export interface ImportTable {
  format: 'csv' | 'xlsx';
  /** The header's cells, trimmed, in file order. */
  columns: string[];
  /** The header's row number in the file. */
  headerRow: number;
  rows: ImportRow[];
}

const unreadable = (why: string) =>
  badRequest(`The file is neither CSV nor XLSX that can be read: ${why}`, undefined, {
    code: 'import_file_unreadable',
  });

const MAX_MB = IMPORT_MAX_BYTES / 1024 / 1024;

/** 413 with the limit, for an upload over IMPORT_MAX_BYTES. */
export const fileTooLarge = () =>
  new HttpError(413, 'Payload Too Large', `The file must be at most ${MAX_MB} MB.`, undefined, {
    code: 'import_file_too_large',
    params: { maxMb: MAX_MB },
  });

/**
 * The bytes of an upload `stream`, refused as soon as they pass IMPORT_MAX_BYTES (or the
 * Content-Length says they will).
 * @throws HttpError 413 `import_file_too_large`.
 */
export async function collectUpload(stream: AsyncIterable<Buffer>, contentLength?: string): Promise<Buffer> {
  if (Number(contentLength) > IMPORT_MAX_BYTES) throw fileTooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.length;
    if (size > IMPORT_MAX_BYTES) throw fileTooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
/** An old binary Excel file (`.xls`, OLE2), which exceljs cannot read. */
const OLE2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0]);

/**
 * The header and rows of `file`.
 * @throws HttpError 400 `import_file_unreadable`, `import_file_empty` (no header or no rows),
 *   `import_too_many_rows` (params max).
 */
export async function readImportFile(file: Buffer): Promise<ImportTable> {
  if (file.subarray(0, 4).equals(OLE2)) throw unreadable('an old Excel file (.xls); save it as XLSX or CSV');
  const table = file.subarray(0, 4).equals(ZIP) ? await readXlsx(file) : readCsv(file);
  if (table.columns.every((c) => c === '') || table.rows.length === 0)
    throw badRequest('The file needs a header row and at least one row below it.', undefined, {
      code: 'import_file_empty',
    });
  if (table.rows.length > IMPORT_MAX_ROWS)
    throw badRequest(`The file must have at most ${IMPORT_MAX_ROWS} rows.`, undefined, {
      code: 'import_too_many_rows',
      params: { max: IMPORT_MAX_ROWS },
    });
  return table;
}

/** UTF-8 (a BOM dropped), else Windows-1252. */
function decode(file: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(file);
  } catch {
    return new TextDecoder('windows-1252').decode(file);
  }
}

/** The separator the header line holds most of: `;`, `,` or a tab (`,` for a single column). */
export function detectDelimiter(headerLine: string): string {
  const counts = [';', ',', '\t'].map((d) => [d, headerLine.split(d).length - 1] as const);
  const [best] = counts.sort((a, b) => b[1] - a[1]);
  return best && best[1] > 0 ? best[0] : ',';
}

const hasValue = (cells: string[]) => cells.some((c) => c.trim() !== '');

function readCsv(file: Buffer): ImportTable {
  // One line break, so a quoted cell spanning lines counts them as the file shows them.
  const text = decode(file).replace(/\r\n?/g, '\n');
  const delimiter = detectDelimiter(text.split('\n', 1)[0] ?? '');
  let records: { record: string[]; info: { lines: number }; raw: string }[];
  try {
    // With `info` and `raw` each record comes with its line count and text; the typings miss it.
    records = parse(text, {
      delimiter,
      info: true,
      raw: true,
      relax_column_count: true,
    }) as unknown as typeof records;
  } catch (error) {
    throw unreadable((error as Error).message);
  }
  const [header, ...body] = records;
  const rows: ImportRow[] = [];
  for (const { record, info, raw } of body) {
    if (!hasValue(record)) continue;
    // `lines` counts to the record's last line; a quoted cell may span several.
    const inner = raw.replace(/\n$/, '').split('\n').length - 1;
    rows.push({ row: info.lines - inner, cells: record });
  }
  const columns = (header?.record ?? []).map((c) => c.trim());
  return { format: 'csv', columns, headerRow: header?.info.lines ?? 1, rows };
}

async function readXlsx(file: Buffer): Promise<ImportTable> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(file as unknown as ArrayBuffer);
  } catch (error) {
    throw unreadable((error as Error).message);
  }
  const sheet = workbook.worksheets[0];
  const sheetRows: ImportRow[] = [];
  sheet?.eachRow((row, number) => {
    const cells: string[] = [];
    row.eachCell({ includeEmpty: true }, (cell, col) => {
      cells[col - 1] = cell.text;
    });
    const filled = Array.from(cells, (c) => c ?? '');
    if (hasValue(filled)) sheetRows.push({ row: number, cells: filled });
  });
  const [header, ...rows] = sheetRows;
  const columns = (header?.cells ?? []).map((c) => c.trim());
  return { format: 'xlsx', columns, headerRow: header?.row ?? 1, rows };
}
