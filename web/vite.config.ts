import { resolve } from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv, type Plugin } from 'vite';
import { parseEnv } from './src/config/env-schema.ts';
import { precompress } from './vite.precompress.ts';

const api = process.env.HEIZPLAN_API ?? 'http://localhost:3000';

/** In `vite dev`, `/heating-view/{token}` loads the public page's own entry, as the server does in production. */
const heatingViewEntry: Plugin = {
  name: 'heizplan-heating-view-entry',
  configureServer(server) {
    server.middlewares.use((req, _res, next) => {
      if (req.url?.startsWith('/heating-view/')) req.url = '/heating-view.html';
      next();
    });
  },
};

export default defineConfig(({ mode }) => ({
  plugins: [react(), tailwindcss(), heatingViewEntry, precompress()],
  // zod with its code generation off before any schema is built (src/lib/zod.ts).
  resolve: { alias: [{ find: /^zod$/, replacement: resolve(import.meta.dirname, 'src/lib/zod.ts') }] },
  // The VITE_* settings, parsed here once (a bad value fails the build), reach the app as values.
  define: { __HEIZPLAN_ENV__: JSON.stringify(parseEnv(loadEnv(mode, import.meta.dirname, 'VITE_'))) },
  // `npm run dev`: the API, the embedded identity provider and its hosted sign-in pages.
  server: { proxy: { '/api': api, '/oidc': api, '/auth': api, '/legal': api } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 800,
    // The operator SPA; the occupants' public heating view (decision 0021) is built after it
    // with Preact by vite.heating-view.config.ts (`npm run build`).
    rolldownOptions: {
      input: { main: resolve(import.meta.dirname, 'index.html') },
    },
  },
}));
