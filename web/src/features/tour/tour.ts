/**
 * The first-run tour on driver.js: from the units table into the first room — its plan, the
 * 7-day preview, the setpoint on its way to the valves ("pending on N devices"), the occupants'
 * QR page — and on to the alerts. Six steps, skippable at any one (×, "Skip tour", Esc); focus
 * moves to each step's "Next" and Tab stays within the step (driver.js). Loaded only when the
 * tour starts (tour-launcher.tsx): driver.js, its styles and the `tour` texts stay out of the
 * first load.
 */
import { type Driver, type DriveStep, driver, type PopoverDOM } from 'driver.js';
import 'driver.js/dist/driver.css';
import './tour.css';
import type { i18n as I18n, TFunction } from 'i18next';

/** How long a step waits for its screen to load and show its element (ms). */
const WAIT_MS = 10_000;
/** How long the tour waits for the units table: a demo's first start is busy filling its history. */
const FIRST_WAIT_MS = 30_000;

const by = (testid: string) => `[data-testid="${testid}"]`;

export interface RunningTour {
  stop(): void;
}

export interface TourOptions {
  /** The app's i18next (passed in: importing it here would split it into a chunk of its own). */
  i18n: I18n;
  /** Where the app is when the tour starts. */
  pathname: string;
  navigate(to: string): void;
  /** Called when the first step shows. */
  onShown(): void;
  /** Called once the tour has ended, however (also when the units screen did not load). */
  onEnd(): void;
}

/** The first element matching `selector`, or null after `ms`. */
function waitFor(selector: string, ms: number): Promise<Element | null> {
  return new Promise((resolve) => {
    const found = document.querySelector(selector);
    if (found) {
      resolve(found);
      return;
    }
    const done = (element: Element | null) => {
      observer.disconnect();
      clearTimeout(timer);
      resolve(element);
    };
    const observer = new MutationObserver(() => {
      const element = document.querySelector(selector);
      if (element) done(element);
    });
    const timer = setTimeout(() => done(null), ms);
    observer.observe(document.body, { childList: true, subtree: true });
  });
}

/** The first shown element of `selector`, else the first at all. */
function shown(selector: string): Element | undefined {
  const all = [...document.querySelectorAll(selector)];
  return all.find((element) => element.getClientRects().length > 0) ?? all[0];
}

/** driver.js shows a step whose element function returns nothing in the middle of the screen. */
const orCentre = (element: Element | undefined) => element as Element;

/**
 * driver.js marks the highlighted element as the opener of its popover (aria-haspopup="dialog",
 * aria-expanded, aria-controls) and strips those attributes when it moves on. That is untrue of
 * every step — the element is only shown, it opens nothing — not allowed on a section or a table
 * row (axe: aria-allowed-attr, aria-conditional-attr), and it wiped the element's own values: the
 * room dialog's trigger and the phone menu's button lost aria-expanded. Each element keeps its own.
 */
const POPUP_ATTRIBUTES = ['aria-haspopup', 'aria-expanded', 'aria-controls'] as const;
const ownPopupAttributes = new WeakMap<Element, (string | null)[]>();
function keepOwnAttributes(element: Element | undefined) {
  if (element)
    ownPopupAttributes.set(
      element,
      POPUP_ATTRIBUTES.map((name) => element.getAttribute(name)),
    );
}
function restoreOwnAttributes(element: Element | undefined) {
  const own = element && ownPopupAttributes.get(element);
  if (!element || !own) return;
  POPUP_ATTRIBUTES.forEach((name, i) => {
    const value = own[i];
    if (value === null || value === undefined) element.removeAttribute(name);
    else element.setAttribute(name, value);
  });
}

/** Makes the popover speak the UI's language and adds an explicit "Skip tour" to its footer. */
function dress(popover: PopoverDOM, tour: Driver, t: TFunction) {
  popover.wrapper.dataset.testid = 'tour';
  popover.nextButton.dataset.testid = 'tour-next';
  popover.previousButton.dataset.testid = 'tour-back';
  popover.closeButton.dataset.testid = 'tour-close';
  popover.closeButton.setAttribute('aria-label', t('skip'));
  popover.closeButton.title = t('skip');
  if (tour.isLastStep()) return;
  const skip = document.createElement('button');
  skip.type = 'button';
  skip.className = 'driver-popover-footer-btn heizplan-tour-skip';
  skip.dataset.testid = 'tour-skip';
  skip.textContent = t('skip');
  skip.addEventListener('click', () => tour.destroy());
  popover.footer.insertBefore(skip, popover.footerButtons);
}

