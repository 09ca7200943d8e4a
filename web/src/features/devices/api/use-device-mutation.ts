import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deviceKeys } from './query-keys.ts';

/** A mutation that refreshes every device list and lookup once it succeeded. */
export function useDeviceMutation<V, R>(mutationFn: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deviceKeys.all }),
  });
}
