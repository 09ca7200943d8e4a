/**
 * i18next set-up (ARCHITECTURE.md §7): German by default, English as fallback, the choice
 * persisted in localStorage. Strings live in `locales/<lng>/<namespace>.json`, one namespace
 * per feature so features never edit each other's files (docs/decisions/0003).
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';

export const LANGUAGES = ['de', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
const STORAGE_KEY = 'heizplan.lang';

const files = import.meta.glob<Record<string, unknown>>('../locales/*/*.json', {
  eager: true,
  import: 'default',
});

/** `{de: {common: {...}, units: {...}}, en: {...}}` built from the locale files. */
export const resources: Record<string, Record<string, Record<string, unknown>>> = {};
for (const [file, strings] of Object.entries(files)) {
  const match = file.match(/locales\/(\w+)\/([\w-]+)\.json$/);
  if (!match) continue;
  const [, lng, ns] = match as unknown as [string, string, string];
  resources[lng] ??= {};
  resources[lng][ns] = strings;
}

/** The language the user chose on this browser, or null when none was chosen yet. */
export function chosenLanguage(): Language | null {
  const stored = typeof localStorage === 'undefined' ? null : localStorage.getItem(STORAGE_KEY);
  return stored === 'en' || stored === 'de' ? stored : null;
}

export function storedLanguage(): Language {
  return chosenLanguage() ?? 'de';
}

/** Switches the UI language and remembers it for the next visit. */
export async function setLanguage(lng: Language) {
  localStorage.setItem(STORAGE_KEY, lng);
  document.documentElement.lang = lng;
  await i18n.changeLanguage(lng);
}

void i18n.use(initReactI18next).init({
  resources,
  lng: storedLanguage(),
  fallbackLng: 'en',
  supportedLngs: LANGUAGES,
  defaultNS: 'common',
  ns: Object.keys(resources.de ?? {}),
  interpolation: { escapeValue: false },
  returnNull: false,
});

export default i18n;
