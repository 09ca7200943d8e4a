/**
 * Every locale file, read at once for tests: `{de: {common: {...}, units: {...}}, en: {...}}`.
 * The app fetches namespaces when a screen needs them (app/i18n.ts); component tests put all
 * of them into i18next up front (test/setup.ts), so a screen renders its texts at once.
 */
const files = import.meta.glob<Record<string, unknown>>('../locales/*/*.json', {
  eager: true,
  import: 'default',
});

export const resources: Record<string, Record<string, Record<string, unknown>>> = {};
for (const [file, strings] of Object.entries(files)) {
  const match = file.match(/locales\/(\w+)\/([\w-]+)\.json$/);
  if (!match) continue;
  const [, lng, ns] = match as unknown as [string, string, string];
  resources[lng] ??= {};
  resources[lng][ns] = strings;
}
