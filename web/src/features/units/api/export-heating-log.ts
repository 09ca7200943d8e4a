/**
 * `GET /api/companies/{id}/heating-log/export`: the heating log of `[from, to)` (ISO instants, at
 * most 366 days), here of one unit, as a CSV for German Excel or an XLSX workbook (decision 0060),
 * headers in `lang`.
 */
import { companyPath } from '../../../lib/api-client.ts';
import { downloadListExport, type ExportFormat } from '../../../lib/download.ts';

/** Saved as `heizverlauf.csv` / `heating-log.xlsx` … @throws ApiError (400 `export_range_*` for the window) */
export const downloadHeatingLog = (
  window: { unitId: string; from: string; to: string },
  format: ExportFormat,
  lang: 'de' | 'en',
) =>
  downloadListExport(companyPath('/heating-log/export'), window, {
    format,
    lang,
    name: lang === 'de' ? 'heizverlauf' : 'heating-log',
  });
