/**
 * Device profiles (decision 0062): the list with the configurable models and the airtime budget,
 * creating, changing and deleting a profile. A change refreshes the devices' sync state too.
 */
import type {
  DeviceProfile,
  DeviceProfileInput,
  DeviceProfileList,
  DeviceProfilePatch,
} from '@heizplan/contracts/device-profiles';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, companyPath } from '../../../lib/api-client.ts';
import { requireCurrentCompanyId } from '../../../lib/client-storage.ts';

const profilesKey = (companyId: string) => ['device-profiles', companyId] as const;

export const listDeviceProfilesQueryOptions = () =>
  queryOptions({
    queryKey: profilesKey(requireCurrentCompanyId()),
    queryFn: () => api.get<DeviceProfileList>(companyPath('/device-profiles')),
  });

export function useDeviceProfiles() {
  return useQuery(listDeviceProfilesQueryOptions());
}

function useRefresh() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: profilesKey(requireCurrentCompanyId()) });
}

export function useSaveDeviceProfile() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: DeviceProfileInput }) =>
      id === null
        ? api.post<DeviceProfile>(companyPath('/device-profiles'), { body })
        : api.patch<DeviceProfile>(companyPath(`/device-profiles/${encodeURIComponent(id)}`), {
            body: { name: body.name, config: body.config, places: body.places } satisfies DeviceProfilePatch,
          }),
    onSuccess: refresh,
  });
}

export function useDeleteDeviceProfile() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: string) => api.delete<void>(companyPath(`/device-profiles/${encodeURIComponent(id)}`)),
    onSettled: refresh,
  });
}
