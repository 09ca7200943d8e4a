/**
 * A −/+ control that ends at the value the person pressed to (twelve quick presses
 * raised a setpoint by 5.0 °C instead of 6.0, because each press stepped from the server's
 * lagging answer and presses during a request were dropped).
 *
 * - Each press sets an absolute target, stepped from the previous target, which the screen shows
 *   at once.
 * - One request with that target goes out once presses pause for `delayMs`; presses during a
 *   request start a new pause and a new request.
 * - Only the latest request's answer (or error) is handed on; when it arrives and no press is
 *   waiting, the target is dropped and the server's value shows again.
 * - Leaving the screen during a pause sends the target at once instead of losing it.
 */
import { useCallback, useEffect, useRef, useState } from 'react';

/** A pause this long (ms) after the last press sends the target. */
export const PENDING_TARGET_DELAY_MS = 600;

export interface PendingTargetOptions<R> {
  /** Sends the absolute target (°C); its answer or rejection settles the request. */
  send(target: number): Promise<R>;
  /** The latest request's answer. */
  onResult?(result: R): void;
  /** The latest request's failure. */
  onError?(error: unknown): void;
  delayMs?: number;
}

export interface PendingTarget {
  /** The target pressed to and not yet confirmed by the latest answer; null when none. */
  target: number | null;
  /** Presses a new target (°C). */
  set(target: number): void;
}

export function usePendingTarget<R>(options: PendingTargetOptions<R>): PendingTarget {
  const [target, setTarget] = useState<number | null>(null);
  // Refs, not state: the timer and the answers must see the newest values, not a render's copy.
  const latest = useRef(options);
  latest.current = options;
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const waiting = useRef<number | null>(null);
  const sequence = useRef(0);

  const flush = useCallback(() => {
    timer.current = null;
    const value = waiting.current;
    waiting.current = null;
    if (value === null) return;
    sequence.current += 1;
    const mine = sequence.current;
    const settle = (report: () => void) => {
      if (mine !== sequence.current || timer.current !== null) return;
      setTarget(null);
      report();
    };
    latest.current.send(value).then(
      (result) => settle(() => latest.current.onResult?.(result)),
      (error: unknown) => settle(() => latest.current.onError?.(error)),
    );
  }, []);

  const set = useCallback(
    (value: number) => {
      setTarget(value);
      waiting.current = value;
      if (timer.current !== null) clearTimeout(timer.current);
      timer.current = setTimeout(flush, latest.current.delayMs ?? PENDING_TARGET_DELAY_MS);
    },
    [flush],
  );

  useEffect(
    () => () => {
      if (timer.current === null) return;
      clearTimeout(timer.current);
      flush();
    },
    [flush],
  );

  return { target, set };
}
