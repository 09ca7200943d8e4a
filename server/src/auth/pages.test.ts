/**
 * The hosted sign-in pages' fields show where they are: each colour a field's border takes (resting,
 * invalid, focused) has at least 3:1 against the field's white and the page's background
 * (WCAG 1.4.11), computed from the page's own stylesheet.
 */
import { describe, expect, it } from 'vitest';
import { renderPage } from './pages.ts';

/** WCAG 2.1 relative luminance of `#rrggbb`. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const v = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const ratio = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
};

describe('hosted page fields', () => {
  const page = renderPage({ lang: 'de', title: 'Anmelden', switchHref: '/auth/login?lang=en', body: '' });
  const style = /<style>([\s\S]*?)<\/style>/.exec(page)?.[1] ?? '';
  const rule = (selector: string) =>
    new RegExp(`(?:^|\\n)${selector.replace(/[[\]]/g, '\\$&')}\\{([^}]*)\\}`).exec(style)?.[1] ?? '';
  /** The `#rgb` or `#rrggbb` colour of `property` in `declarations`, as `#rrggbb`. */
  const colourIn = (declarations: string, property: string) => {
    const hex = new RegExp(`${property}:(?:[^;]*\\s)?#([0-9a-f]{6}|[0-9a-f]{3})\\b`, 'i').exec(
      declarations,
    )?.[1];
    if (!hex) return undefined;
    return `#${hex.length === 3 ? [...hex].map((d) => d + d).join('') : hex}`.toLowerCase();
  };

  it('have borders with at least 3:1 against the field and the page', () => {
    const page = colourIn(rule('body'), 'background');
    const field = colourIn(rule('input'), 'background');
    const borders = [
      colourIn(rule('input'), 'border'),
      colourIn(rule('input[aria-invalid=true]'), 'border-color'),
      colourIn(rule('input:focus'), 'border-color'),
    ];
    expect([page, field]).toEqual(['#fafaf9', '#ffffff']);
    for (const border of borders) {
      expect(border).toMatch(/^#[0-9a-f]{6}$/i);
      expect(ratio(border as string, field as string)).toBeGreaterThanOrEqual(3);
      expect(ratio(border as string, page as string)).toBeGreaterThanOrEqual(3);
    }
  });
});
