/**
 * The alert centre's calls for the current company: the list and the summary behind
 * the navigation's badge (refreshed every minute), acknowledging and muting, the company's
 * rules, the member's own mail preferences, and webhooks with their deliveries.
 */
import type {
  Alert,
  AlertListQuery,
  AlertPreferences,
  AlertSettings,
  Webhook,
  WebhookDelivery,
} from '@heizplan/contracts/alerts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TablePage } from '../../../components/ui/table.tsx';
import { api, companyPath } from '../../../lib/api-client.ts';
import { requireCurrentCompanyId } from '../../../lib/client-storage.ts';
import { alertKeys } from './alert-summary.ts';

export type AlertListParams = Partial<Omit<AlertListQuery, 'page' | 'size'>> & { page: number; size: number };

const keys = {
  all: alertKeys.all,
  list: (companyId: string, params: AlertListParams) => ['alerts', companyId, 'list', params] as const,
  settings: (companyId: string) => ['alerts', companyId, 'settings'] as const,
  preferences: (companyId: string) => ['alerts', companyId, 'preferences'] as const,
  webhooks: (companyId: string) => ['alerts', companyId, 'webhooks'] as const,
  deliveries: (companyId: string, webhookId: string) => ['alerts', companyId, 'webhooks', webhookId] as const,
};

export function useAlerts(params: AlertListParams) {
  const companyId = requireCurrentCompanyId();
  return useQuery({
    queryKey: keys.list(companyId, params),
    queryFn: () => api.get<TablePage<Alert>>(companyPath('/alerts'), { query: params }),
    placeholderData: keepPreviousData,
  });
}

/** Invalidates every alert query of the current company (after a change). */
function useRefresh() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: keys.all(requireCurrentCompanyId()) });
}

export function useAcknowledge() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, note }: { id: string; note?: string }) =>
      api.post<Alert>(companyPath(`/alerts/${id}/acknowledge`), { body: note ? { note } : {} }),
    onSuccess: refresh,
  });
}

export function useMute() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, hours }: { id: string; hours: number }) =>
      api.post<Alert>(companyPath(`/alerts/${id}/mute`), { body: { hours } }),
    onSuccess: refresh,
  });
}

export function useAlertSettings() {
  return useQuery({
    queryKey: keys.settings(requireCurrentCompanyId()),
    queryFn: () => api.get<AlertSettings>(companyPath('/alert-settings')),
  });
}

export function useUpdateAlertSettings() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (patch: Partial<AlertSettings>) =>
      api.patch<AlertSettings>(companyPath('/alert-settings'), { body: patch }),
    onSuccess: refresh,
  });
}

export function usePreferences() {
  return useQuery({
    queryKey: keys.preferences(requireCurrentCompanyId()),
    queryFn: () => api.get<AlertPreferences>(companyPath('/alert-preferences')),
  });
}

export function useUpdatePreferences() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (patch: Partial<AlertPreferences>) =>
      api.patch<AlertPreferences>(companyPath('/alert-preferences'), { body: patch }),
    onSuccess: refresh,
  });
}

export function useWebhooks() {
  return useQuery({
    queryKey: keys.webhooks(requireCurrentCompanyId()),
    queryFn: async () => (await api.get<{ results: Webhook[] }>(companyPath('/webhooks'))).results,
  });
}

export function useWebhookChanges() {
  const refresh = useRefresh();
  return {
    create: useMutation({
      mutationFn: (url: string) =>
        api.post<Webhook & { secret: string }>(companyPath('/webhooks'), { body: { url } }),
      onSuccess: refresh,
    }),
    toggle: useMutation({
      mutationFn: ({ id, enabled }: { id: string; enabled: boolean }) =>
        api.patch<Webhook>(companyPath(`/webhooks/${id}`), { body: { enabled } }),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (id: string) => api.delete<void>(companyPath(`/webhooks/${id}`)),
      onSuccess: refresh,
    }),
  };
}

export function useDeliveries(webhookId: string | null) {
  const companyId = requireCurrentCompanyId();
  return useQuery({
    queryKey: keys.deliveries(companyId, webhookId ?? ''),
    queryFn: async () =>
      (await api.get<{ results: WebhookDelivery[] }>(companyPath(`/webhooks/${webhookId}/deliveries`)))
        .results,
    enabled: webhookId !== null,
  });
}
