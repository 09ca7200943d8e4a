/**
 * `zod` as the web build resolves it (vite.config.ts aliases the bare specifier here): the
 * library itself, with its code generation switched off before any schema is built. zod 4
 * probes `new Function` when it builds its first object schema, and under the app's
 * Content-Security-Policy (no 'unsafe-eval', decision 0031) the browser reports that probe as a
 * violation even though zod catches the error; parsing without generated code is what zod falls
 * back to there. As every module with schemas imports zod through here, the switch runs before
 * them whichever chunk they land in — and a chunk without schemas (the first load, decision
 * 0045) carries no zod at all.
 */
import { config } from 'zod/v4/core';

config({ jitless: true });

export * from 'zod/v4';
