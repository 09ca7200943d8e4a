/**
 * Feature folders are boundaries: a file under `features/<a>/` never imports from
 * `features/<b>/`. What several features need lives in `lib/`, `components/` or `test/`, and
 * screens that combine features live in `app/routes/`, where the app composes them. Otherwise
 * one feature's internals become another's dependency and no feature can change alone.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '..');
const FEATURES = path.join(SRC, 'features');

/** Every .ts/.tsx file below `dir`, tests included: they may not reach into other features either. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sources(file);
    return /\.tsx?$/.test(name) ? [file] : [];
  });
}

/**
 * The relative module specifiers of a source: static imports and re-exports (type-only too),
 * side-effect imports, `import()` and vitest's module mocks, which name a module just as well.
 */
function relativeSpecifiers(source: string): string[] {
  const pattern =
    /(?:\bfrom|\bimport|\bimport\s*\(|\bvi\.(?:mock|doMock|importActual|importMock)\s*\()\s*(['"])(\.{1,2}\/[^'"]*)\1/g;
  return [...source.matchAll(pattern)].map((match) => match[2] as string);
}

/** The feature a file belongs to, or null outside `features/`. */
function featureOf(file: string): string | null {
  const relative = path.relative(FEATURES, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return null;
  return relative.split(path.sep)[0] ?? null;
}

/** `file → imported file` (paths from web/src) for each import that crosses from one feature into another. */
function crossFeatureImports(files: Array<{ file: string; source: string }>): string[] {
  const name = (file: string) => path.relative(SRC, file).split(path.sep).join('/');
  return files.flatMap(({ file, source }) => {
    const from = featureOf(file);
    return relativeSpecifiers(source)
      .map((specifier) => path.resolve(path.dirname(file), specifier))
      .filter((target) => {
        const to = featureOf(target);
        return from !== null && to !== null && to !== from;
      })
      .map((target) => `${name(file)} → ${name(target)}`);
  });
}

describe('feature boundaries', () => {
  it('no feature imports another feature', () => {
    const files = sources(FEATURES).map((file) => ({ file, source: readFileSync(file, 'utf8') }));
    expect(files.length).toBeGreaterThan(100);
    expect(crossFeatureImports(files)).toEqual([]);
  });

  it('recognises the ways a file names another module', () => {
    const file = path.join(FEATURES, 'devices', 'components', 'dialog.tsx');
    const source = [
      "import { useCan } from '../../../lib/use-can.ts';",
      "import { useShopTarget } from '../../billing/components/subscription-notice.tsx';",
      "import type {\n  Plan,\n} from '../../plans/api/list-plans.ts';",
      "export { UnitGraph } from '../../unit-graphs/components/unit-graph.tsx';",
      "import '../../events/components/events-calendar.css';",
      "const Page = lazy(() => import('../../units/routes/unit-log-page.tsx'));",
      "vi.mock('../../alerts/api/alerts.ts', () => ({}));",
      "import { parse } from '../device-form.ts';",
    ].join('\n');
    expect(crossFeatureImports([{ file, source }])).toEqual([
      'features/devices/components/dialog.tsx → features/billing/components/subscription-notice.tsx',
      'features/devices/components/dialog.tsx → features/plans/api/list-plans.ts',
      'features/devices/components/dialog.tsx → features/unit-graphs/components/unit-graph.tsx',
      'features/devices/components/dialog.tsx → features/events/components/events-calendar.css',
      'features/devices/components/dialog.tsx → features/units/routes/unit-log-page.tsx',
      'features/devices/components/dialog.tsx → features/alerts/api/alerts.ts',
    ]);
  });

  it('lets the app and shared code import features', () => {
    const source = "import { PlansSection } from '../../features/plans/components/plans-section.tsx';";
    expect(
      crossFeatureImports([{ file: path.join(SRC, 'app', 'routes', 'groups-page.tsx'), source }]),
    ).toEqual([]);
  });
});
