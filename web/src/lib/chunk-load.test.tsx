/**
 * Spec §8 "A failed screen-chunk load raises a preload error event": the app reloads once, and
 * when the chunk fails again after that reload, the route's error screen offers a retry.
 */
import { act, render, screen } from '@testing-library/react';
import { type ComponentType, lazy, Suspense } from 'react';
import { ErrorBoundary } from 'react-error-boundary';
import { MemoryRouter, Route, Routes, useNavigate } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../app/i18n.ts';
import { RouteErrorScreen } from '../app/route-error-screen.tsx';
import { ChunkReload } from './chunk-load.ts';

/**
 * A screen chunk whose request the test answers: `fail()` is the network's answer, arriving
 * after the navigation started, and then the import does what Vite's preload helper does when a
 * dynamic import fails: announce it, then throw.
 */
function failingChunk() {
  let answer: () => void = () => {};
  const answered = new Promise<void>((resolve) => {
    answer = resolve;
  });
  return {
    load: async (): Promise<ComponentType> => {
      await answered;
      const error = new TypeError('Failed to fetch dynamically imported module: /assets/units-page-x.js');
      const event = Object.assign(new Event('vite:preloadError', { cancelable: true }), { payload: error });
      window.dispatchEvent(event);
      throw error;
    },
    fail: () => act(async () => answer()),
  };
}

/** One page load: its own reloader listening on the window, as main.tsx installs it. */
function pageLoad(loader: () => Promise<ComponentType>) {
  const reload = vi.fn();
  const chunks = new ChunkReload(reload);
  window.addEventListener('vite:preloadError', chunks.listener);
  const Units = lazy(async () => ({ default: await chunks.load(loader) }));
  let go: (to: string) => void = () => {};
  function Home() {
    const navigate = useNavigate();
    go = (to) => void navigate(to);
    return <p>home</p>;
  }
  const { unmount } = render(
    <MemoryRouter initialEntries={['/']}>
      <ErrorBoundary FallbackComponent={RouteErrorScreen}>
        <Suspense fallback={<p>loading</p>}>
          <Routes>
            <Route path="/" element={<Home />} />
            <Route path="/units" element={<Units />} />
          </Routes>
        </Suspense>
      </ErrorBoundary>
    </MemoryRouter>,
  );
  return {
    reload,
    navigate: (to: string) => act(async () => go(to)),
    unload: () => {
      window.removeEventListener('vite:preloadError', chunks.listener);
      unmount();
    },
  };
}

describe('failed screen chunks', () => {
  beforeEach(async () => {
    sessionStorage.clear();
    await setLanguage('de');
  });
  afterEach(() => sessionStorage.clear());

  it('reloads once and keeps the current screen meanwhile', async () => {
    const chunk = failingChunk();
    const page = pageLoad(chunk.load);
    await screen.findByText('home');
    await page.navigate('/units');
    await chunk.fail();
    await vi.waitFor(() => expect(page.reload).toHaveBeenCalledTimes(1));
    expect(screen.getByText('home')).toBeVisible();
    expect(screen.queryByRole('alert')).toBeNull();
    page.unload();
  });

  it('shows the chunk error screen with a retry when the chunk fails again after the reload', async () => {
    const firstChunk = failingChunk();
    const first = pageLoad(firstChunk.load);
    await screen.findByText('home');
    await first.navigate('/units');
    await firstChunk.fail();
    await vi.waitFor(() => expect(first.reload).toHaveBeenCalledTimes(1));
    first.unload();

    // The reloaded page: the mark in sessionStorage says it reloaded already.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const secondChunk = failingChunk();
    const second = pageLoad(secondChunk.load);
    await screen.findByText('home');
    await second.navigate('/units');
    await secondChunk.fail();
    const alert = await screen.findByTestId('chunk-error');
    expect(alert).toHaveTextContent('Die Seite konnte nicht geladen werden');
    expect(screen.getByRole('button', { name: 'Erneut versuchen' })).toBeVisible();
    expect(second.reload).not.toHaveBeenCalled();
    second.unload();
  });

  it('reloads again for a later failure once a screen loaded after the reload', async () => {
    sessionStorage.setItem('heizplan.chunkReload', '1');
    const Units = () => <p>units</p>;
    const loaded = pageLoad(async () => Units);
    await loaded.navigate('/units');
    await screen.findByText('units');
    expect(sessionStorage.getItem('heizplan.chunkReload')).toBeNull();
    loaded.unload();

    const laterChunk = failingChunk();
    const later = pageLoad(laterChunk.load);
    await later.navigate('/units');
    await laterChunk.fail();
    await vi.waitFor(() => expect(later.reload).toHaveBeenCalledTimes(1));
    later.unload();
  });

  it('never reloads when sessionStorage is refused, so nothing can loop', () => {
    const reload = vi.fn();
    const chunks = new ChunkReload(reload, () => {
      throw new DOMException('denied', 'SecurityError');
    });
    chunks.listener(Object.assign(new Event('vite:preloadError'), { payload: new Error('x') }));
    expect(reload).not.toHaveBeenCalled();
  });
});
