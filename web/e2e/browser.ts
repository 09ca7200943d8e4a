/**
 * Chromium for the browser journeys: Debian's /usr/bin/chromium driven by playwright-core
 * (no browser download). Screenshots go to web/e2e/artifacts/ (git-ignored) to be looked at.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { expectAccessible } from './axe.ts';

export const artifactsDir = path.join(import.meta.dirname, 'artifacts');

const launch = () =>
  chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });

/**
 * Journeys ask for reduced motion, which the app honours by ending its transitions at once: a
 * check right after a button changed its variant (the assign page's "Weiter" turning primary)
 * otherwise measured the colours halfway through the fade (3.94:1) and failed by timing.
 */
const MOTION = { reducedMotion: 'reduce' } as const;

let shared: Promise<Browser> | undefined;

/**
 * A journey file's browser. The files run one after another in one worker, so they share one
 * Chromium: a launch costs about a second of CPU, twenty of them a noticeable share of a loaded
 * run (decision 0065). What keeps files apart is the browser context (own cookies, storage and
 * cache), as in Playwright's own runner: the handle tracks the contexts made through it, and its
 * `close()` closes those, not the shared browser, which ends with the worker. A browser that died
 * is launched again for the next file.
 */
export async function launchBrowser(): Promise<Browser> {
  shared ??= launch();
  let browser = await shared;
  if (!browser.isConnected()) {
    shared = launch();
    browser = await shared;
  }
  const contexts = new Set<BrowserContext>();
  const track = <T extends BrowserContext>(context: T) => {
    contexts.add(context);
    context.once('close', () => contexts.delete(context));
    return context;
  };
  const handle: Partial<Browser> = {
    newContext: async (options) => track(await browser.newContext({ ...MOTION, ...options })),
    newPage: async (options) => {
      const context = track(await browser.newContext({ ...MOTION, ...options }));
      return context.newPage();
    },
    contexts: () => [...contexts],
    close: async () => {
      await Promise.all([...contexts].map((context) => context.close().catch(() => undefined)));
    },
  };
  return new Proxy(browser, {
    get(target, property, receiver) {
      if (Object.hasOwn(handle, property)) return handle[property as keyof Browser];
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * Shoots the page as it is into web/e2e/artifacts/`name`.png, then checks it with axe's WCAG 2.1
 * A/AA rules (`expectAccessible`): a journey shoots each screen and dialog once it has settled, so
 * every screen worth looking at is one checked for accessibility too, and a new journey's screens
 * are checked without anyone remembering to (decision 0071). The shot comes first, so a failing
 * check leaves a picture of what it found.
 */
export async function screenshot(page: Page, name: string) {
  mkdirSync(artifactsDir, { recursive: true });
  await page.screenshot({ path: path.join(artifactsDir, `${name}.png`), fullPage: true });
  await expectAccessible(page, name);
}

/**
 * Records every Content-Security-Policy violation in the pages and frames of `context`
 * (decision 0031) as "url: directive blocked-uri source:line". Journeys expect none, so an inline
 * script without its hash, an eval or a foreign origin fails a journey, not a user's browser.
 */
export async function recordCspViolations(context: BrowserContext): Promise<string[]> {
  const violations: string[] = [];
  await context.exposeBinding('__reportCspViolation', ({ frame }, text: string) => {
    violations.push(`${frame.url()}: ${text}`);
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __reportCspViolation(text: string): void }).__reportCspViolation;
      report(`${event.effectiveDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`);
    });
  });
  return violations;
}
