/**
 * CSV answers for exports (decisions 0059, 0060), streamed with `csv-stringify` so a long export
 * never sits in memory: `csv` for machines (comma, numbers with a point, ISO 8601 UTC times) or
 * `excel` for German Excel (semicolon, UTF-8 with BOM so umlauts survive, decimal comma, local
 * times "26.11.2026 06:55" in the company's zone, which Excel reads as dates).
 */
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { DateTime } from 'luxon';

export type CsvFormat = 'csv' | 'excel';
export type CsvCell = string | number | Date | null | undefined;

/** The rows as a CSV stream, `header` first. */
export function csvStream(
  rows: AsyncIterable<CsvCell[]>,
  header: string[],
  { format, timeZone }: { format: CsvFormat; timeZone: string },
): Readable {
  const excel = format === 'excel';
  const cell = (value: CsvCell): string => {
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
  return Readable.from(cells()).pipe(
    stringify({ header: true, columns: header, delimiter: excel ? ';' : ',', bom: excel }),
  );
}
