/**
 * WCAG AA contrast (4.5:1 for text, success criterion 1.4.3) of every widget of the UI kit in
 * every state it can be in (the hovered current page button's number was nearly
 * invisible). The widget catalogue renders each widget in its states; for every text the test
 * resolves, per state (resting, hover, focus), the text and background colour from the
 * Tailwind classes of the element and its ancestors, with the palette Tailwind and
 * `index.css` define, and computes the contrast ratio.
 *
 * Two colour classes for the same state on one element (`hover:bg-stone-100 hover:bg-brand-700`)
 * are reported too: which one applies then depends on the order of Tailwind's stylesheet, not on
 * the code — exactly how the current page button lost its colour on hover. Disabled controls are
 * exempt, as in WCAG ("text that is part of an inactive user interface component").
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { routes } from '../../app/router.tsx';
import { renderRoutes } from '../../test/render.tsx';
import { Tooltip } from './tooltip.tsx';

type Rgba = [number, number, number, number];

const WEB = path.resolve(import.meta.dirname, '../../..');
const theme = readFileSync(path.resolve(WEB, '../node_modules/tailwindcss/theme.css'), 'utf8');
const ours = readFileSync(path.resolve(WEB, 'src/index.css'), 'utf8');

/** OKLCH (CSS Color 4) to linear-light sRGB, clamped to the gamut. */
function oklchToLinear(l: number, c: number, hDeg: number): [number, number, number] {
  const h = (hDeg * Math.PI) / 180;
  const a = c * Math.cos(h);
  const b = c * Math.sin(h);
  const l_ = (l + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m_ = (l - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s_ = (l - 0.0894841775 * a - 1.291485548 * b) ** 3;
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  return [
    clamp(4.0767416621 * l_ - 3.3077115913 * m_ + 0.2309699292 * s_),
    clamp(-1.2684380046 * l_ + 2.6097574011 * m_ - 0.3413193965 * s_),
    clamp(-0.0041960863 * l_ - 0.7034186147 * m_ + 1.707614701 * s_),
  ];
}

const toLinear = (channel: number) => {
  const v = channel / 255;
  return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
};

/** Every `--color-<name>` of Tailwind's theme and ours, as linear sRGB with alpha. */
const palette = new Map<string, Rgba>();
for (const [, name, value] of `${theme}\n${ours}`.matchAll(/--color-([\w-]+):\s*([^;]+);/g)) {
  const oklch = /oklch\(([\d.]+)%\s+([\d.]+)\s+([\d.]+)\)/.exec(value!);
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value!.trim());
  if (oklch) {
    palette.set(name!, [...oklchToLinear(Number(oklch[1]) / 100, Number(oklch[2]), Number(oklch[3])), 1]);
  } else if (hex) {
    const digits = hex[1]!.length === 3 ? [...hex[1]!].map((d) => d + d).join('') : hex[1]!;
    const [r, g, b] = [0, 2, 4].map((i) => toLinear(Number.parseInt(digits.slice(i, i + 2), 16)));
    palette.set(name!, [r!, g!, b!, 1]);
  }
}

/** `text-stone-600` / `bg-ink/50` → its colour; null for classes that are no colour (text-sm). */
function colourOf(token: string): Rgba | 'transparent' | 'current' | null {
  const [name, alpha] = token.split('/');
  if (name === 'transparent') return 'transparent';
  if (name === 'current' || name === 'inherit') return 'current';
  const rgba = palette.get(name ?? '');
  if (!rgba) return null;
  return alpha ? [rgba[0], rgba[1], rgba[2], Number(alpha) / 100] : rgba;
}

const luminance = ([r, g, b]: Rgba) => 0.2126 * r + 0.7152 * g + 0.0722 * b;
const ratio = (a: Rgba, b: Rgba) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
};
/** Linear-light blend of `top` over an opaque `bottom`. */
const over = (top: Rgba, bottom: Rgba): Rgba => [
  top[0] * top[3] + bottom[0] * (1 - top[3]),
  top[1] * top[3] + bottom[1] * (1 - top[3]),
  top[2] * top[3] + bottom[2] * (1 - top[3]),
  1,
];

type Property = 'text' | 'bg';
const STATES = ['', 'hover', 'focus', 'focus-visible'] as const;
type State = (typeof STATES)[number];

/**
 * The colour `element` declares for `property` in `state` (its state variant, else its resting
 * class), or undefined; pushes an ambiguity when two classes compete.
 */
