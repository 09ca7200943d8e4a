/**
 * Camera QR scanner of /assign (spec §2). Scans with `@zxing/browser` (pure JavaScript, nothing
 * fetched at runtime), loaded with a dynamic import so the decoder is its own chunk and only
 * phones that actually scan download it. Prefers the rear camera (`facingMode: environment`).
 * Reports the first decoded text once and stops the camera; reports why the camera cannot be
 * used (permission denied, no camera / insecure page, other failure) so the page can explain
 * and fall back to typing.
 */
import type { IScannerControls } from '@zxing/browser';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

export type CameraProblem = 'denied' | 'noCamera' | 'failed';

/** Maps a getUserMedia failure (a DOMException by name) to what the user can do about it. */
export function cameraProblemOf(error: unknown): CameraProblem {
  // Not `instanceof Error`: DOMException is no Error subclass in every engine.
  const name = typeof error === 'object' && error !== null && 'name' in error ? String(error.name) : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'denied';
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'noCamera';
  return 'failed';
}

export interface QrScannerProps {
  onScan: (text: string) => void;
  onProblem: (problem: CameraProblem) => void;
}

export function QrScanner({ onScan, onProblem }: QrScannerProps) {
  const { t } = useTranslation('assign');
  const video = useRef<HTMLVideoElement>(null);
  // The latest callbacks, so the camera is started once per mount and not per render.
  const callbacks = useRef({ onScan, onProblem });
  callbacks.current = { onScan, onProblem };

  useEffect(() => {
    let done = false;
    let controls: IScannerControls | undefined;
    const element = video.current;
    // getUserMedia exists only in secure contexts (HTTPS, localhost) and on devices with media support.
    if (!element || !navigator.mediaDevices?.getUserMedia) {
      callbacks.current.onProblem('noCamera');
      return;
    }
    import('@zxing/browser')
      .then(({ BrowserQRCodeReader }) =>
        new BrowserQRCodeReader().decodeFromConstraints(
          { video: { facingMode: 'environment' } },
          element,
          (result) => {
            if (!result || done) return;
            done = true;
            controls?.stop();
            callbacks.current.onScan(result.getText());
          },
        ),
      )
      .then((started) => {
        controls = started;
        if (done) started.stop();
      })
      .catch((error: unknown) => {
        if (!done) callbacks.current.onProblem(cameraProblemOf(error));
      });
    return () => {
      done = true;
      controls?.stop();
    };
  }, []);

  return (
    <div className="flex flex-col gap-2">
      <video
        ref={video}
        muted
        playsInline
        aria-label={t('scan.preview')}
        data-testid="assign-camera"
        className="aspect-square w-full rounded-xl bg-ink object-cover"
      />
      <p className="text-sm text-stone-600">{t('scan.aim')}</p>
    </div>
  );
}
