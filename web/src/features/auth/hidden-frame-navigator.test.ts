import { ErrorTimeout } from 'oidc-client-ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HiddenFrameNavigator } from './hidden-frame-navigator.ts';

const frame = () => document.querySelector<HTMLIFrameElement>('[data-testid="silent-login-frame"]');

function answer(url: string) {
  window.dispatchEvent(
    new MessageEvent('message', {
      data: { source: 'oidc-client', url, keepOpen: false },
      origin: window.location.origin,
      source: frame()?.contentWindow ?? null,
    }),
  );
}

describe('hidden-frame silent login', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    for (const el of document.querySelectorAll('iframe')) el.remove();
  });

  it('loads the authorize URL in a hidden frame and removes the frame 2 s after the answer', async () => {
    const handle = await new HiddenFrameNavigator().prepare();
    const result = handle.navigate({ url: 'about:blank#authorize', state: 's1' });
    expect(frame()?.style.visibility).toBe('hidden');
    answer('https://app.test/silent-renew.html?code=c&state=s1');
    await expect(result).resolves.toEqual({ url: 'https://app.test/silent-renew.html?code=c&state=s1' });
    handle.close();
    vi.advanceTimersByTime(1_999);
    expect(frame()).not.toBeNull();
    vi.advanceTimersByTime(1);
    expect(frame()).toBeNull();
  });

  it('ignores messages from other windows or in another format', async () => {
    const handle = await new HiddenFrameNavigator(5_000).prepare();
    const result = handle.navigate({ url: 'about:blank#authorize', state: 's1' });
    window.dispatchEvent(
      new MessageEvent('message', {
        data: { source: 'oidc-client', url: 'x' },
        origin: 'https://evil.test',
        source: frame()?.contentWindow ?? null,
      }),
    );
    window.dispatchEvent(new MessageEvent('message', { data: { source: 'oidc-client', url: 'x' } }));
    vi.advanceTimersByTime(5_000);
    await expect(result).rejects.toBeInstanceOf(ErrorTimeout);
  });

  it('times out after 60 s by default and removes the frame at once', async () => {
    const handle = await new HiddenFrameNavigator().prepare();
    const result = handle.navigate({ url: 'about:blank#authorize', state: 's1' });
    const settled = vi.fn();
    result.catch(settled);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(settled).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).rejects.toBeInstanceOf(ErrorTimeout);
    expect(frame()).toBeNull();
  });

  it('takes a configured time-out', async () => {
    const handle = await new HiddenFrameNavigator(10_000).prepare();
    const result = handle.navigate({ url: 'about:blank#authorize', state: 's1' });
    vi.advanceTimersByTime(10_000);
    await expect(result).rejects.toBeInstanceOf(ErrorTimeout);
  });
});
