/**
 * The company's audit log (decision 0059; admins): a page of entries, newest first, filtered by
 * what was changed, and the same filter as a CSV file.
 */
import type { AuditPage } from '@heizplan/contracts/audit';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, companyPath } from '../../../lib/api-client.ts';
import { requireCurrentCompanyId } from '../../../lib/client-storage.ts';
import { downloadApiFile } from '../../../lib/download.ts';

export interface AuditQuery {
  page: number;
  size: number;
  /** '' for every kind of change. */
  resource: string;
}

const queryOf = ({ page, size, resource }: AuditQuery) => ({
  page,
  size,
  ...(resource ? { resource } : {}),
});

/** The page of `query`; nothing is asked while `enabled` is false (a member who may not read it). */
export function useAuditLog(query: AuditQuery, enabled: boolean) {
  return useQuery({
    enabled,
    queryKey: ['audit-log', requireCurrentCompanyId(), query],
    queryFn: () => api.get<AuditPage>(companyPath('/audit-log'), { query: queryOf(query) }),
    placeholderData: keepPreviousData,
  });
}

/** Downloads the entries of `resource` ('' = all) as `audit-log.csv`. @throws ApiError */
export async function downloadAuditCsv(resource: string): Promise<void> {
  const search = resource ? `?resource=${encodeURIComponent(resource)}` : '';
  await downloadApiFile(companyPath(`/audit-log/export${search}`), 'audit-log.csv');
}
