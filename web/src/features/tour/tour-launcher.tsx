/**
 * The first-run tour's entry in the app shell. It starts by itself once for a newcomer who opens
 * the demo (signed in with the demo's account, on /units), and whenever settings → help asks for
 * it (lib/tour-request.ts) — other accounts start in an empty company, where the tour would have
 * no room to show. The tour (driver.js, its texts and styles) loads only when it starts, so the
 * shell's first load carries just this component.
 */
import { isDemoEmail } from '@heizplan/contracts/demo';
import { useCallback, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useMe } from '../../lib/account/get-me.ts';
import { onTourRequest } from '../../lib/tour-request.ts';
import type { RunningTour } from './tour.ts';
import { markTourSeen, tourSeen } from './tour-seen.ts';

export function TourLauncher() {
  const me = useMe().data;
  const { pathname } = useLocation();
  const navigate = useNavigate();
  // The shell's own namespace: bundled, so nothing loads or suspends here.
  const { i18n } = useTranslation();
  const latest = useRef({ navigate, pathname, i18n });
  latest.current = { navigate, pathname, i18n };
  const tour = useRef<RunningTour | 'loading' | null>(null);

  const start = useCallback((userId: string) => {
    if (tour.current) return;
    tour.current = 'loading';
    import('./tour.ts')
      .then(({ startTour }) =>
        startTour({
          i18n: latest.current.i18n,
          pathname: latest.current.pathname,
          navigate: (to) => void latest.current.navigate(to),
          // Seen once it shows: skipped, finished or left half-way, it does not come back by itself.
          onShown: () => markTourSeen(userId),
          onEnd: () => {
            tour.current = null;
          },
        }),
      )
      .then((running) => {
        // Unless it already ended (the units screen did not load, Esc at once).
        if (tour.current === 'loading') tour.current = running;
      })
      .catch((error: unknown) => {
        // Optional help: a failed chunk leaves the app as it is; settings → help can try again.
        console.info('the tour could not start', error);
        tour.current = null;
      });
  }, []);

  useEffect(() => {
    if (me && pathname === '/units' && isDemoEmail(me.email) && !tourSeen(me.id)) start(me.id);
  }, [me, pathname, start]);
  useEffect(() => onTourRequest(() => me && start(me.id)), [me, start]);
  // The steps are on the units screens; elsewhere (a link followed, "back") the tour ends.
  useEffect(() => {
    const running = tour.current;
    if (running && running !== 'loading' && !pathname.startsWith('/units')) running.stop();
  }, [pathname]);
  return null;
}