function declared(element: Element, property: Property, state: State, problems: string[]) {
  const found = (variant: string) => {
    const colours = [...element.classList].flatMap((token) => {
      const match = new RegExp(`^${variant ? `${variant}:` : ''}${property}-(.+)$`).exec(token);
      const colour = match ? colourOf(match[1]!) : null;
      return colour ? [{ token, colour }] : [];
    });
    if (colours.length > 1) {
      problems.push(`${where(element)}: ${colours.map((c) => c.token).join(' and ')} compete`);
    }
    return colours[0]?.colour;
  };
  return (state && found(state)) || found('');
}

function where(element: Element): string {
  const testid = element.closest('[data-testid]')?.getAttribute('data-testid');
  return `<${element.tagName.toLowerCase()}> "${element.textContent?.trim().slice(0, 30)}" in ${testid ?? 'page'}`;
}

/** Background under `element` in `state`: its own, else its ancestors', over the page's stone-50. */
function background(element: Element | null, state: State, problems: string[]): Rgba {
  if (!element) return palette.get('stone-50')!;
  const colour = declared(element, 'bg', state, problems);
  const below = () => background(element.parentElement, state, problems);
  if (!colour || colour === 'transparent' || colour === 'current') return below();
  return colour[3] < 1 ? over(colour, below()) : colour;
}

function foreground(element: Element | null, state: State, problems: string[]): Rgba {
  if (!element) return palette.get('ink')!;
  const colour = declared(element, 'text', state, problems);
  if (!colour || colour === 'transparent' || colour === 'current') {
    return foreground(element.parentElement, state, problems);
  }
  return colour;
}

const isInactive = (element: Element) =>
  element.closest('[hidden], [aria-hidden="true"], .sr-only') !== null ||
  element.closest('button:disabled, input:disabled, select:disabled, fieldset:disabled') !== null;

/** Elements showing text: a direct text node, a value or a placeholder. */
function textElements(): Element[] {
  return [...document.body.querySelectorAll('*')].filter((element) => {
    if (isInactive(element) || element.closest('svg')) return false;
    const ownText = [...element.childNodes].some((n) => n.nodeType === 3 && n.textContent?.trim());
    const input = element instanceof HTMLInputElement && (element.value || element.placeholder);
    return ownText || Boolean(input);
  });
}

/** The element that paints the background under `element` in `state`, or null for the page. */
function backgroundBox(element: Element | null, state: State): Element | null {
  if (!element) return null;
  const colour = declared(element, 'bg', state, []);
  if (!colour || colour === 'transparent' || colour === 'current') {
    return backgroundBox(element.parentElement, state);
  }
  return element;
}

/** `white-space` in effect on `element` from the Tailwind classes of it and its ancestors. */
function nowrap(element: Element | null): boolean {
  if (!element) return false;
  if (element.classList.contains('whitespace-nowrap')) return true;
  if (element.classList.contains('whitespace-normal')) return false;
  return nowrap(element.parentElement);
}

/**
 * A text that may not wrap inside a box of fixed width (a tooltip in a one-line table cell) runs
 * past the box: the rest of it then stands on whatever is behind, white on white.
 */
function overflowsBackground(element: Element, state: State): boolean {
  const box = backgroundBox(element, state);
  return box instanceof HTMLElement && box.style.width !== '' && nowrap(element);
}

function audit(): string[] {
  const problems: string[] = [];
  for (const element of textElements()) {
    if (overflowsBackground(element, '')) problems.push(`${where(element)}: runs past its background`);
    for (const state of STATES) {
      const placeholder =
        element instanceof HTMLInputElement && !element.value
          ? declared(element, 'placeholder:text' as Property, '', problems)
          : undefined;
      const fg =
        placeholder && placeholder !== 'transparent' && placeholder !== 'current'
          ? placeholder
          : foreground(element, state, problems);
      const bg = background(element, state, problems);
      const contrast = ratio(fg[3] < 1 ? over(fg, bg) : fg, bg);
      if (contrast < 4.5) {
        problems.push(`${where(element)}${state ? ` (${state})` : ''}: contrast ${contrast.toFixed(2)}:1`);
      }
    }
  }
  return [...new Set(problems)];
}

