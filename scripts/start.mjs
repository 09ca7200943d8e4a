#!/usr/bin/env node
/**
 * `npm start`: builds the web app when web/dist is missing or older than its sources, then
 * runs the server (tsx) in this process's place. No configuration needed: embedded
 * PostgreSQL (PGlite) in ./data unless DATABASE_URL says otherwise.
 */
import { execSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'web/dist/index.html');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

const webSources = [path.join(root, 'web/src'), path.join(root, 'packages/contracts/src')];
// The changelog is bundled into the web app too (settings → help → changelog).
const changelog = path.join(root, 'CHANGELOG.md');
const stale =
  !existsSync(dist) ||
  webSources.some((d) => newestMtime(d) > statSync(dist).mtimeMs) ||
  statSync(changelog).mtimeMs > statSync(dist).mtimeMs;
if (stale) {
  console.log('Building the web app …');
  execSync('npm run build -w web', { cwd: root, stdio: 'inherit' });
}

const server = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
  cwd: root,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
