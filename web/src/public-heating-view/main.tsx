/** Entry of the public heating view (`/heating-view/{token}`), a page of its own (decision 0021). */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './heating-view.css';
import { pickLanguage } from './dictionary.ts';
import { HeatingViewApp } from './heating-view-app.tsx';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from heating-view.html');
const token = decodeURIComponent(window.location.pathname.split('/').filter(Boolean)[1] ?? '');
const lang = pickLanguage(navigator.languages ?? [navigator.language]);
document.documentElement.lang = lang;
createRoot(root).render(
  <StrictMode>
    <HeatingViewApp token={token} lang={lang} />
  </StrictMode>,
);
