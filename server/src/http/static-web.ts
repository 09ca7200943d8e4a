/**
 * Serves the built web app (`WEB_DIST`) fast on a first visit and cheap on the next:
 *
 * - **compressed**: the build writes a brotli (`.br`) and a gzip (`.gz`) copy beside each text
 *   file (web/vite.config.ts); @fastify/static's `preCompressed` sends the best one the browser
 *   accepts, with `Vary: Accept-Encoding`, and the plain file to a client that accepts neither;
 * - **cached by name**: files under `/assets/` carry a content hash in their names, so a browser
 *   may keep them for a year without asking (`immutable`); everything else — `index.html`,
 *   `heating-view.html`, the silent-renew frame, the favicon — must be revalidated (`no-cache`)
 *   so a deploy is seen on the next load, and names the new hashed files.
 *
 * The security headers (security-headers.ts) are set before any of this and stay on every file.
 */
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** Cache-Control of the content-hashed files under `/assets/`: one year, never revalidated. */
export const HASHED_ASSET_CACHE = 'public, max-age=31536000, immutable';
/** Cache-Control of every other file of the web app: stored, but revalidated before each use. */
export const REVALIDATED_CACHE = 'no-cache';

/** Cache-Control for a file served from `root`; `file` may be its `.br`/`.gz` copy. */
export function cacheControlFor(root: string, file: string): string {
  const relative = path.relative(root, file).split(path.sep);
  return relative.length > 1 && relative[0] === 'assets' ? HASHED_ASSET_CACHE : REVALIDATED_CACHE;
}

/**
 * Registers the static files of `root` (no wildcard route: unknown paths reach the app's 404
 * handler, which falls back to the SPA) and decorates `reply.sendFile` with the same rules.
 */
export async function installStaticWeb(app: FastifyInstance, root: string) {
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    // The legal pages are the server's own (modules/legal); a web build from before they moved
    // there still holds static copies, whose routes would clash with them.
    globIgnore: ['legal/**'],
    preCompressed: true,
    // The header is set per file below instead of @fastify/static's `public, max-age=0`.
    cacheControl: false,
    setHeaders: (reply: FastifyReply, file: string) => {
      reply.header('cache-control', cacheControlFor(root, file));
    },
  });
}
