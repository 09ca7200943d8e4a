/**
 * The error screen of the route-level error boundaries (`RouteBoundary` in `router.tsx`): a
 * screen that failed to render or whose chunk failed to load shows a translated message and a
 * retry instead of a blank page. Retry reloads the page: a failed chunk needs a fresh
 * `index.html`, and a render error starts over from the server's current data. The boundary
 * reports the error (lib/error-reporting.ts).
 */
import type { FallbackProps } from 'react-error-boundary';
import { useTranslation } from 'react-i18next';
import { Button } from '../components/ui/button.tsx';
import { Icon } from '../components/ui/icon.tsx';
import { isChunkLoadError } from '../lib/chunk-load.ts';
import { usePageTitle } from '../lib/page-title.tsx';

export function RouteErrorScreen({ error }: Pick<FallbackProps, 'error'>) {
  const { t } = useTranslation();
  const chunk = isChunkLoadError(error);
  usePageTitle(t(chunk ? 'errorScreen.chunkTitle' : 'errorScreen.title'));
  return (
    <div
      role="alert"
      className="flex min-h-full flex-col items-center justify-center gap-4 p-6 text-center"
      data-testid={chunk ? 'chunk-error' : 'route-error'}
    >
      <Icon name="warning" className="size-14 text-brand-600" />
      <h1 className="text-2xl font-semibold">{t(chunk ? 'errorScreen.chunkTitle' : 'errorScreen.title')}</h1>
      <p className="max-w-md text-stone-600">{t(chunk ? 'errorScreen.chunkText' : 'errorScreen.text')}</p>
      <Button testid="error-retry" onClick={() => window.location.reload()}>
        {t('errorScreen.retry')}
      </Button>
    </div>
  );
}
