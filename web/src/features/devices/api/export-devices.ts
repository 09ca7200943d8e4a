/**
 * `GET /api/companies/{id}/devices/export`: the devices the list's filters match as a CSV file
 * for German Excel, an XLSX workbook or a network server's import CSV (The Things Stack,
 * ChirpStack v4; decision 0060), headers in `lang`. Never an AppKey.
 */
import type { DeviceExportFormat } from '@heizplan/contracts/devices';
import { companyPath } from '../../../lib/api-client.ts';
import { downloadListExport } from '../../../lib/download.ts';
import type { DeviceListParams } from './list-devices.ts';

/** What the devices screen offers: the list formats and the network servers' files. */
export type DeviceDownloadFormat = Exclude<DeviceExportFormat, 'csv'>;

/** Saved as `geraete.csv`, `devices.xlsx`, `geraete-tts.csv` … @throws ApiError */
export const downloadDevices = (
  filters: DeviceListParams,
  format: DeviceDownloadFormat,
  lang: 'de' | 'en',
) => {
  const name = lang === 'de' ? 'geraete' : 'devices';
  return downloadListExport(companyPath('/devices/export'), filters, {
    format,
    lang,
    name: format === 'tts' || format === 'chirpstack' ? `${name}-${format}` : name,
  });
};
