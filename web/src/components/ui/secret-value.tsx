/**
 * A secret shown once (a webhook's signing secret, an API token) with a copy button. Where the
 * browser refuses the clipboard (an http:// address, a denied permission) the secret is selected
 * instead, for Ctrl+C; the outcome is announced to screen readers.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './button.tsx';
import { Icon } from './icon.tsx';

/** How long "Copied" shows before the button offers to copy again (ms). */
const COPIED_MS = 3000;

/** `testid` names the parts: `<testid>-value`, `<testid>-copy`, `<testid>-copy-status`. */
export function SecretValue({ secret, testid }: { secret: string; testid: string }) {
  const { t } = useTranslation('ui');
  const code = useRef<HTMLElement>(null);
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state !== 'copied') return;
    const timer = setTimeout(() => setState('idle'), COPIED_MS);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setState('copied');
    } catch {
      if (code.current) window.getSelection()?.selectAllChildren(code.current);
      setState('failed');
    }
  };
  return (
    <div className="flex flex-col gap-2">
      <code
        ref={code}
        className="block break-all rounded-lg bg-stone-100 p-3 font-mono text-sm"
        data-testid={`${testid}-value`}
      >
        {secret}
      </code>
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="secondary" size="sm" onClick={() => void copy()} testid={`${testid}-copy`}>
          {state === 'copied' && <Icon name="check" className="size-4" />}
          {state === 'copied' ? t('secret.copied') : t('secret.copy')}
        </Button>
        {/* Announced to screen readers, as the button's new label may not be. */}
        <span role="status" className="text-sm text-stone-700" data-testid={`${testid}-copy-status`}>
          {state === 'copied' ? <span className="sr-only">{t('secret.copied')}</span> : null}
          {state === 'failed' ? t('secret.copyFailed') : null}
        </span>
      </div>
    </div>
  );
}
