/**
 * `GET /api/companies/{id}/devices/export`: the devices the list's filters match as a CSV file
 * for German Excel (semicolon, decimal comma, local times; decision 0060), headers in `lang`.
 */
import type { DeviceExportQuery } from '@heizplan/contracts/devices';
import { companyPath } from '../../../lib/api-client.ts';
import { downloadApiFile } from '../../../lib/download.ts';
import type { DeviceListParams } from './list-devices.ts';

/** @throws ApiError */
export async function downloadDevicesCsv(filters: DeviceListParams, lang: 'de' | 'en'): Promise<void> {
  const { page: _page, size: _size, ...rest } = filters;
  const query: DeviceExportQuery = { ...rest, format: 'excel', lang };
  const search = new URLSearchParams(
    Object.entries(query).flatMap(([key, value]) => (value === undefined ? [] : [[key, String(value)]])),
  );
  await downloadApiFile(
    companyPath(`/devices/export?${search}`),
    lang === 'de' ? 'geraete.csv' : 'devices.csv',
  );
}
