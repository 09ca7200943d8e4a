/**
 * Table exports (decisions 0059, 0060), streamed so a long export never sits in memory:
 * - `csv` for machines (comma, numbers with a point, ISO 8601 UTC times);
 * - `excel`, a CSV for German Excel (semicolon, UTF-8 with BOM so umlauts survive, decimal comma,
 *   local times "26.11.2026 06:55" in the company's zone, which Excel reads as dates);
 * - `xlsx`, a workbook (`exceljs`' streaming writer): numbers as numbers, times as dates in the
 *   company's zone, the header row bold and frozen.
 * Another system's import file (a network server's device list) is a `delimitedExport`: text
 * cells as given, its own separator, no BOM.
 */
import { PassThrough, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import { DateTime } from 'luxon';

export type ExportFormat = 'csv' | 'excel' | 'xlsx';
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** What an export route `produces`, for the OpenAPI document. */
export const EXPORT_MEDIA_TYPES = ['text/csv', XLSX_TYPE];
export type ExportCell = string | number | Date | null | undefined;

export interface TableExport {
  stream: Readable;
  contentType: string;
  /** File extension without the dot. */
  extension: 'csv' | 'xlsx';
}

/** The rows as a file of `format`, `header` first. Rows come as the caller reads them. */
export function tableExport(
  rows: AsyncIterable<ExportCell[]>,
  header: string[],
  { format, timeZone }: { format: ExportFormat; timeZone: string },
): TableExport {
  if (format === 'xlsx')
    return {
      stream: xlsxStream(rows, header, timeZone),
      contentType: XLSX_TYPE,
      extension: 'xlsx',
    };
  const excel = format === 'excel';
  const cell = (value: ExportCell): string => {
    if (value === null || value === undefined) return '';
    if (value instanceof Date)
      return excel
        ? DateTime.fromJSDate(value, { zone: timeZone }).toFormat('dd.MM.yyyy HH:mm')
        : value.toISOString();
    if (typeof value === 'number') return excel ? String(value).replace('.', ',') : String(value);
    return value;
  };
  async function* cells() {
    for await (const row of rows) yield row.map(cell);
  }
  return csvExport(cells(), header, { delimiter: excel ? ';' : ',', bom: excel });
}

/**
 * Text rows as a CSV with `delimiter`, `header` first, no BOM (an import file another system
 * reads by its column names, e.g. The Things Stack's device CSV). Quotes only where a cell needs them.
 */
export function delimitedExport(
  rows: AsyncIterable<string[]>,
  header: string[],
  delimiter: ',' | ';',
): TableExport {
  return csvExport(rows, header, { delimiter, bom: false });
}

function csvExport(
  rows: AsyncIterable<string[]>,
  header: string[],
  options: { delimiter: ',' | ';'; bom: boolean },
): TableExport {
  return {
    stream: Readable.from(rows).pipe(stringify({ header: true, columns: header, ...options })),
    contentType: 'text/csv; charset=utf-8',
    extension: 'csv',
  };
}

function xlsxStream(rows: AsyncIterable<ExportCell[]>, header: string[], timeZone: string): Readable {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
  const sheet = workbook.addWorksheet('Heizplan', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = header.map((name) => ({ width: Math.max(12, name.length + 2) }));
  // Excel keeps no zone: a date cell shows its UTC fields, so they carry the local time.
  const local = (value: Date) => {
    const t = DateTime.fromJSDate(value, { zone: timeZone });
    return new Date(Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second));
  };
  (async () => {
    const top = sheet.addRow(header);
    top.font = { bold: true };
    top.commit();
    for await (const row of rows) {
      const added = sheet.addRow(row.map((v) => (v instanceof Date ? local(v) : (v ?? null))));
      row.forEach((v, i) => {
        if (v instanceof Date) added.getCell(i + 1).numFmt = 'dd.mm.yyyy hh:mm';
      });
      added.commit();
    }
    sheet.commit();
    await workbook.commit();
  })().catch((err: Error) => out.destroy(err));
  return out;
}

/** Answers `file` as a download named `<name>.<extension>`. */
export const sendTableExport = (reply: FastifyReply, file: TableExport, name: string) =>
  reply
    .type(file.contentType)
    .header('content-disposition', `attachment; filename="${name}.${file.extension}"`)
    .send(file.stream);
