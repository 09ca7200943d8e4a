/**
 * The −/+ control's timing, on fake timers: how many requests go out and which answer counts does
 * not depend here on how fast the machine clicks (the screen test in features/units does).
 */
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PENDING_TARGET_DELAY_MS, usePendingTarget } from './use-pending-target.ts';

/** A send whose answers the test releases one by one. */
function deferredSend() {
  const calls: { target: number; answer(value: number): void; fail(error: Error): void }[] = [];
  const send = vi.fn(
    (target: number) =>
      new Promise<number>((resolve, reject) => {
        calls.push({ target, answer: resolve, fail: reject });
      }),
  );
  return { send, calls };
}

describe('usePendingTarget', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows each press at once and sends the last one once, after the pause', async () => {
    const { send, calls } = deferredSend();
    const onResult = vi.fn();
    const { result } = renderHook(() => usePendingTarget({ send, onResult }));
    for (let i = 1; i <= 12; i++) {
      act(() => result.current.set(20 + i * 0.5));
      expect(result.current.target).toBe(20 + i * 0.5);
      // Quicker than the pause: nothing goes out yet.
      act(() => vi.advanceTimersByTime(PENDING_TARGET_DELAY_MS - 100));
    }
    expect(send).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(100));
    expect(send.mock.calls).toEqual([[26]]);
    await act(async () => calls[0]?.answer(26));
    expect(onResult).toHaveBeenCalledWith(26);
    expect(result.current.target).toBeNull();
  });

  it('keeps the target through an answer that arrives while presses go on, and sends again', async () => {
    const { send, calls } = deferredSend();
    const onResult = vi.fn();
    const { result } = renderHook(() => usePendingTarget({ send, onResult }));
    act(() => result.current.set(21));
    act(() => vi.advanceTimersByTime(PENDING_TARGET_DELAY_MS));
    act(() => result.current.set(21.5));
    // The first request's answer is stale: a newer press waits.
    await act(async () => calls[0]?.answer(21));
    expect(onResult).not.toHaveBeenCalled();
    expect(result.current.target).toBe(21.5);
    act(() => vi.advanceTimersByTime(PENDING_TARGET_DELAY_MS));
    expect(send.mock.calls).toEqual([[21], [21.5]]);
    await act(async () => calls[1]?.answer(21.5));
    expect(onResult.mock.calls).toEqual([[21.5]]);
    expect(result.current.target).toBeNull();
  });

  it('hands on only the latest request’s failure', async () => {
    const { send, calls } = deferredSend();
    const onError = vi.fn();
    const { result } = renderHook(() => usePendingTarget({ send, onError }));
    act(() => result.current.set(22));
    act(() => vi.advanceTimersByTime(PENDING_TARGET_DELAY_MS));
    act(() => result.current.set(23));
    act(() => vi.advanceTimersByTime(PENDING_TARGET_DELAY_MS));
    await act(async () => calls[0]?.fail(new Error('first')));
    expect(onError).not.toHaveBeenCalled();
    await act(async () => calls[1]?.fail(new Error('second')));
    expect(onError.mock.calls).toEqual([[new Error('second')]]);
  });

  it('sends a waiting target at once when the screen is left during the pause', () => {
    const { send } = deferredSend();
    const { result, unmount } = renderHook(() => usePendingTarget({ send }));
    act(() => result.current.set(19.5));
    unmount();
    expect(send.mock.calls).toEqual([[19.5]]);
  });
});