describe('UI kit contrast (WCAG AA)', { timeout: 20_000 }, () => {
  it('knows the palette', () => {
    expect(ratio(palette.get('white')!, palette.get('black')!)).toBeCloseTo(21, 1);
    // Tailwind's stone-500 on white is 4.8:1 by its own documentation; ours must agree roughly.
    expect(ratio(palette.get('stone-500')!, palette.get('white')!)).toBeGreaterThan(4.5);
  });

  it('every text of every widget in every state has at least 4.5:1', async () => {
    renderRoutes(routes, '/dev/ui');
    await screen.findByTestId('demo-table-server-row-r1');
    await userEvent.click(screen.getByTestId('demo-combobox-single'));
    await userEvent.hover(screen.getByTestId('demo-tooltip-top-trigger'));
    await screen.findByTestId('demo-tooltip-top', {}, { timeout: 3000 });
    await act(async () => {});
    // Not a vacuous pass: the catalogue shows well over a hundred texts, the current page among them.
    expect(textElements().length).toBeGreaterThan(100);
    expect(textElements()).toContain(screen.getByTestId('demo-table-server-page-1'));
    expect(audit()).toEqual([]);
  });
});

/**
 * The border colours `element` declares in any state but disabled (`border-stone-500`,
 * `hover:border-stone-600`, `aria-[invalid=true]:border-red-600`), with the class that sets each.
 */
function borderColours(element: Element): Array<{ token: string; colour: Rgba }> {
  return [...element.classList].flatMap((token) => {
    const match = /^(?:([\w-]+|aria-\[[^\]]+\]|has-\[[^\]]+\]):)?border-([a-z]+-\d+)$/.exec(token);
    if (!match || match[1]?.includes('disabled')) return [];
    const colour = colourOf(match[2]!);
    return colour && colour !== 'transparent' && colour !== 'current' ? [{ token, colour }] : [];
  });
}

describe('Form control borders (WCAG 1.4.11)', { timeout: 20_000 }, () => {
  it('show every text-like control with at least 3:1 against white and the page, in every state', async () => {
    renderRoutes(routes, '/dev/ui');
    await screen.findByTestId('demo-table-server-row-r1');
    const controls = [
      ...document.body.querySelectorAll('input:not([type=checkbox]):not([type=radio]), select, textarea'),
      ...document.body.querySelectorAll('[data-testid$="-control"]'),
    ].filter((element) => !isInactive(element) && borderColours(element).length > 0);
    // Not a vacuous pass: the catalogue shows text fields, selects and comboboxes.
    expect(controls.map((element) => element.tagName)).toEqual(
      expect.arrayContaining(['INPUT', 'SELECT', 'DIV']),
    );
    const problems = controls.flatMap((element) =>
      borderColours(element).flatMap(({ token, colour }) =>
        ['white', 'stone-50']
          .map((name) => ({ name, contrast: ratio(colour, palette.get(name)!) }))
          .filter(({ contrast }) => contrast < 3)
          .map(({ name, contrast }) => `${where(element)}: ${token} on ${name} ${contrast.toFixed(2)}:1`),
      ),
    );
    expect([...new Set(problems)]).toEqual([]);
  });
});

describe('Tooltip contrast (WCAG AA)', () => {
  // In the units table the tooltip sat in a one-line cell: the text did not wrap and ran past its
  // dark box onto the white row.
  it('keeps its text on its own dark background inside a one-line table cell, in every state', () => {
    vi.useFakeTimers();
    try {
      render(
        <table>
          <tbody>
            <tr className="group">
              <td className="bg-white whitespace-nowrap text-amber-600 group-hover:bg-stone-50">
                <Tooltip
                  content="Die Raumtemperatur weicht um mehr als 2 °C von der Solltemperatur ab."
                  width={200}
                  testid="cell-tooltip"
                >
                  <button type="button" className="text-ink hover:bg-stone-100">
                    !
                  </button>
                </Tooltip>
              </td>
            </tr>
          </tbody>
        </table>,
      );
      fireEvent.mouseEnter(screen.getByRole('button'));
      act(() => vi.advanceTimersByTime(1000));
      const tip = screen.getByTestId('cell-tooltip');
      expect(textElements()).toContain(tip);
      const problems: string[] = [];
      for (const state of STATES) {
        const contrast = ratio(foreground(tip, state, problems), background(tip, state, problems));
        expect(contrast, state || 'resting').toBeGreaterThanOrEqual(4.5);
      }
      expect(problems).toEqual([]);
      expect(audit()).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });
});
