import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deviceKeys } from './query-keys.ts';

/**
 * A mutation that refreshes every device list and lookup once it succeeded, and the billing
 * overview, whose licences in use are the company's devices.
 */
export function useDeviceMutation<V, R>(mutationFn: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: deviceKeys.all }),
        queryClient.invalidateQueries({ queryKey: ['billing'] }),
      ]),
  });
}
