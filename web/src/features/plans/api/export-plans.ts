/**
 * `GET /api/companies/{id}/plans/export`: every heating plan of the company (unit and group
 * plans, one row per switch point) as a CSV for German Excel or an XLSX workbook (decision 0060),
 * headers in `lang`.
 */
import { companyPath } from '../../../lib/api-client.ts';
import { downloadListExport, type ExportFormat } from '../../../lib/download.ts';

/** Saved as `heizplaene.csv` / `plans.xlsx` … @throws ApiError */
export const downloadPlans = (format: ExportFormat, lang: 'de' | 'en') =>
  downloadListExport(
    companyPath('/plans/export'),
    {},
    { format, lang, name: lang === 'de' ? 'heizplaene' : 'plans' },
  );
