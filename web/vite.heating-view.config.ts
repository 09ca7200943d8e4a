/**
 * The occupants' public heating view (`heating-view.html`, decision 0021) is built on its own,
 * after the operator app (`npm run build`), with Preact in React's place: the page uses a handful
 * of hooks, and `preact/compat` gives them for ≈ 10 KiB gzipped instead of React's ≈ 67 KiB, on
 * the phones of people standing at a door on mobile data (budget ≤ 30 KiB, decision 0045). Its
 * sources stay plain React (tested with React in jsdom); the alias applies to this build only,
 * so shared modules such as `lib/use-pending-target.ts` get their own Preact-built copy here.
 */
import { resolve } from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';
import { precompress } from './vite.precompress.ts';

export default defineConfig({
  plugins: [tailwindcss(), precompress()],
  resolve: {
    alias: [
      { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
      { find: /^react\/jsx-(dev-)?runtime$/, replacement: 'preact/jsx-runtime' },
      { find: /^react(-dom)?$/, replacement: 'preact/compat' },
    ],
  },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    // The operator app's build ran first into the same folder.
    emptyOutDir: false,
    rolldownOptions: { input: { heatingView: resolve(import.meta.dirname, 'heating-view.html') } },
  },
});
