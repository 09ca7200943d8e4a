/**
 * Failed screen-chunk loads (spec §8 "A failed screen-chunk load raises a preload error event").
 * Vite dispatches `vite:preloadError` on `window` when a dynamic import, or a file preloaded for
 * it, fails to load — most often because a deploy replaced the hashed files an open tab still
 * refers to. The app then reloads once to fetch the new `index.html` (the address already is the
 * screen's: React Router changes it as the navigation starts). A sessionStorage mark keeps
 * that from looping: when the mark is still set (the reload did not help), the error goes on to
 * the route's error screen, which offers a retry. A screen that loads clears the mark, so a later
 * failure may reload once again.
 */

const RELOAD_MARK = 'heizplan.chunkReload';

/** Errors that `vite:preloadError` announced; the error screen words them differently. */
const chunkErrors = new WeakSet<object>();

/** True when `error` is a chunk or preload failure that `vite:preloadError` announced. */
export function isChunkLoadError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && chunkErrors.has(error);
}

/** Vite's event: `payload` is the error of the failed import or preload. */
export type PreloadErrorEvent = Event & { payload?: unknown };

export class ChunkReload {
  /** Set once a reload is under way: a screen whose chunk failed then waits for the new page. */
  private reloading = false;

  /** `reload()` loads the page afresh; `storage` holds the reload mark (sessionStorage). */
  constructor(
    private readonly reload: () => void,
    private readonly storage: () => Storage = () => sessionStorage,
  ) {}

  private readMark(): string | null {
    try {
      return this.storage().getItem(RELOAD_MARK);
    } catch {
      // Storage refused (privacy settings): answer "reloaded already", so nothing can loop.
      return 'unavailable';
    }
  }

  private writeMark(value: string | null) {
    try {
      if (value === null) this.storage().removeItem(RELOAD_MARK);
      else this.storage().setItem(RELOAD_MARK, value);
    } catch {
      // Nothing to remember without storage; readMark already answers "reloaded".
    }
  }

  /**
   * The `vite:preloadError` listener: remembers the event's error as a chunk failure and reloads
   * the page, unless it reloaded for one already (then the error propagates to the route).
   */
  readonly listener = (event: Event) => {
    const { payload } = event as PreloadErrorEvent;
    if (typeof payload === 'object' && payload !== null) chunkErrors.add(payload);
    if (this.reloading || this.readMark() !== null) return;
    this.writeMark(String(Date.now()));
    this.reloading = true;
    this.reload();
  };

  /**
   * Loads a lazily imported screen. On success the reload mark is cleared; on failure while the
   * page reloads the promise never settles (the old screen stays until the new page arrives
   * instead of flashing an error); otherwise the error is thrown to the route's error screen.
   */
  async load<T>(loader: () => Promise<T>): Promise<T> {
    try {
      const loaded = await loader();
      if (this.readMark() !== null) this.writeMark(null);
      return loaded;
    } catch (error) {
      if (this.reloading) return new Promise<never>(() => {});
      throw error;
    }
  }
}

/** The app's instance; `main.tsx` makes it listen on `window`. */
export const chunkReload = new ChunkReload(() => window.location.reload());
