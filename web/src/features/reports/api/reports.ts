/**
 * Energy and comfort reports (decision 0061): `GET …/reports` of a month or heating season for
 * the company, a building, group or room (every member), a month's report as a file
 * (`…/reports/export`, Excel-CSV, CSV, XLSX or PDF) and the signed-in member's monthly PDF mail
 * (`…/reports/subscription`).
 */
import type { Report } from '@heizplan/contracts/reports';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, companyPath } from '../../../lib/api-client.ts';
import { requireCurrentCompanyId } from '../../../lib/client-storage.ts';
import { downloadApiFile } from '../../../lib/download.ts';
import type { ReportRequest } from '../report-view.ts';

/** The file formats of a report export; `excel` is a CSV for German Excel (decision 0060). */
export type ReportExportFormat = 'excel' | 'csv' | 'xlsx' | 'pdf';
export const REPORT_EXPORT_FORMATS: readonly ReportExportFormat[] = ['excel', 'csv', 'xlsx', 'pdf'];

export const reportKeys = {
  all: () => ['reports', requireCurrentCompanyId()] as const,
  report: (request: ReportRequest) => [...reportKeys.all(), 'report', request] as const,
  subscription: () => [...reportKeys.all(), 'subscription'] as const,
  buildingData: (buildingId: string) => [...reportKeys.all(), 'building-data', buildingId] as const,
};

/** The report of `request`; the previous one stays on screen (dimmed) while the next loads. */
export function useReport(request: ReportRequest) {
  return useQuery({
    queryKey: reportKeys.report(request),
    queryFn: () => api.get<Report>(companyPath('/reports'), { query: request }),
    placeholderData: keepPreviousData,
  });
}

const EXTENSIONS: Record<ReportExportFormat, string> = { excel: 'csv', csv: 'csv', xlsx: 'xlsx', pdf: 'pdf' };

/** The address of a month's export in `format` and `lang` for the scope of `request` (a month). */
export function reportExportPath(
  request: ReportRequest & { month: string },
  format: ReportExportFormat,
  lang: 'de' | 'en',
) {
  const { season: _season, ...rest } = request;
  const search = new URLSearchParams(
    Object.entries({ ...rest, format, lang }).flatMap(([key, value]) =>
      value === undefined ? [] : [[key, value]],
    ),
  );
  return companyPath(`/reports/export?${search}`);
}

/**
 * Downloads the month's report in the UI language as `bericht-2026-11.pdf` (`name` without
 * month and extension). @throws ApiError
 */
export async function downloadReport(
  request: ReportRequest & { month: string },
  format: ReportExportFormat,
  { lang, name }: { lang: 'de' | 'en'; name: string },
): Promise<void> {
  await downloadApiFile(
    reportExportPath(request, format, lang),
    `${name}-${request.month}.${EXTENSIONS[format]}`,
  );
}

/** Whether the signed-in member gets the monthly PDF report by mail. */
export function useReportSubscription() {
  return useQuery({
    queryKey: reportKeys.subscription(),
    queryFn: () => api.get<{ subscribed: boolean }>(companyPath('/reports/subscription')),
  });
}

export function useSetReportSubscription() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (subscribed: boolean) =>
      api.put<{ subscribed: boolean }>(companyPath('/reports/subscription'), { body: { subscribed } }),
    onSuccess: (answer) => queryClient.setQueryData(reportKeys.subscription(), answer),
  });
}
