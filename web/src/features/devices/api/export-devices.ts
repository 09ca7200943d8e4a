/**
 * `GET /api/companies/{id}/devices/export`: the devices the list's filters match as a CSV file
 * for German Excel (semicolon, decimal comma, local times; decision 0060), headers in `lang`.
 */
import { companyPath } from '../../../lib/api-client.ts';
import { downloadExcelExport } from '../../../lib/download.ts';
import type { DeviceListParams } from './list-devices.ts';

/** @throws ApiError */
export const downloadDevicesCsv = (filters: DeviceListParams, lang: 'de' | 'en') =>
  downloadExcelExport(
    companyPath('/devices/export'),
    filters,
    lang,
    lang === 'de' ? 'geraete.csv' : 'devices.csv',
  );
