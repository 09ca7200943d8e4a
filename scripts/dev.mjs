#!/usr/bin/env node
/**
 * `npm run dev`: the inner loop. The server (TypeScript through `tsx watch`, restarted on every
 * change under server/ and packages/) on the embedded defaults at port 3000, and Vite's dev server
 * with hot reload at http://localhost:5173, which proxies `/api`, `/oidc` and `/auth` to it.
 * Open the app at http://localhost:5173: PUBLIC_URL points there, so the sign-in returns to Vite.
 * Ctrl-C stops both.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const web = process.env.HEIZPLAN_DEV_WEB_PORT ?? '5173';
const children = [
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'server/src/main.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { PUBLIC_URL: `http://localhost:${web}`, ...process.env },
  }),
  spawn('npm', ['run', 'dev', '-w', 'web', '--', '--port', web, '--strictPort'], {
    cwd: root,
    stdio: 'inherit',
  }),
];

let stopping = false;
function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  process.exitCode = code;
}
for (const child of children) child.on('exit', (code) => stop(code ?? 0));
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
