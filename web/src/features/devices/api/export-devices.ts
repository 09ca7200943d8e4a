/**
 * `GET /api/companies/{id}/devices/export`: the devices the list's filters match as a CSV file
 * for German Excel or an XLSX workbook (decision 0060), headers in `lang`.
 */
import { companyPath } from '../../../lib/api-client.ts';
import { downloadListExport, type ExportFormat } from '../../../lib/download.ts';
import type { DeviceListParams } from './list-devices.ts';

/** @throws ApiError */
export const downloadDevices = (filters: DeviceListParams, format: ExportFormat, lang: 'de' | 'en') =>
  downloadListExport(companyPath('/devices/export'), filters, {
    format,
    lang,
    name: lang === 'de' ? 'geraete' : 'devices',
  });
