/**
 * `GET /api/companies/{id}/units/export`: the units the list's search and filters match as a CSV
 * file for German Excel or an XLSX workbook (decision 0060), headers in `lang`.
 */
import { companyPath } from '../../../lib/api-client.ts';
import { downloadListExport, type ExportFormat } from '../../../lib/download.ts';
import type { UnitListParams } from '../../../lib/heating/list-units.ts';

/** @throws ApiError */
export const downloadUnits = (filters: UnitListParams, format: ExportFormat, lang: 'de' | 'en') =>
  downloadListExport(companyPath('/units/export'), filters, {
    format,
    lang,
    name: lang === 'de' ? 'raeume' : 'units',
  });
