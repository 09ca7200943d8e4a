import { resolve } from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

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

export default defineConfig({
  plugins: [react(), tailwindcss(), heatingViewEntry],
  server: { proxy: { '/api': api, '/oidc': api } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 800,
    // Two pages: the operator SPA and the occupants' public heating view (decision 0021).
    rollupOptions: {
      input: {
        main: resolve(import.meta.dirname, 'index.html'),
        heatingView: resolve(import.meta.dirname, 'heating-view.html'),
      },
    },
  },
});
