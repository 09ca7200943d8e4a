/**
 * Setpoints pressed to on the units screen and not yet confirmed, by unit id: the
 * controls column presses, the setpoint column shows the same value at once.
 */
import { useSyncExternalStore } from 'react';

const targets = new Map<string, number>();
const listeners = new Set<() => void>();

/** Records (or with null clears) the target of `unitId` (°C). */
export function publishPendingSetpoint(unitId: string, target: number | null) {
  if (target === null ? !targets.delete(unitId) : targets.get(unitId) === target) return;
  if (target !== null) targets.set(unitId, target);
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The unconfirmed target of `unitId` (°C), or null. */
export function usePendingSetpoint(unitId: string): number | null {
  return useSyncExternalStore(subscribe, () => targets.get(unitId) ?? null);
}
