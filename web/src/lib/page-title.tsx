/**
 * Screen titles (WCAG 2.1 SC 2.4.2 "Page Titled"): every screen names itself in the browser's tab
 * and window list — "Räume – Heizplan", with the room's or building's name first where the screen
 * has one ("Büro 1.01 – Räume – Heizplan") — and after a navigation the new title is read out from
 * a polite live region (SC 4.1.3), because a single-page app loads no page a screen reader would
 * announce by itself. The first screen after a page load is not announced: the screen reader reads
 * the page's title then anyway. The same region says what a control changed where nothing else
 * would (`announce`: a setpoint raised in the units list, SC 4.1.3).
 */
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';

let current = '';
/** The last `announce`d text, numbered so the region tells it from one made before it was shown. */
let message = { text: '', count: 0 };
const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function publish(title: string) {
  document.title = title;
  if (title === current) return;
  current = title;
  for (const listener of listeners) listener();
}

/**
 * Says `text` in the polite live region (`RouteAnnouncer`), e.g. "Büro 1.01: 21,5 °C, wird an die
 * Ventile gesendet". What was said before the region was shown is not said again.
 */
export function announce(text: string): void {
  message = { text, count: message.count + 1 };
  for (const listener of listeners) listener();
}

/**
 * Sets the document title to `parts` joined by " – ", most specific first, followed by the
 * product's name, while the calling screen is shown. Empty parts (a name still loading) are left
 * out, so "Räume – Heizplan" shows until the room's name is there.
 */
export function usePageTitle(...parts: (string | null | undefined | false)[]): void {
  const { t } = useTranslation();
  const title = [...parts.filter((part): part is string => Boolean(part)), t('appName')].join(' – ');
  useEffect(() => publish(title), [title]);
}

/**
 * A visually hidden live region that says the new screen's title after each navigation. Rendered
 * once, around the screens (the shell, the setup wizard), inside the router.
 */
export function RouteAnnouncer() {
  const { pathname } = useLocation();
  const title = useSyncExternalStore(subscribe, () => current);
  const said = useSyncExternalStore(subscribe, () => message);
  const before = useRef(said);
  const firstPath = useRef(pathname);
  const [announced, setAnnounced] = useState('');
  const navigated = useRef(false);
  if (pathname !== firstPath.current) navigated.current = true;
  useEffect(() => {
    if (navigated.current) setAnnounced(title);
  }, [title]);
  useEffect(() => {
    if (said !== before.current) setAnnounced(said.text);
  }, [said]);
  return (
    <p role="status" aria-live="polite" aria-atomic="true" className="sr-only" data-testid="route-announcer">
      {announced}
    </p>
  );
}
