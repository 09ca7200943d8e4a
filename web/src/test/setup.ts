import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeAll } from 'vitest';
import i18n, { storedLanguage } from '../app/i18n.ts';
import { queryClient } from '../app/providers.tsx';
import { preloadDialog } from '../components/ui/dialog.tsx';
import { resources } from './locales.ts';

// Every namespace in both languages, so screens render their texts without waiting for a fetch.
for (const [lng, namespaces] of Object.entries(resources)) {
  for (const [ns, texts] of Object.entries(namespaces)) i18n.addResourceBundle(lng, ns, texts);
}

// Screens behind the guards wait for several stubbed calls and load their chunk and texts
// lazily; on a loaded two-core CI machine the first render can take several seconds.
configure({ asyncUtilTimeout: 10_000 });

// The app fetches the open dialog's code when a trigger is first pointed at (components/ui/dialog.tsx);
// here it is there from the start, so a click opens a dialog in the same render as in the app after that.
beforeAll(() => preloadDialog());

// The files of one worker share their modules and may share their jsdom (vitest.config.ts,
// `webProject`): start each file with empty storage, in the language that means (German), and with
// an empty query cache, whatever the file before left behind.
beforeAll(async () => {
  localStorage.clear();
  sessionStorage.clear();
  queryClient.clear();
  await i18n.changeLanguage(storedLanguage());
  document.documentElement.lang = i18n.language;
});

afterEach(() => cleanup());
