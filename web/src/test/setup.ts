import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeAll } from 'vitest';
import i18n from '../app/i18n.ts';
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

afterEach(() => cleanup());
