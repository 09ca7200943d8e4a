/**
 * The server's public settings for the web app (`GET /api/public/app-config`): the support
 * contact of settings → help. Read without a token; cached for the page's life.
 */
import type { AppConfigResponse } from '@heizplan/contracts/app-config';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client.ts';

export const getAppConfig = () => api.get<AppConfigResponse>('/public/app-config', { authenticated: false });

export const appConfigQueryOptions = queryOptions({
  queryKey: ['app-config'],
  queryFn: getAppConfig,
  staleTime: Number.POSITIVE_INFINITY,
});

export const useAppConfig = () => useQuery(appConfigQueryOptions);
