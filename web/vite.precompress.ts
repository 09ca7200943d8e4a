import { constants } from 'node:zlib';
import type { Plugin } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';

/**
 * Brotli and gzip copies of every text file at the strongest levels, written once at build time
 * so the server sends them without compressing per request (server/src/http/static-web.ts).
 * Used by both builds: the operator app's and the public page's.
 */
export function precompress(): Plugin {
  return compression({
    include: /\.(js|css|html|svg|json|txt)$/,
    threshold: 512,
    algorithms: [
      defineAlgorithm('brotliCompress', { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
      defineAlgorithm('gzip', { level: 9 }),
    ],
  });
}
