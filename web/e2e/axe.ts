/**
 * Accessibility checks for the browser journeys: axe-core's rules for WCAG 2.0/2.1 A and AA
 * (BITV 2.0) run in the page a journey has in front of it, and any violation fails the journey
 * with the rule, its impact and the elements it found (decision 0071).
 *
 * axe.min.js is evaluated through the DevTools protocol (`frame.evaluate` with its source), not
 * added as a `<script>`: the app's Content-Security-Policy allows no inline script, and the check
 * must not need a weaker policy than users get. DevTools evaluation is not subject to the page's
 * policy, and `recordCspViolations` (browser.ts) confirms the check causes no violation.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults, Result, RunOptions } from 'axe-core';
import type { Frame, Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The rule sets checked: WCAG 2.0 and 2.1, levels A and AA, which BITV 2.0 requires. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/**
 * Rules left out, each with the reason; nothing else is. Empty: every rule of the tags above
 * applies to every screen.
 */
const DISABLED_RULES: Record<string, string> = {};

/** Evaluates axe in `frame` unless it is there already (a navigation starts a fresh document). */
async function inject(frame: Frame): Promise<void> {
  const present = await frame.evaluate(() => 'axe' in window).catch(() => true);
  if (!present) await frame.evaluate(`${axeSource}\n;void 0`);
}

/** One violation as lines: rule, impact, help, then each element's selector and markup. */
function explain(violation: Result): string {
  const nodes = violation.nodes.slice(0, 5).map((node) => {
    const html = node.html.replace(/\s+/g, ' ');
    const snippet = html.length > 160 ? `${html.slice(0, 160)}…` : html;
    const why = node.failureSummary?.split('\n').slice(1, 2).join('').trim();
    return `    • ${node.target.join(' ')}\n      ${snippet}${why ? `\n      ${why}` : ''}`;
  });
  const more = violation.nodes.length > 5 ? [`    … and ${violation.nodes.length - 5} more`] : [];
  return [`  - ${violation.id} (${violation.impact ?? 'n/a'}): ${violation.help}`, ...nodes, ...more].join(
    '\n',
  );
}

/**
 * Runs axe's WCAG 2.1 A/AA rules on the whole page as it is now — the screen, and the dialog when
 * one is open — and fails with a readable list of the violations. `what` names the screen in the
 * message ("units list", "event dialog"). Call it once the screen has settled (its data shown),
 * since axe sees only what is rendered.
 */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  // Every frame gets axe: axe.run asks each frame's own copy and waits for an answer otherwise.
  for (const frame of page.frames()) await inject(frame);
  const options: RunOptions = {
    runOnly: { type: 'tag', values: WCAG_TAGS },
    resultTypes: ['violations'],
    rules: Object.fromEntries(Object.keys(DISABLED_RULES).map((id) => [id, { enabled: false }])),
  };
  const results = await page.evaluate((options) => {
    const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<unknown> } })
      .axe;
    // Only the violations cross back: passes and inapplicable rules are most of the result.
    return (axe.run(document, options) as Promise<AxeResults>).then((result) => result.violations);
  }, options);
  const violations: Result[] = results;
  if (violations.length === 0) return;
  throw new Error(
    `${violations.length} accessibility violation(s) on ${what} (${page.url()}):\n${violations.map(explain).join('\n')}`,
  );
}
