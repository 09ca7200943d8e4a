import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import './index.css';
import { Providers } from './app/providers.tsx';
import { AppRoutes } from './app/router.tsx';
import { chunkReload } from './lib/chunk-load.ts';
import { errorReporter } from './lib/error-reporting.ts';

// Spec §8, §9: uncaught errors, rejections and failed chunks are reported — first, since a
// failed chunk reloads the page right after (lib/error-reporting.ts).
errorReporter.start();
// Spec §8: a screen chunk that fails to load reloads the page once (lib/chunk-load.ts).
window.addEventListener('vite:preloadError', chunkReload.listener);

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
createRoot(root).render(
  <StrictMode>
    <Providers>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </Providers>
  </StrictMode>,
);
