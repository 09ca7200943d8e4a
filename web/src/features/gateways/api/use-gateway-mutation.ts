import { useMutation, useQueryClient } from '@tanstack/react-query';
import { gatewayKeys } from './query-keys.ts';

/** A mutation that refreshes every gateway list once it succeeded. */
export function useGatewayMutation<V, R>(mutationFn: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: gatewayKeys.all }),
  });
}
