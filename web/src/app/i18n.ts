/**
 * i18next set-up (docs/architecture.md): German by default, English the other language, the
 * choice persisted in localStorage. Strings live in `locales/<lng>/<namespace>.json`, one
 * namespace per feature so features never edit each other's files (docs/decisions/0003).
 *
 * Only the shell's namespaces (`common`, `ui`) ship with the first script; every other namespace
 * is fetched in the user's language when a screen first needs it (decision 0045): a screen's
 * route asks for its namespaces together with its chunk, and `useTranslation` suspends for any
 * it did not name. English is not downloaded as a fallback for German: both languages have the
 * same keys (i18n.test.ts), so a fallback could never show anything.
 */
import i18n, { type ResourceKey } from 'i18next';
import resourcesToBackend from 'i18next-resources-to-backend';
import { initReactI18next } from 'react-i18next';

export const LANGUAGES = ['de', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
const STORAGE_KEY = 'heizplan.lang';

/** Namespaces every screen needs at once: bundled with the entry in both languages. */
const BUNDLED_NAMESPACES = ['common', 'ui'];
/** The shell's other namespaces (sign-in, company switcher): fetched at start. */
const SHELL_NAMESPACES = ['auth', 'company'];

const bundled = import.meta.glob<ResourceKey>(['../locales/*/common.json', '../locales/*/ui.json'], {
  eager: true,
  import: 'default',
});
const loaders = import.meta.glob<Record<string, unknown>>('../locales/*/*.json', { import: 'default' });

const fileOf = (lng: string, ns: string) => `../locales/${lng}/${ns}.json`;

/** Every namespace of the locale files, e.g. `['assign', 'auth', …]`. */
export const NAMESPACES = [
  ...new Set(Object.keys(loaders).map((file) => file.match(/\/([\w-]+)\.json$/)?.[1] ?? '')),
].sort();

/** The language the user chose on this browser, or null when none was chosen yet. */
export function chosenLanguage(): Language | null {
  const stored = typeof localStorage === 'undefined' ? null : localStorage.getItem(STORAGE_KEY);
  return stored === 'en' || stored === 'de' ? stored : null;
}

/** The first of the browser's preferred languages the app speaks, or undefined. */
export function browserLanguage(): Language | undefined {
  const preferred = typeof navigator === 'undefined' ? [] : navigator.languages;
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0];
    if (base === 'de' || base === 'en') return base;
  }
  return undefined;
}

export function storedLanguage(): Language {
  return chosenLanguage() ?? 'de';
}

/** Switches the UI language and remembers it; resolves once the new language's texts are loaded. */
export async function setLanguage(lng: Language) {
  localStorage.setItem(STORAGE_KEY, lng);
  document.documentElement.lang = lng;
  await i18n.changeLanguage(lng);
}

/** Loads `namespaces` in the current language (a screen's route calls it with its chunk). */
export async function loadNamespaces(namespaces: readonly string[]) {
  await i18n.loadNamespaces([...namespaces]);
}

void i18n
  .use(
    resourcesToBackend(async (lng: string, ns: string) => {
      const load = loaders[fileOf(lng, ns)];
      if (!load) throw new Error(`no locale file ${fileOf(lng, ns)}`);
      return load();
    }),
  )
  .use(initReactI18next)
  .init({
    resources: Object.fromEntries(
      LANGUAGES.map((lng) => [
        lng,
        Object.fromEntries(BUNDLED_NAMESPACES.map((ns) => [ns, bundled[fileOf(lng, ns)] ?? {}])),
      ]),
    ),
    partialBundledLanguages: true,
    lng: storedLanguage(),
    fallbackLng: false,
    supportedLngs: LANGUAGES,
    defaultNS: 'common',
    ns: [...BUNDLED_NAMESPACES, ...SHELL_NAMESPACES],
    interpolation: { escapeValue: false },
    returnNull: false,
  });

export default i18n;
