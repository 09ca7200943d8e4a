/**
 * `GET /api/companies/{id}/units/export`: the units the list's search and filters match as a CSV
 * file for German Excel (decision 0060), headers in `lang`.
 */
import { companyPath } from '../../../lib/api-client.ts';
import { downloadExcelExport } from '../../../lib/download.ts';
import type { UnitListParams } from '../../../lib/heating/list-units.ts';

/** @throws ApiError */
export const downloadUnitsCsv = (filters: UnitListParams, lang: 'de' | 'en') =>
  downloadExcelExport(
    companyPath('/units/export'),
    filters,
    lang,
    lang === 'de' ? 'raeume.csv' : 'units.csv',
  );
