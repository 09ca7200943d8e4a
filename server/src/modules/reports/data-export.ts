/**
 * The export API (decision 0061; the "common, freely configurable interface" GEG §71a asks for):
 * 15-minute or daily rollups, or raw telemetry, of a company's building or unit in a time range,
 * as JSON (an array of objects) or CSV (comma, ISO 8601 UTC times, numbers with a point).
 *
 * Streamed with constant memory on both backends: rows are written as the repository reads them
 * in batches, so a year of quarter hours of 100 rooms never sits in memory; CSV on PostgreSQL is
 * the database's own COPY stream, with the response's back-pressure.
 */
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { Db } from '../../db/client.ts';
import {
  type DataExportFilter,
  type ExportSource,
  exportColumns,
  exportCsvCopy,
  exportRows,
} from './data-export.repository.ts';

export type { DataExportFilter, ExportSource };

/**
 * The export as a stream of `format`; the caller sets the content type. CSV on PostgreSQL is the
 * server's own `COPY … TO STDOUT` piped through (same columns and values as the batched path,
 * at the database's speed); everything else is read in keyset batches.
 */
export function exportStream(
  db: Db,
  source: ExportSource,
  filter: DataExportFilter,
  format: 'json' | 'csv',
): Readable {
  const copied = format === 'csv' ? exportCsvCopy(db, source, filter) : null;
  if (copied) return copied;
  const rows = exportRows(db, source, filter);
  if (format === 'csv') {
    const columns = exportColumns(source);
    async function* cells() {
      for await (const row of rows) yield columns.map((c) => row[c] ?? '');
    }
    return Readable.from(cells()).pipe(stringify({ header: true, columns }));
  }
  async function* json() {
    let first = true;
    yield '[';
    for await (const row of rows) {
      yield (first ? '' : ',') + JSON.stringify(row);
      first = false;
    }
    yield ']';
  }
  return Readable.from(json());
}
