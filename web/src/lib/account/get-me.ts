/** `GET /api/me/`: the signed-in user's profile (spec §3 "User"). */
import type { User } from '@heizplan/contracts/account';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, apiFetch } from '../api-client.ts';
import { accountKeys } from './query-keys.ts';

/**
 * @throws ApiError for a failed call, and also for a 2xx other than 200 — the main guard
 * treats any non-200 profile answer as an outage (spec §2).
 */
export async function getMe(): Promise<User> {
  const { status, data } = await apiFetch<User>('GET', '/me/');
  if (status !== 200 || !data) throw new ApiError(status, 'Unexpected profile answer');
  return data;
}

export const getMeQueryOptions = () =>
  queryOptions({
    queryKey: accountKeys.me,
    queryFn: getMe,
    // The guard decides on the first answer; a retry would only delay the maintenance page.
    retry: false,
  });

export function useMe() {
  return useQuery(getMeQueryOptions());
}
