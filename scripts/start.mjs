#!/usr/bin/env node
/**
 * `npm start`: builds the web app when web/dist is missing or older than its sources, then
 * runs the server (TypeScript through tsx) in this very process. No configuration needed:
 * embedded PostgreSQL (PGlite) in ./data unless DATABASE_URL says otherwise.
 *
 * Stopping: npm forwards SIGTERM/SIGINT only to the shell it runs this script in, and that shell
 * (dash) dies without passing the signal on — a server in a child of this process, or this
 * process itself, would keep running on its port after `kill <npm>`. So the server runs here,
 * and when started by npm it shuts down as on SIGTERM once that shell is gone.
 */
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
// Before the build, which may outlast npm: the parent to watch is the one that started us.
const parent = process.ppid;
const underNpm = Boolean(process.env.npm_lifecycle_event);
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

/**
 * Sends this process SIGTERM (main.ts's graceful shutdown) once its parent is gone, checked every
 * second: the parent is npm's shell, which lives exactly as long as the npm run does.
 */
function stopWithParent() {
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    // Once: main.ts handles SIGTERM once; a second one would end the shutdown half-way.
    clearInterval(timer);
    process.kill(process.pid, 'SIGTERM');
  }, 1000);
  timer.unref();
}

// Only under npm: started by hand (`nohup node scripts/start.mjs &`) it must outlive its shell.
if (underNpm) {
  if (process.ppid !== parent) {
    console.log('npm start was stopped while the web app was built; not starting the server');
    process.exit(0);
  }
  stopWithParent();
}
process.chdir(root);
// What `node --import tsx` does: TypeScript for every module imported from here on.
await import('tsx');
await import('../server/src/main.ts');
