/**
 * Asking for the first-run tour from any screen (settings → help) without importing its feature:
 * the tour's entry in the app shell listens here (features/tour).
 */
const listeners = new Set<() => void>();

/** Starts the tour from its first step. */
export function requestTour() {
  for (const listener of listeners) listener();
}

/** Calls `listener` on every `requestTour`. @returns the unsubscribe function. */
export function onTourRequest(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
