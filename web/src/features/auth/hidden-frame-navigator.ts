/**
 * Silent login in a hidden iframe with `prompt=none` (spec §7, §8, §9), plugged into
 * oidc-client-ts as its iframe navigator. Differences from the library's own frame, both
 * from the spec: the request times out after a configurable time (default 60 s), and the
 * frame stays 2 s after its response before it is removed, so the provider's page can finish
 * writing its session cookie.
 *
 * The frame loads `/silent-renew.html`, which posts `{source: 'oidc-client', url}` to this
 * window — the message format oidc-client-ts uses.
 */
import { ErrorTimeout, type INavigator, type IWindow, type NavigateParams } from 'oidc-client-ts';
import { SILENT_LOGIN_TIMEOUT_MS } from './auth-session.ts';
/** Time the frame is kept after its response (ms, spec §9). */
export const FRAME_REMOVAL_DELAY_MS = 2_000;

const MESSAGE_SOURCE = 'oidc-client';

class HiddenFrameWindow implements IWindow {
  private readonly frame: HTMLIFrameElement;
  private answered = false;

  constructor(private readonly timeoutMs: number) {
    this.frame = document.createElement('iframe');
    this.frame.setAttribute('aria-hidden', 'true');
    this.frame.tabIndex = -1;
    Object.assign(this.frame.style, {
      visibility: 'hidden',
      position: 'fixed',
      left: '-1000px',
      top: '0',
      width: '0',
      height: '0',
    });
    this.frame.dataset.testid = 'silent-login-frame';
    document.body.appendChild(this.frame);
  }

  navigate({ url, scriptOrigin }: NavigateParams): Promise<{ url: string }> {
    const origin = scriptOrigin ?? window.location.origin;
    return new Promise((resolve, reject) => {
      const finish = () => {
        clearTimeout(timer);
        window.removeEventListener('message', onMessage);
      };
      const onMessage = (event: MessageEvent) => {
        const data = event.data as { source?: unknown; url?: unknown } | null;
        if (event.origin !== origin || event.source !== this.frame.contentWindow) return;
        if (data?.source !== MESSAGE_SOURCE || typeof data.url !== 'string') return;
        finish();
        this.answered = true;
        setTimeout(() => this.frame.remove(), FRAME_REMOVAL_DELAY_MS);
        resolve({ url: data.url });
      };
      const timer = setTimeout(() => {
        finish();
        this.frame.remove();
        reject(new ErrorTimeout('Silent login timed out'));
      }, this.timeoutMs);
      window.addEventListener('message', onMessage);
      this.frame.src = url;
    });
  }

  close() {
    // After an answer the delayed removal is already scheduled; otherwise remove it now.
    if (!this.answered) this.frame.remove();
  }
}

export class HiddenFrameNavigator implements INavigator {
  constructor(private readonly timeoutMs = SILENT_LOGIN_TIMEOUT_MS) {}

  async prepare(): Promise<IWindow> {
    return new HiddenFrameWindow(this.timeoutMs);
  }

  /** Runs inside the frame: hands the provider's answer to the parent window. */
  async callback(url: string): Promise<void> {
    window.parent.postMessage({ source: MESSAGE_SOURCE, url, keepOpen: false }, window.location.origin);
  }
}
