/**
 * A building's meter readings and efficiency targets (decision 0061; members who operate change
 * them): `GET …/buildings/{id}/report-data`, `PUT …/report-settings`, `PUT …/meter-readings`
 * (one per month and carrier, replaced when sent again) and `DELETE
 * …/meter-readings/{month}/{carrier}`. Both change what the reports say (kWh, targets), so a
 * change refreshes every report too.
 */
import type { BuildingReportData, BuildingReportSettings, MeterReading } from '@heizplan/contracts/reports';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, companyPath } from '../../../lib/api-client.ts';
import { reportKeys } from './reports.ts';

const buildingPath = (buildingId: string, rest: string) =>
  companyPath(`/buildings/${encodeURIComponent(buildingId)}${rest}`);

export function useBuildingReportData(buildingId: string) {
  return useQuery({
    queryKey: reportKeys.buildingData(buildingId),
    queryFn: () => api.get<BuildingReportData>(buildingPath(buildingId, '/report-data')),
  });
}

/** After a change: the building's data and every report are read again. */
function useRefreshReports() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: reportKeys.all() });
}

export function useSaveReportSettings(buildingId: string) {
  const refresh = useRefreshReports();
  return useMutation({
    mutationFn: (body: BuildingReportSettings) =>
      api.put<BuildingReportSettings>(buildingPath(buildingId, '/report-settings'), { body }),
    onSuccess: refresh,
  });
}

export function useSaveMeterReading(buildingId: string) {
  const refresh = useRefreshReports();
  return useMutation({
    mutationFn: (body: MeterReading) =>
      api.put<MeterReading>(buildingPath(buildingId, '/meter-readings'), { body }),
    onSuccess: refresh,
  });
}

/** `POST …/meter-readings/import` with the CSV's text: all rows stored or none (400 lists them). */
export function useImportMeterReadings(buildingId: string) {
  const refresh = useRefreshReports();
  return useMutation({
    mutationFn: (csv: string) =>
      api.post<{ imported: number }>(buildingPath(buildingId, '/meter-readings/import'), { body: { csv } }),
    onSuccess: refresh,
  });
}

export function useDeleteMeterReading(buildingId: string) {
  const refresh = useRefreshReports();
  return useMutation({
    mutationFn: ({ month, carrier }: Pick<MeterReading, 'month' | 'carrier'>) =>
      api.delete<undefined>(
        buildingPath(
          buildingId,
          `/meter-readings/${encodeURIComponent(month)}/${encodeURIComponent(carrier)}`,
        ),
      ),
    onSuccess: refresh,
  });
}