function steps(t: TFunction, unitPath: string | null, go: TourOptions['navigate'], tour: () => Driver) {
  const step = (key: string, element: DriveStep['element'], more: Partial<DriveStep> = {}): DriveStep => ({
    element,
    ...more,
    popover: { title: t(`${key}.title`), description: t(`${key}.text`), ...more.popover },
  });
  const numbered = (all: DriveStep[]) =>
    all.map((s, i) => ({
      ...s,
      popover: { ...s.popover, progressText: t('progress', { current: i + 1, total: all.length }) },
    }));
  if (!unitPath) return numbered([step('empty', () => orCentre(shown(by('create-units'))))]);
  return numbered([
    step('units', () => orCentre(shown(`${by('units-table')} [data-testid^="units-table-row-"]`)), {
      waitForElement: WAIT_MS,
      popover: {
        // Into the first room: its page loads, and the next step waits for it.
        onNextClick: () => {
          go(unitPath);
          tour().moveNext();
        },
      },
    }),
    step('plan', by('unit-plans'), {
      waitForElement: WAIT_MS,
      popover: {
        onPrevClick: () => {
          go('/units');
          tour().movePrevious();
        },
      },
    }),
    step('preview', by('unit-preview')),
    step('setpoint', by('unit-setpoint')),
    // Members who only read have no QR section: the step then explains the page centred.
    step('qr', () => orCentre(shown(by('unit-qr')))),
    // The sidebar's entry on wide screens, the header's badge or menu on phones.
    step('alerts', () =>
      orCentre(shown(`${by('nav-alerts')}, ${by('alerts-badge-link')}, ${by('nav-toggle')}`)),
    ),
  ]);
}

/**
 * Opens /units if the app is elsewhere and runs the tour over the first room listed; in a company
 * without rooms it says to create some first. Resolves once the first step shows (or the
 * units screen did not load: then the tour ends at once).
 */
export async function startTour({
  i18n,
  pathname,
  navigate,
  onShown,
  onEnd,
}: TourOptions): Promise<RunningTour> {
  await i18n.loadNamespaces('tour');
  const t = i18n.getFixedT(null, 'tour');
  if (pathname !== '/units') navigate('/units');
  const first = await waitFor(
    `${by('units-table')} [data-testid^="unit-link-"], ${by('units-empty')}`,
    FIRST_WAIT_MS,
  );
  if (!first) {
    onEnd();
    return { stop: () => undefined };
  }
  const unitPath = first.getAttribute('href');
  // Movement only for whom it does not bother (prefers-reduced-motion).
  const motion = window.matchMedia?.('(prefers-reduced-motion: no-preference)').matches ?? false;
  const tour: Driver = driver({
    steps: steps(t, unitPath, navigate, () => tour),
    animate: motion,
    smoothScroll: motion,
    showProgress: true,
    nextBtnText: t('next'),
    prevBtnText: t('back'),
    doneBtnText: t('done'),
    popoverClass: 'heizplan-tour',
    stagePadding: 6,
    stageRadius: 12,
    onPopoverRender: (popover) => dress(popover, tour, t),
    // Read before driver.js sets its popup attributes; put back once it has (`keepOwnAttributes`),
    // on the element it left too, whose attributes it has just removed.
    onHighlightStarted: (element) => keepOwnAttributes(element),
    // driver.js focuses the popover's first button (×); "Next" is where a keyboard goes on.
    onHighlighted: (element) => {
      restoreOwnAttributes(element);
      restoreOwnAttributes(tour.getPreviousElement());
      (tour.getState('popover') as PopoverDOM | undefined)?.nextButton.focus();
    },
    onDestroyed: (element) => {
      restoreOwnAttributes(element);
      onEnd();
    },
  });
  tour.drive();
  onShown();
  return { stop: () => tour.destroy() };
}
